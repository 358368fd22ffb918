import {
  CareCertificateMessages,
  type CertificateSummary,
  type CertificateView,
  type ObservationView,
  type StandardProgress,
  type VersionSummary,
} from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUser } from '../app/auth';
import { notificationsStore } from '../app/notifications';
import { applyWhitelabel } from '../app/whitelabel';
import { londonToday } from '../bookings/LearnerSessionParts';
import { stubResizeObserver } from '../test/dom';
import { makeUser } from '../test/factories';
import { type ApiCall, json, paged, stubApi } from '../test/fake-api';
import CareCertificatePage from './CareCertificatePage';
import CertificatePage, { notReadyText } from './CertificatePage';
import {
  fileLocked,
  learnerNext,
  NO_CRITERIA,
  nextCriteria,
  observationCorrectable,
  observationEditable,
  readyToSubmit,
} from './labels';
import { emptyObservation, observationBody, observationChanges } from './observation-form';

// --- Fixtures ------------------------------------------------------------------------------------------------

const criterion = (
  id: number,
  code: string,
  evidenced: boolean,
  o: Partial<StandardProgress['outcomes'][0]['criteria'][0]> = {},
) => ({
  id,
  code,
  text: `Criterion ${code}`,
  requires_observation: false,
  position: id,
  evidenced,
  results: [],
  file_ids: [],
  observation_ids: [],
  ...o,
});

function standard(o: Partial<StandardProgress> & Pick<StandardProgress, 'id' | 'number'>): StandardProgress {
  const outcomes = o.outcomes ?? [];
  const all = outcomes.flatMap((x) => x.criteria);
  const evidenced = all.filter((c) => c.evidenced).length;
  return {
    title: `Standard title ${o.number}`,
    state: 'open',
    status: evidenced ? 'working_towards' : 'outstanding',
    criteria_total: all.length,
    criteria_evidenced: evidenced,
    ready: all.length > 0 && evidenced === all.length,
    submitted_at: null,
    decided_at: null,
    decided_by: null,
    rejection_reasons: null,
    ...o,
    outcomes,
  };
}

function makeObservation(o: Partial<ObservationView> = {}): ObservationView {
  return {
    id: 301,
    uuid: 'obs-301',
    assessor: { id: 9, name: 'Asha Assessor' },
    observed_at: '2026-11-20T10:00:00.000Z',
    place: 'Rose unit',
    shift: 'early',
    observed: 'Supported a resident with breakfast.',
    outcome: 'competent',
    criterion_ids: [902],
    approved_at: null,
    approved_by: null,
    supersedes_id: null,
    correction_reason: null,
    superseded_by_id: null,
    created_by: 'Asha Assessor',
    created_at: '2026-11-20T10:05:00.000Z',
    ...o,
  };
}

const summaryOf = (v: CertificateView): CertificateSummary => {
  const { provider, assessor_name, notes, standards, files, observations, decisions, can, ...s } = v;
  return s;
};

function makeView(o: Partial<CertificateView> = {}): CertificateView {
  const standards = o.standards ?? [
    standard({
      id: 11,
      number: 1,
      title: 'Understand your role',
      outcomes: [],
    }),
    standard({
      id: 19,
      number: 9,
      title: 'Awareness of mental health, dementia and learning disability',
      outcomes: [
        {
          id: 91,
          code: '9.1',
          title: 'Understand the needs and experiences of people with mental health conditions',
          position: 1,
          criteria: [
            criterion(901, '9.1a', true, {
              results: [
                {
                  result_id: 55,
                  course_title: 'Dementia awareness',
                  completed_at: '2026-11-18T12:00:00.000Z',
                  automatic: true,
                  evidence_id: null,
                },
              ],
            }),
            criterion(902, '9.1b', false, { requires_observation: true }),
          ],
        },
      ],
    }),
  ];
  return {
    uuid: 'cc-1',
    user: {
      id: 7,
      uuid: 'u-7',
      name: 'Sam Carer',
      entity: { id: 2, slug: 'oakfield', name: 'Oakfield House' },
    },
    version: { id: 2, code: '2025', title: 'Care Certificate (2025)' },
    status: 'in_progress',
    historical: false,
    started_on: '2026-11-02',
    expected_by: '2027-01-25',
    completed_on: null,
    overdue: false,
    nmds: 'in_progress',
    standards_total: standards.length,
    standards_approved: standards.filter((s) => s.state === 'approved').length,
    standards_awaiting_approval: standards.filter((s) => s.state === 'awaiting_approval').length,
    criteria_total: standards.reduce((n, s) => n + s.criteria_total, 0),
    criteria_evidenced: standards.reduce((n, s) => n + s.criteria_evidenced, 0),
    assigned_by: 'Mia Manager',
    created_at: '2026-11-02T09:00:00.000Z',
    provider: null,
    assessor_name: null,
    notes: null,
    standards,
    files: [],
    observations: [],
    decisions: [],
    can: {
      upload: true,
      observe: false,
      delete_observation: false,
      submit: true,
      approve: false,
      download: false,
      withdraw: false,
      edit_historical: false,
    },
    ...o,
  };
}

const versions: VersionSummary[] = [
  {
    id: 2,
    code: '2025',
    title: 'Care Certificate (2025)',
    effective_from: '2025-03-01',
    is_default: true,
    standards_count: 16,
    criteria_count: 20,
    certificates_count: 3,
  },
  {
    id: 1,
    code: '2015',
    title: 'Care Certificate (2015)',
    effective_from: '2015-04-01',
    is_default: false,
    standards_count: 15,
    criteria_count: 11,
    certificates_count: 0,
  },
];

// --- Harness -------------------------------------------------------------------------------------------------

type Call = ApiCall;
let calls: Call[] = [];
let handler: (call: Call) => Response | undefined = () => undefined;
const writes = () => calls.filter((c) => c.method !== 'GET');
const notices = () => notificationsStore.get().map((n) => n.message);

beforeEach(() => {
  handler = () => undefined;
  notificationsStore.set([]);
  applyWhitelabel({ certificateGroupMenuName: 'Care Certificate' });
  stubResizeObserver();
  calls = stubApi((c) => handler(c));
});
afterEach(() => {
  vi.unstubAllGlobals();
  setUser(null);
});

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/care-certificate', Component: CareCertificatePage },
      { path: '/care-certificate/:uuid', Component: CertificatePage },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const withPerms = (...ids: number[]) =>
  makeUser({ id: 9, name: 'Asha Assessor', permissions: ids.map((id) => ({ id, slug: '' })) });

const LEARNER_NO_CRITERIA = 'Nothing to do here yet: this standard has no assessment criteria so far.';

// --- Rules ---------------------------------------------------------------------------------------------------

describe('certificate rules', () => {
  it('lists the next criteria without evidence of open standards, in standard order', () => {
    const view = makeView();
    expect(nextCriteria(view).map((n) => n.criterion.code)).toEqual(['9.1b']);
    const awaiting = makeView({
      standards: view.standards.map((s) => ({ ...s, state: 'awaiting_approval' as const })),
    });
    expect(nextCriteria(awaiting)).toEqual([]);
    expect(readyToSubmit(view)).toEqual([]);
  });

  it('tells the learner what happens next, and to send a standard only when she may (issue 32 §4)', () => {
    const nine = (s: StandardProgress) => s.number === 9;
    const readyView = makeView({
      standards: makeView().standards.map((s) =>
        nine(s) ? { ...s, ready: true, criteria_evidenced: s.criteria_total } : s,
      ),
    });
    expect(learnerNext(readyView, true)).toBe(
      'Standard 9 has evidence for every criterion: send it to your assessor for approval.',
    );
    expect(learnerNext(readyView, false)).toBe(
      'Standard 9 has evidence for every criterion: your assessor will check it and approve.',
    );
    expect(learnerNext(readyView, false)).not.toMatch(/send|select/i);
    const awaiting = makeView({
      standards: makeView().standards.map((s) =>
        nine(s) ? { ...s, state: 'awaiting_approval' as const } : s,
      ),
    });
    expect(learnerNext(awaiting, true)).toBe(
      'Standard 9 is with your assessor: they approve it or tell you what to add.',
    );
    expect(learnerNext(makeView({ status: 'complete' }), true)).toMatch(/complete: you can download it/);
  });

  it('says why a standard cannot be approved yet', () => {
    const [none, nine] = makeView().standards as [StandardProgress, StandardProgress];
    expect(notReadyText(none)).toBe(NO_CRITERIA);
    expect(notReadyText(nine)).toBe('1 of 2 criteria still need evidence.');
    expect(notReadyText({ ...nine, ready: true, criteria_evidenced: 2 })).toBeNull();
  });

  it('keeps evidence of an approved standard from being removed', () => {
    const view = makeView();
    const [one, nine] = view.standards as [StandardProgress, StandardProgress];
    const withFile = {
      ...nine,
      outcomes: nine.outcomes.map((o) => ({
        ...o,
        criteria: o.criteria.map((c) => ({ ...c, file_ids: [77] })),
      })),
    };
    expect(fileLocked({ standards: [one, withFile] }, 77)).toBe(false);
    expect(fileLocked({ standards: [one, { ...withFile, state: 'approved' }] }, 77)).toBe(true);
    expect(fileLocked({ standards: [one, { ...withFile, state: 'approved' }] }, 78)).toBe(false);
  });

  it('edits only unapproved observations and corrects only approved ones not yet corrected', () => {
    const open = makeObservation();
    const approved = makeObservation({ approved_at: '2026-11-21T10:00:00Z' });
    const corrected = makeObservation({ approved_at: '2026-11-21T10:00:00Z', superseded_by_id: 302 });
    expect([observationEditable(open), observationCorrectable(open)]).toEqual([true, false]);
    expect([observationEditable(approved), observationCorrectable(approved)]).toEqual([false, true]);
    expect([observationEditable(corrected), observationCorrectable(corrected)]).toEqual([false, false]);
  });

  it('makes the observation body with the contract’s messages, and requires a reason for a correction', () => {
    const empty = observationBody(emptyObservation(new Date(2026, 10, 20, 9, 30)));
    expect(empty.ok).toBe(false);
    if (empty.ok) return;
    expect(empty.errors.place).toEqual(['Enter where it was observed.']);
    expect(empty.errors.shift).toEqual(['Choose a shift.']);
    expect(empty.errors.outcome).toEqual(['Choose an outcome.']);
    expect(empty.errors.criterion_ids).toEqual(['Choose at least one criterion.']);

    const filled = {
      ...emptyObservation(new Date(2026, 10, 20, 9, 30), [902]),
      place: 'Rose unit',
      shift: 'early' as const,
      observed: 'Supported a resident.',
      outcome: 'competent' as const,
    };
    const ok = observationBody(filled);
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    expect(ok.body).toMatchObject({ place: 'Rose unit', criterion_ids: [902], supersedes_id: null });
    expect(ok.body).not.toHaveProperty('assessor_name');
    expect(new Date(ok.body.observed_at).getTime()).toBe(new Date(2026, 10, 20, 9, 30).getTime());

    const correction = observationBody(filled, makeObservation({ approved_at: '2026-11-21T10:00:00Z' }));
    expect(correction.ok).toBe(false);
    if (correction.ok) return;
    expect(correction.errors.correction_reason).toBeDefined();
    const other = observationBody({ ...filled, assessor: 'other', assessor_name: '' });
    expect(other.ok ? null : other.errors.assessor_name).toBeDefined();
  });

  it('sends only the changed fields of an edited observation', () => {
    const original = makeObservation();
    const body = {
      observed_at: '2026-11-20T10:00:00Z',
      place: 'Lilac unit',
      shift: 'early' as const,
      observed: original.observed,
      outcome: 'competent' as const,
      criterion_ids: [902],
      supersedes_id: null,
      correction_reason: null,
    };
    expect(observationChanges(original, body)).toEqual({ place: 'Lilac unit' });
  });

  it('defaults the start date to today in London', () => {
    expect(londonToday(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
    expect(londonToday(new Date('2026-12-31T23:30:00Z'))).toBe('2026-12-31');
  });
});

// --- /care-certificate ---------------------------------------------------------------------------------------

describe('/care-certificate', () => {
  it('shows a learner their progress, what to do next, and a standard’s criteria with evidence', async () => {
    setUser(makeUser());
    applyWhitelabel({ certificateGroupMenuName: 'Induction Standards' });
    const view = makeView();
    handler = (c) =>
      c.path === '/care-certificates/mine'
        ? json(200, { data: [summaryOf(view)] })
        : c.path === '/care-certificates/cc-1'
          ? json(200, { data: view })
          : undefined;
    renderAt('/care-certificate');
    expect(await screen.findByRole('heading', { level: 1, name: 'Induction Standards' })).toBeInTheDocument();
    const card = await screen.findByTestId('my-certificate');
    expect(within(card).getByText('0 of 2 standards approved')).toBeInTheDocument();
    expect(within(screen.getByTestId('next-criteria')).getByText(/Criterion 9.1b/)).toBeInTheDocument();
    // The manager list is not there for a learner.
    expect(screen.queryByTestId('certificates-list')).toBeNull();

    const user = userEvent.setup();
    const nine = within(card).getByRole('button', { name: /Standard 9:/ });
    expect(nine).toHaveAttribute('aria-expanded', 'false');
    nine.focus();
    await user.keyboard('{Enter}');
    expect(nine).toHaveAttribute('aria-expanded', 'true');
    expect(within(card).getByText(/Training: Dementia awareness/)).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: /Standard 1:/ }));
    // Issue 32 §3, §4: her own words, what happens next, and which standards have no criteria yet.
    expect(within(card).getByText(LEARNER_NO_CRITERIA)).toBeInTheDocument();
    expect(within(card).queryByText(NO_CRITERIA)).toBeNull();
    expect(within(card).getByTestId('what-next')).toHaveTextContent(
      'For the criteria still open, upload a photo or a note, or show your assessor at work.',
    );
    expect(within(card).getByTestId('criteria-gaps')).toHaveTextContent(
      'Standard 1 of Care Certificate (2025) has no assessment criteria yet',
    );
    expect(within(card).getByTestId('criteria-gaps')).toHaveTextContent(
      'You can work on every other standard now.',
    );
    expect(within(card).queryByText(/select (it|them) for approval/i)).toBeNull();
  });

  it('tells a learner without a certificate what happens next', async () => {
    setUser(makeUser());
    handler = (c) => (c.path === '/care-certificates/mine' ? json(200, { data: [] }) : undefined);
    renderAt('/care-certificate');
    expect(await screen.findByText('You have not started the Care Certificate yet')).toBeInTheDocument();
  });

  it('lists people’s certificates with filters in the address, and assigns the default version', async () => {
    setUser(withPerms(86));
    const view = makeView({ overdue: true, standards_awaiting_approval: 1 });
    handler = (c) => {
      if (c.path === '/care-certificates/mine') return json(200, { data: [] });
      if (c.path.startsWith('/care-certificates?')) return json(200, paged([summaryOf(view)]));
      if (c.path === '/care-certificate-versions') return json(200, { data: versions });
      if (c.method === 'POST' && c.path === '/care-certificates')
        return json(201, { data: summaryOf(view), message: CareCertificateMessages.assigned });
      if (c.path.startsWith('/users?'))
        return json(
          200,
          paged([
            {
              id: 44,
              uuid: 'u-44',
              name: 'Nia New',
              email: 'nia@example.test',
              primary_entity: { id: 2, name: 'Oakfield House' },
            },
          ]),
        );
      return undefined;
    };
    const router = renderAt('/care-certificate');
    const list = await screen.findByTestId('certificates-list');
    expect(await within(list).findByRole('link', { name: 'Sam Carer' })).toHaveAttribute(
      'href',
      '/care-certificate/cc-1',
    );
    expect(within(list).getAllByText('Overdue').length).toBeGreaterThan(0);

    const user = userEvent.setup();
    await user.click(within(list).getByLabelText('Overdue'));
    await waitFor(() => expect(router.state.location.search).toContain('overdue=1'));
    await waitFor(() =>
      expect(
        calls.some((c) => c.path.startsWith('/care-certificates?') && c.path.includes('overdue=1')),
      ).toBe(true),
    );

    await user.click(within(list).getAllByRole('button', { name: 'Assign' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByLabelText(/Version/)).toHaveValue('2'));
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await within(dialog).findByText('Choose a person.')).toBeInTheDocument();
    expect(writes()).toEqual([]);

    await user.type(within(dialog).getByRole('combobox', { name: /Person/ }), 'Nia');
    await user.click(await screen.findByRole('option', { name: /Nia New/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    await waitFor(() =>
      expect(writes()).toEqual([
        {
          method: 'POST',
          path: '/care-certificates',
          body: { user_id: 44, version_id: 2, started_on: londonToday() },
        },
      ]),
    );
    await waitFor(() => expect(notices()).toContain(CareCertificateMessages.assigned));
  });

  it('shows the server’s refusal in the assign dialog', async () => {
    setUser(withPerms(86));
    handler = (c) => {
      if (c.path === '/care-certificates/mine') return json(200, { data: [] });
      if (c.path.startsWith('/care-certificates?')) return json(200, paged([]));
      if (c.path === '/care-certificate-versions') return json(200, { data: versions });
      if (c.method === 'POST') return json(409, { message: CareCertificateMessages.alreadyAssigned });
      if (c.path.startsWith('/users?'))
        return json(
          200,
          paged([{ id: 44, uuid: 'u-44', name: 'Nia New', email: 'n@x.test', primary_entity: null }]),
        );
      return undefined;
    };
    renderAt('/care-certificate');
    const list = await screen.findByTestId('certificates-list');
    expect(
      await within(list).findByText('Nobody has been assigned the Care Certificate yet'),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(list).getAllByRole('button', { name: 'Assign' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByLabelText(/Version/)).toHaveValue('2'));
    await user.type(within(dialog).getByRole('combobox', { name: /Person/ }), 'Nia');
    await user.click(await screen.findByRole('option', { name: /Nia New/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await within(dialog).findByText(CareCertificateMessages.alreadyAssigned)).toBeInTheDocument();
  });

  it('preselects the version the organisation starts new certificates on (its settings)', async () => {
    setUser(withPerms(86));
    handler = (c) => {
      if (c.path === '/care-certificates/mine') return json(200, { data: [] });
      if (c.path.startsWith('/care-certificates?')) return json(200, paged([]));
      if (c.path === '/care-certificate-versions') return json(200, { data: versions });
      if (c.path === '/care-certificate-settings')
        return json(200, {
          data: { entity_id: 1, expected_weeks: 12, default_version_id: 1, inherited_from: null },
        });
      return undefined;
    };
    renderAt('/care-certificate');
    const list = await screen.findByTestId('certificates-list');
    const user = userEvent.setup();
    await user.click(within(list).getAllByRole('button', { name: 'Assign' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByLabelText(/Version/)).toHaveValue('1'));
  });
});

// --- /care-certificate/{uuid} --------------------------------------------------------------------------------

describe('/care-certificate/{uuid}', () => {
  const ready = () =>
    makeView({
      standards: makeView().standards.map((s) =>
        s.number === 9
          ? {
              ...s,
              ready: true,
              criteria_evidenced: 2,
              status: 'working_towards' as const,
              outcomes: s.outcomes.map((o) => ({
                ...o,
                criteria: o.criteria.map((c) => ({ ...c, evidenced: true })),
              })),
            }
          : s,
      ),
    });

  it('lets the learner select a ready standard for approval, never one without criteria', async () => {
    setUser(makeUser());
    const view = ready();
    handler = (c) => {
      if (c.path === '/care-certificates/cc-1') return json(200, { data: view });
      if (c.method === 'POST' && c.path === '/care-certificates/cc-1/standards/19/submit')
        return json(200, { data: view, message: CareCertificateMessages.standardSubmitted });
      return undefined;
    };
    renderAt('/care-certificate/cc-1');
    const standards = await screen.findByTestId('standards');
    const user = userEvent.setup();
    await user.click(within(standards).getByRole('button', { name: /Standard 1:/ }));
    expect(within(screen.getByTestId('standard-1')).getByText(LEARNER_NO_CRITERIA)).toBeInTheDocument();
    expect(
      within(screen.getByTestId('standard-1')).queryByRole('button', { name: /Send Standard/ }),
    ).toBeNull();
    expect(screen.getByTestId('what-next')).toHaveTextContent(
      'Standard 9 has evidence for every criterion: send it to your assessor for approval.',
    );
    await user.click(within(standards).getByRole('button', { name: /Standard 9:/ }));
    await user.click(
      within(screen.getByTestId('standard-9')).getByRole('button', {
        name: 'Send Standard 9 to your assessor',
      }),
    );
    await waitFor(() =>
      expect(writes().map((w) => w.path)).toEqual(['/care-certificates/cc-1/standards/19/submit']),
    );
    expect(screen.queryByRole('button', { name: /Approve Standard/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
  });

  it('her own certificate hides assessor actions even when she holds them; the assessor keeps the assessor’s words', async () => {
    // The learner herself holds observe (89) and approve (93) elsewhere: on her own certificate none shows.
    setUser(
      makeUser({
        permissions: [
          { id: 89, slug: '' },
          { id: 93, slug: '' },
        ],
      }),
    );
    const view = { ...ready(), can: { ...makeView().can, observe: true, approve: true } };
    handler = (c) => (c.path === '/care-certificates/cc-1' ? json(200, { data: view }) : undefined);
    renderAt('/care-certificate/cc-1');
    const standards = await screen.findByTestId('standards');
    const user = userEvent.setup();
    await user.click(within(standards).getByRole('button', { name: /Standard 9:/ }));
    const nine = screen.getByTestId('standard-9');
    expect(within(nine).queryByRole('button', { name: /Approve Standard/ })).toBeNull();
    expect(within(nine).queryByRole('button', { name: 'Record an observation' })).toBeNull();
    expect(
      within(nine).getByRole('button', { name: 'Upload a photo or a note for this' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('criteria-gaps')).toHaveTextContent(
      'You can work on every other standard now.',
    );
    expect(screen.getByTestId('approval-history')).toHaveTextContent(
      'No standard has been sent to your assessor yet.',
    );
  });

  it('an assessor on someone else’s certificate keeps the assessor’s words', async () => {
    setUser(withPerms(89, 93));
    const view = { ...ready(), can: { ...makeView().can, observe: true, approve: true } };
    handler = (c) => (c.path === '/care-certificates/cc-1' ? json(200, { data: view }) : undefined);
    renderAt('/care-certificate/cc-1');
    const standards = await screen.findByTestId('standards');
    const user = userEvent.setup();
    await user.click(within(standards).getByRole('button', { name: /Standard 9:/ }));
    const nine = screen.getByTestId('standard-9');
    expect(within(nine).getByRole('button', { name: 'Approve Standard 9' })).toBeInTheDocument();
    expect(within(nine).getByRole('button', { name: 'Record an observation' })).toBeInTheDocument();
    expect(within(nine).getByRole('button', { name: 'Upload evidence' })).toBeInTheDocument();
    expect(within(nine).getByRole('button', { name: 'Select for approval' })).toBeInTheDocument();
    expect(within(nine).queryByText(/Show your assessor/)).toBeNull();
    expect(screen.queryByTestId('what-next')).toBeNull();
    expect(screen.getByTestId('criteria-gaps')).toHaveTextContent('until a super admin imports the criteria');
    expect(screen.getByTestId('approval-history')).toHaveTextContent(
      'No standard has been selected for approval yet.',
    );
    await user.click(within(standards).getByRole('button', { name: /Standard 1:/ }));
    expect(within(screen.getByTestId('standard-1')).getByText(NO_CRITERIA)).toBeInTheDocument();
  });

  it('shows the server’s reason when a standard cannot be approved', async () => {
    setUser(withPerms(93));
    const view = { ...ready(), can: { ...makeView().can, approve: true } };
    handler = (c) => {
      if (c.path === '/care-certificates/cc-1') return json(200, { data: view });
      if (c.method === 'POST')
        return json(422, {
          message: 'The given data was invalid.',
          errors: { standard: [CareCertificateMessages.criteriaMissingEvidence] },
        });
      return undefined;
    };
    renderAt('/care-certificate/cc-1');
    const standards = await screen.findByTestId('standards');
    const user = userEvent.setup();
    await user.click(within(standards).getByRole('button', { name: /Standard 9:/ }));
    await user.click(screen.getByRole('button', { name: 'Approve Standard 9' }));
    expect(await screen.findByText(CareCertificateMessages.criteriaMissingEvidence)).toBeInTheDocument();
  });

  it('returns an awaiting standard with reasons (93), which are required', async () => {
    setUser(withPerms(93));
    const base = ready();
    const view = {
      ...base,
      standards: base.standards.map((s) =>
        s.number === 9
          ? { ...s, state: 'awaiting_approval' as const, status: 'awaiting_approval' as const }
          : s,
      ),
      can: { ...base.can, approve: true },
    };
    handler = (c) => {
      if (c.path === '/care-certificates/cc-1') return json(200, { data: view });
      if (c.method === 'POST')
        return json(200, { data: view, message: CareCertificateMessages.standardRejected });
      return undefined;
    };
    renderAt('/care-certificate/cc-1');
    const standards = await screen.findByTestId('standards');
    const user = userEvent.setup();
    await user.click(within(standards).getByRole('button', { name: /Standard 9:/ }));
    await user.click(screen.getByRole('button', { name: 'Return with reasons' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Return with reasons' }));
    expect(await within(dialog).findByText('Give the reasons.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Reasons/), 'Observe 9.1b again on a late shift.');
    await user.click(within(dialog).getByRole('button', { name: 'Return with reasons' }));
    await waitFor(() =>
      expect(writes()).toEqual([
        {
          method: 'POST',
          path: '/care-certificates/cc-1/standards/19/reject',
          body: { reasons: 'Observe 9.1b again on a late shift.' },
        },
      ]),
    );
  });

  it('records an observation with the criteria chosen by outcome, and shows field errors from the server', async () => {
    setUser(withPerms(89));
    const view = { ...makeView(), can: { ...makeView().can, observe: true } };
    let posts = 0;
    handler = (c) => {
      if (c.path === '/care-certificates/cc-1') return json(200, { data: view });
      if (c.method === 'POST' && c.path === '/care-certificates/cc-1/observations') {
        posts += 1;
        return posts === 1
          ? json(422, {
              message: 'The given data was invalid.',
              errors: { place: ['Enter a place we know.'] },
            })
          : json(201, { data: makeObservation(), message: CareCertificateMessages.observationSaved });
      }
      return undefined;
    };
    renderAt('/care-certificate/cc-1');
    const user = userEvent.setup();
    await user.click(
      within(await screen.findByTestId('observations')).getByRole('button', {
        name: 'Record an observation',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Me (Asha Assessor)')).toBeChecked();
    await user.type(within(dialog).getByLabelText(/Place/), 'Rose unit');
    await user.selectOptions(within(dialog).getByLabelText(/Shift/), 'early');
    await user.type(within(dialog).getByLabelText(/What was observed/), 'Supported a resident at breakfast.');
    await user.click(within(dialog).getByLabelText('Competent'));
    expect(within(dialog).getByRole('group', { name: /9.1 Understand/ })).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText(/9.1b/));
    await user.click(within(dialog).getByRole('button', { name: 'Save observation' }));
    expect(await within(dialog).findByText('Enter a place we know.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save observation' }));
    await waitFor(() => expect(notices()).toContain(CareCertificateMessages.observationSaved));
    const body = writes()[1]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      place: 'Rose unit',
      shift: 'early',
      outcome: 'competent',
      criterion_ids: [902],
      supersedes_id: null,
    });
  });

  it('strikes a corrected observation, corrects an approved one and confirms before deleting', async () => {
    setUser(withPerms(89, 90, 93));
    const old = makeObservation({
      id: 301,
      approved_at: '2026-11-21T10:00:00Z',
      approved_by: 'Mia Manager',
      superseded_by_id: 303,
    });
    const fix = makeObservation({
      id: 303,
      supersedes_id: 301,
      correction_reason: 'Wrong shift recorded.',
      shift: 'late',
      observed_at: '2026-11-22T10:00:00Z',
    });
    const approved = makeObservation({
      id: 304,
      approved_at: '2026-11-23T10:00:00Z',
      observed_at: '2026-11-19T10:00:00Z',
    });
    const view = {
      ...makeView(),
      observations: [old, fix, approved],
      can: { ...makeView().can, observe: true, delete_observation: true, approve: true },
    };
    handler = (c) => {
      if (c.path === '/care-certificates/cc-1') return json(200, { data: view });
      if (c.method === 'DELETE') return json(200, { message: CareCertificateMessages.observationDeleted });
      return undefined;
    };
    renderAt('/care-certificate/cc-1');
    const struck = await screen.findByTestId('observation-301');
    expect(within(struck).getByText('Superseded by a correction')).toBeInTheDocument();
    expect(within(struck).queryByRole('button')).toBeNull();
    const fixed = screen.getByTestId('observation-303');
    expect(within(fixed).getByText(/Reason: Wrong shift recorded./)).toBeInTheDocument();
    expect(
      within(screen.getByTestId('observation-304')).getByRole('button', { name: 'Correct' }),
    ).toBeInTheDocument();
    expect(within(screen.getByTestId('observation-304')).queryByRole('button', { name: 'Edit' })).toBeNull();

    const user = userEvent.setup();
    await user.click(within(fixed).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(writes()).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(writes().map((w) => `${w.method} ${w.path}`)).toEqual([
        'DELETE /care-certificates/cc-1/observations/303',
      ]),
    );
  });

  it('lists training records linked by hand once, and removes a link after a confirmation', async () => {
    setUser(makeUser());
    const linked = {
      result_id: 77,
      course_title: 'Safeguarding adults',
      completed_at: '2026-11-10T12:00:00.000Z',
      automatic: false,
      evidence_id: 5,
    };
    const base = makeView();
    const view = makeView({
      standards: base.standards.map((s) => ({
        ...s,
        outcomes: s.outcomes.map((o) => ({
          ...o,
          criteria: o.criteria.map((c) => ({ ...c, results: [...c.results, linked] })),
        })),
      })),
    });
    handler = (c) => {
      if (c.path === '/care-certificates/cc-1') return json(200, { data: view });
      if (c.method === 'DELETE' && c.path === '/care-certificates/cc-1/evidence/5')
        return json(200, { data: base, message: CareCertificateMessages.evidenceRemoved });
      return undefined;
    };
    renderAt('/care-certificate/cc-1');
    const records = await screen.findByRole('list', { name: 'Training records linked' });
    expect(within(records).getAllByRole('listitem')).toHaveLength(1);
    expect(within(records).getByText(/linked to 9\.1a, 9\.1b/)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(records).getByRole('button', { name: 'Remove the link to Safeguarding adults' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(writes()).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(writes().map((w) => `${w.method} ${w.path}`)).toEqual([
        'DELETE /care-certificates/cc-1/evidence/5',
      ]),
    );
  });

  it('offers the PDF of a complete certificate and withdraws after a confirmation', async () => {
    setUser(withPerms(86, 88));
    const view = makeView({
      status: 'complete',
      completed_on: '2026-11-25',
      can: { ...makeView().can, download: true, withdraw: true },
    });
    handler = (c) => {
      if (c.path === '/care-certificates/cc-1') return json(200, { data: view });
      if (c.method === 'DELETE') return json(200, { message: CareCertificateMessages.withdrawn });
      return undefined;
    };
    const router = renderAt('/care-certificate/cc-1');
    expect(await screen.findByRole('button', { name: 'Download certificate' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/care-certificate'));
    expect(writes().map((w) => `${w.method} ${w.path}`)).toEqual(['DELETE /care-certificates/cc-1']);
  });

  it('shows a certificate completed elsewhere as its record, with Edit for 92', async () => {
    setUser(withPerms(92));
    const base = makeView();
    const view = makeView({
      historical: true,
      status: 'complete',
      completed_on: '2025-10-22',
      provider: 'Elmfield Home Care',
      assessor_name: 'Jan Walsh',
      standards: base.standards.map((s) => ({
        ...s,
        state: 'approved' as const,
        status: 'approved' as const,
      })),
      can: { ...base.can, upload: false, submit: false, edit_historical: true },
    });
    handler = (c) => (c.path === '/care-certificates/cc-1' ? json(200, { data: view }) : undefined);
    renderAt('/care-certificate/cc-1');
    expect(await screen.findByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      '/care-certificate/historical/update/cc-1',
    );
    expect(screen.getByText('Elmfield Home Care')).toBeInTheDocument();
    expect(screen.getAllByText('Completed elsewhere').length).toBeGreaterThan(1);
    expect(screen.queryByTestId('observations')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('sends a missing or out-of-scope certificate to the not-found page', async () => {
    setUser(makeUser());
    const router = renderAt('/care-certificate/nope');
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
    expect(router.state.location.search).toBe('?resource=certificate');
  });
});
