import {
  type AllocationStepView,
  type AllocationSummary,
  type AllocationView,
  type PathwayChangesView,
  PathwayMessages,
  type PathwayView,
} from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUser } from '../app/auth';
import { notificationsStore } from '../app/notifications';
import { stubResizeObserver } from '../test/dom';
import { makeUser } from '../test/factories';
import { type ApiCall, json, paged, stubApi } from '../test/fake-api';
import { graphqlData, graphqlOperation, paginator } from '../test/graphql';
import { AwaitingSignOffWidget } from './AwaitingSignOffWidget';
import {
  allChosen,
  checkDraft,
  type Draft,
  draftFromView,
  emptyDraft,
  errorsAfterEdit,
  moveStep,
  moveStepTo,
  newStep,
  otherStepErrors,
  removeStep,
  stepErrors,
  toCreateBody,
  toStepInput,
  toUpdateBody,
} from './editor';
import PathwayEditorPage from './PathwayEditorPage';
import PathwayPage from './PathwayPage';
import { VersionChoiceDialog } from './VersionChoiceDialog';

// --- Fixtures ------------------------------------------------------------------------------------------------

const KEY_A = '11111111-1111-4111-8111-111111111111';
const KEY_B = '22222222-2222-4222-8222-222222222222';
const KEY_C = '33333333-3333-4333-8333-333333333333';
const ALLOC = '44444444-4444-4444-8444-444444444444';
const entity = { id: 1, slug: 'oakfield', name: 'Oakfield House' };

function pathwayView(o: Partial<PathwayView> = {}): PathwayView {
  return {
    id: 7,
    uuid: '77777777-7777-4777-8777-777777777777',
    title: 'New carer induction',
    description: null,
    entity,
    course_id: 70,
    sequential: true,
    requires_final_sign_off: true,
    version: 1,
    step_count: 2,
    counts: { in_progress: 3, awaiting_sign_off: 0, completed: 0 },
    updated_at: '2026-11-01T10:00:00Z',
    steps: [
      {
        key: KEY_A,
        position: 1,
        type: 'course',
        course: { id: 5, title: 'Fire safety' },
        document: null,
        title: 'Fire safety',
        description: null,
        due_days: 14,
        due_from: 'allocation',
      },
      {
        key: KEY_B,
        position: 2,
        type: 'sign_off',
        course: null,
        document: null,
        title: 'Moving and handling observed',
        description: 'Watched on shift',
        due_days: null,
        due_from: 'allocation',
      },
    ],
    versions: [
      {
        id: 1,
        number: 1,
        change_note: null,
        changes: [],
        created_by: null,
        created_at: '2026-11-01T10:00:00Z',
        in_progress: 3,
      },
    ],
    role_allocations: [],
    can: { edit: true, allocate: true, sign_off: true },
    ...o,
  };
}

function step(
  o: Partial<AllocationStepView> & Pick<AllocationStepView, 'key' | 'title' | 'type'>,
): AllocationStepView {
  return {
    position: 1,
    course: null,
    document: null,
    description: null,
    due_days: null,
    due_from: 'allocation',
    status: 'to_do',
    due_on: null,
    done_at: null,
    sign_off: null,
    href: null,
    ...o,
  };
}

function allocationView(o: Partial<AllocationView> = {}): AllocationView {
  return {
    uuid: ALLOC,
    pathway: { id: 7, title: 'New carer induction' },
    user: { id: 3, uuid: 'u-3', name: 'Lee Learner' },
    version: 1,
    current_version: 1,
    status: 'in_progress',
    via_role: null,
    steps_done: 0,
    steps_total: 3,
    allocated_at: '2026-11-01T10:00:00Z',
    completed_at: null,
    next_due_on: '2026-11-15',
    sequential: true,
    requires_final_sign_off: true,
    steps: [
      step({
        key: KEY_A,
        title: 'Fire safety',
        type: 'course',
        course: { id: 5, title: 'Fire safety' },
        href: '/courses/5',
        due_on: '2026-11-15',
      }),
      step({
        key: KEY_C,
        title: 'Whistleblowing policy',
        type: 'document',
        href: '/document/9',
        status: 'locked',
      }),
      step({ key: KEY_B, title: 'Moving and handling observed', type: 'sign_off', status: 'locked' }),
    ],
    signed_off: null,
    result_id: null,
    can: { sign_off: true, withdraw: true },
    ...o,
  };
}

const summaryOf = (a: AllocationView): AllocationSummary => {
  const { sequential, requires_final_sign_off, steps, signed_off, result_id, can, ...rest } = a;
  return rest;
};

// --- Harness -------------------------------------------------------------------------------------------------

type Call = ApiCall;
let calls: Call[] = [];
let handler: (c: Call) => Response | undefined = () => undefined;
const writes = () => calls.filter((c) => c.method !== 'GET');
const notices = () => notificationsStore.get().map((n) => n.message);

beforeEach(() => {
  handler = () => undefined;
  notificationsStore.set([]);
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
      { path: '/pathways/update/:id', Component: PathwayEditorPage },
      { path: '/pathways/create', Component: PathwayEditorPage },
      { path: '/pathways/:id', Component: PathwayPage },
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
  makeUser({ id: 9, name: 'Mo Manager', permissions: ids.map((id) => ({ id, slug: '' })) });

// --- Editor rules ----------------------------------------------------------------------------------------------

describe('pathway editor rules', () => {
  const three = () => {
    const a = { ...newStep('course'), course: { id: 5, label: 'Fire safety' } };
    const b = { ...newStep('document'), document: { id: 9, label: 'Whistleblowing policy' } };
    const c = { ...newStep('sign_off'), title: 'Observed' };
    return [a, b, c];
  };

  it('moves a step up, down and to a dropped place, never past the ends', () => {
    const [a, b, c] = three();
    const steps = [a, b, c] as NonNullable<typeof a>[];
    expect(moveStep(steps, 0, 1).map((s) => s.id)).toEqual([b?.id, a?.id, c?.id]);
    expect(moveStep(steps, 2, -1).map((s) => s.id)).toEqual([a?.id, c?.id, b?.id]);
    expect(moveStep(steps, 0, -1)).toBe(steps);
    expect(moveStep(steps, 2, 1)).toBe(steps);
    expect(moveStepTo(steps, 2, 0).map((s) => s.id)).toEqual([c?.id, a?.id, b?.id]);
    expect(removeStep(steps, 1).map((s) => s.id)).toEqual([a?.id, c?.id]);
  });

  it('sends only the fields of the step type, a key for existing steps, and due days as a number', () => {
    const [course, doc, signOff] = three();
    expect(
      toStepInput({ ...(course as NonNullable<typeof course>), key: KEY_A, dueDays: '14', title: 'x' }),
    ).toEqual({
      key: KEY_A,
      type: 'course',
      course_id: 5,
      document_id: null,
      title: null,
      description: null,
      due_days: 14,
      due_from: 'allocation',
    });
    expect(toStepInput(doc as NonNullable<typeof doc>)).toMatchObject({
      document_id: 9,
      course_id: null,
      due_days: null,
    });
    expect(toStepInput({ ...(signOff as NonNullable<typeof signOff>), dueFrom: 'start_date' })).toMatchObject(
      {
        title: 'Observed',
        due_from: 'start_date',
      },
    );
    // A new step carries a fresh uuid, the same in the preview and the save, so a version choice can name it.
    const fresh = toStepInput(signOff as NonNullable<typeof signOff>).key;
    expect(fresh).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(toStepInput(signOff as NonNullable<typeof signOff>).key).toBe(fresh);
    expect(newStep('course').key).not.toBe(fresh);
  });

  it('checks the draft with the contract, keyed like the server (steps.{i}.{field})', () => {
    const draft: Draft = { ...emptyDraft(), steps: [newStep('course'), newStep('sign_off')] };
    const errors = checkDraft(draft, 'create');
    expect(errors?.title).toEqual(['Enter a title.']);
    expect(errors?.['steps.0.course_id']).toEqual(['Choose a course.']);
    expect(errors?.['steps.1.title']).toEqual(['Name the competence to sign off.']);
    expect(stepErrors(errors ?? {}, 1)).toEqual({ title: ['Name the competence to sign off.'] });
    expect(stepErrors({ 'steps.1': ['Whole step'], 'steps.10.title': ['Other step'] }, 1)).toEqual({
      _: ['Whole step'],
    });
    // A course step's error on a field it has no control for is still shown (on the step).
    expect(otherStepErrors({ course_id: ['a'], title: ['b'], _: ['c'] }, 'course')).toEqual(['b', 'c']);
    expect(checkDraft({ ...emptyDraft(), title: 'T' }, 'create')?.steps).toEqual([PathwayMessages.noSteps]);
    const bad = { ...newStep('sign_off'), title: 'x', dueDays: '-2' };
    expect(
      checkDraft({ ...emptyDraft(), title: 'T', steps: [bad] }, 'create')?.['steps.0.due_days'],
    ).toBeDefined();
  });

  it('reads a pathway into a draft in step order and sends the version choices with the note', () => {
    const view = pathwayView();
    const draft = draftFromView({ ...view, steps: [...view.steps].reverse() });
    expect(draft.steps.map((s) => s.key)).toEqual([KEY_A, KEY_B]);
    expect(draft.steps[0]?.course).toEqual({ id: 5, label: 'Fire safety' });
    expect(draft.steps[0]?.dueDays).toBe('14');
    expect(draft.steps[1]?.title).toBe('Moving and handling observed');
    const body = toUpdateBody(draft, { choices: { [KEY_B]: 'redo' }, note: ' Clearer wording ' });
    expect(body.choices).toEqual([{ step_key: KEY_B, choice: 'redo' }]);
    expect(body.change_note).toBe('Clearer wording');
    expect(toUpdateBody(draft)).not.toHaveProperty('choices');
  });

  it('drops the errors of what was edited, and sends the owner only when chosen', () => {
    const errors = { title: ['Enter a title.'], 'steps.0.course_id': ['Choose a course.'], entity: ['No.'] };
    expect(errorsAfterEdit(errors, { title: 'T' })).toEqual({
      'steps.0.course_id': ['Choose a course.'],
      entity: ['No.'],
    });
    expect(errorsAfterEdit(errors, { steps: [] })).toEqual({ title: ['Enter a title.'], entity: ['No.'] });
    expect(toCreateBody({ ...emptyDraft(), title: 'T' })).not.toHaveProperty('entity');
    expect(toCreateBody({ ...emptyDraft(), title: 'T', entity: 'oakfield' }).entity).toBe('oakfield');
  });

  it('knows when every change has a choice', () => {
    const preview: PathwayChangesView = {
      new_version: true,
      in_progress: 2,
      changes: [
        { step_key: KEY_A, change: 'changed', title: 'Fire safety' },
        { step_key: KEY_C, change: 'added', title: 'Policy' },
      ],
    };
    expect(allChosen(preview, { [KEY_A]: 'keep_credit' })).toBe(false);
    expect(allChosen(preview, { [KEY_A]: 'keep_credit', [KEY_C]: 'stay' })).toBe(true);
  });
});

// --- Version choice dialog ----------------------------------------------------------------------------------------

describe('version choice dialog', () => {
  const preview: PathwayChangesView = {
    new_version: true,
    in_progress: 3,
    changes: [
      { step_key: KEY_A, change: 'changed', title: 'Fire safety' },
      { step_key: KEY_C, change: 'added', title: 'Whistleblowing policy' },
      { step_key: KEY_B, change: 'removed', title: 'Moving and handling observed' },
    ],
  };

  it('lists each change, refuses to save until each has a choice, then hands over the choices and the note', async () => {
    const onSave = vi.fn();
    render(<VersionChoiceDialog open preview={preview} busy={false} onSave={onSave} onClose={() => {}} />);
    const user = userEvent.setup();
    expect(screen.getByText(/3 people are working through this pathway/)).toBeInTheDocument();
    const changes = screen.getAllByRole('group');
    expect(changes).toHaveLength(3);
    expect(within(changes[0] as HTMLElement).getByText('Changed')).toBeInTheDocument();
    expect(within(changes[1] as HTMLElement).getByText('Added')).toBeInTheDocument();
    expect(within(changes[2] as HTMLElement).getByText('Removed')).toBeInTheDocument();

    await user.click(within(changes[0] as HTMLElement).getByRole('radio', { name: /Keep their progress/ }));
    await user.click(screen.getByRole('button', { name: 'Save the new version' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByText(PathwayMessages.choicesMissing)).toBeInTheDocument();

    await user.click(within(changes[1] as HTMLElement).getByRole('radio', { name: /Must do it again/ }));
    await user.click(
      within(changes[2] as HTMLElement).getByRole('radio', { name: /Stay on the old version/ }),
    );
    await user.type(screen.getByLabelText(/Change note/), 'New policy step');
    await user.click(screen.getByRole('button', { name: 'Save the new version' }));
    expect(onSave).toHaveBeenCalledWith(
      { [KEY_A]: 'keep_credit', [KEY_C]: 'redo', [KEY_B]: 'stay' },
      'New policy step',
    );
  });
});

// --- Pages -------------------------------------------------------------------------------------------------------

describe('pathway editor page', () => {
  it('saves an edit of a pathway with people in progress through the changes preview and the choices', async () => {
    setUser(withPerms(24, 27, 28, 43));
    const view = pathwayView();
    handler = (c) => {
      if (c.method === 'GET' && c.path === '/pathways/7') return json(200, { data: view });
      if (c.method === 'POST' && c.path === '/pathways/7/changes')
        return json(200, {
          data: {
            new_version: true,
            in_progress: 3,
            changes: [{ step_key: KEY_B, change: 'changed', title: 'Moving and handling observed twice' }],
          },
        });
      if (c.method === 'PATCH' && c.path === '/pathways/7')
        return json(200, { data: { ...view, version: 2 }, message: PathwayMessages.newVersion });
      return undefined;
    };
    const router = renderAt('/pathways/update/7');
    const user = userEvent.setup();
    const competence = await screen.findByLabelText(/Competence to sign off/);
    await user.clear(competence);
    await user.type(competence, 'Moving and handling observed twice');
    // Keyboard reorder: the sign-off goes first.
    await user.click(screen.getByRole('button', { name: 'Move step 2 up' }));
    expect(screen.getAllByTestId('pathway-step')[0]).toHaveTextContent('Step 1: Sign-off');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    const dialog = await screen.findByRole('dialog', { name: 'Save as a new version' });
    expect(writes().map((c) => `${c.method} ${c.path}`)).toEqual(['POST /pathways/7/changes']);
    expect((writes()[0]?.body as { steps: { key: string }[] } | undefined)?.steps.map((s) => s.key)).toEqual([
      KEY_B,
      KEY_A,
    ]);
    await user.click(within(dialog).getByRole('radio', { name: /Must do it again/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save the new version' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/pathways/7'));
    const patch = writes().find((c) => c.method === 'PATCH');
    expect(patch?.body).toMatchObject({
      choices: [{ step_key: KEY_B, choice: 'redo' }],
      title: 'New carer induction',
    });
    expect(notices()).toContain(PathwayMessages.newVersion);
  });

  it("shows the server's 422 beside the step it names, and keeps the draft", async () => {
    setUser(withPerms(24, 27));
    handler = (c) =>
      c.method === 'POST' && c.path === '/pathways'
        ? json(422, {
            message: 'This sign-off is already a step.',
            errors: {
              'steps.0.title': ['This sign-off is already a step.'],
              'steps.0': ['This step cannot be saved.'],
            },
          })
        : undefined;
    const router = renderAt('/pathways/create');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Title/), 'Night shift');
    await user.click(screen.getByRole('button', { name: 'Add a sign-off' }));
    await user.type(screen.getByLabelText(/Competence to sign off/), 'Medication round observed');
    await user.click(screen.getByRole('button', { name: 'Create the pathway' }));
    const field = await screen.findByLabelText(/Competence to sign off/);
    await waitFor(() => expect(field).toHaveAccessibleDescription('This sign-off is already a step.'));
    // An error of the step as a whole shows on the step too.
    expect(screen.getAllByTestId('pathway-step')[0]).toHaveTextContent('This step cannot be saved.');
    expect(router.state.location.pathname).toBe('/pathways/create');
    expect(screen.getByLabelText(/^Title/)).toHaveValue('Night shift');
    expect(writes()[0]?.body).toMatchObject({
      title: 'Night shift',
      steps: [{ type: 'sign_off', title: 'Medication round observed' }],
    });
  });
});

describe('pathway page', () => {
  it('shows a learner their own allocation: start the step to do, locked steps explained, no sign-off buttons', async () => {
    setUser(makeUser({ id: 3, name: 'Lee Learner', permissions: [] }));
    const a = allocationView();
    handler = (c) => {
      if (c.path.startsWith('/pathways/mine')) return json(200, { data: [summaryOf(a)] });
      if (c.path === `/pathway-allocations/${ALLOC}`) return json(200, { data: a });
      if (c.path === '/attempts/current-attempt') return json(200, { data: null });
      if (c.path.startsWith('/users/') && c.path.includes('/available-courses'))
        return json(
          200,
          paged([
            {
              id: 5,
              uuid: 'c-5',
              title: 'Fire safety',
              short_title: null,
              contents: [
                {
                  id: 50,
                  title: 'Fire safety online',
                  type: 'elearning',
                  estimated_duration: 20,
                  cpd_accredited: false,
                },
              ],
              latest_result: null,
            },
          ]),
        );
      if (c.method === 'POST' && c.path.endsWith('/attempts')) return json(201, { data: { id: 900 } });
      return undefined;
    };
    const router = renderAt('/pathways/7');
    const panel = await screen.findByTestId('allocation-panel');
    expect(within(panel).getByText('Opens once step 1, Fire safety, is done.')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: /Sign off/ })).toBeNull();
    // A locked document step offers no link yet.
    expect(within(panel).queryByRole('link', { name: 'Read and acknowledge' })).toBeNull();
    // The learner never asks for the manager's view of the pathway.
    expect(calls.some((c) => c.path === '/pathways/7')).toBe(false);
    // The course step starts the course's online content (the app has no page per course).
    await userEvent.setup().click(await within(panel).findByRole('button', { name: 'Start Fire safety' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/attempt/900'));
    expect(writes()[0]?.body).toEqual({ content_id: 50 });
  });

  it('lets a manager sign off a step of a person, with a note and a date', async () => {
    setUser(withPerms(24, 26, 43));
    const a = allocationView({
      steps: [
        step({
          key: KEY_A,
          title: 'Fire safety',
          type: 'course',
          status: 'done',
          done_at: '2026-11-03T10:00:00Z',
        }),
        step({ key: KEY_B, title: 'Moving and handling observed', type: 'sign_off' }),
      ],
      steps_done: 1,
      steps_total: 2,
    });
    handler = (c) => {
      if (c.path.startsWith('/pathways/mine')) return json(200, { data: [] });
      if (c.path === '/pathways/7') return json(200, { data: pathwayView() });
      if (c.path.startsWith('/pathways/7/allocations')) return json(200, paged([summaryOf(a)]));
      if (c.method === 'GET' && c.path === `/pathway-allocations/${ALLOC}`) return json(200, { data: a });
      if (c.method === 'POST' && c.path === `/pathway-allocations/${ALLOC}/steps/${KEY_B}/sign-off`)
        return json(200, { data: a, message: PathwayMessages.stepSignedOff });
      return undefined;
    };
    const router = renderAt('/pathways/7');
    const user = userEvent.setup();
    const people = await screen.findByTestId('pathway-people');
    await user.click(await within(people).findByRole('button', { name: 'Lee Learner' }));
    expect(router.state.location.search).toBe(`?allocation=${ALLOC}`);
    const panel = await screen.findByTestId('allocation-panel');
    await user.click(within(panel).getByRole('button', { name: 'Sign off: Moving and handling observed' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Sign off' }));
    expect(await within(dialog).findByText('Enter a note.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Note/), 'Safe transfer with hoist');
    await user.click(within(dialog).getByRole('button', { name: 'Sign off' }));
    await waitFor(() => expect(notices()).toContain(PathwayMessages.stepSignedOff));
    expect(writes()[0]?.body).toMatchObject({ note: 'Safe transfer with hoist' });
    expect((writes()[0]?.body as { signed_on?: string } | undefined)?.signed_on).toMatch(
      /^\d{4}-\d{2}-\d{2}$/,
    );
  });
});

describe('manager dashboard widget', () => {
  it('lists the pathways with people awaiting the final sign-off, linking to them', async () => {
    setUser(withPerms(24, 26));
    const waiting = pathwayView({ counts: { in_progress: 1, awaiting_sign_off: 2, completed: 0 } });
    const quiet = pathwayView({
      id: 8,
      title: 'Night shift',
      counts: { in_progress: 4, awaiting_sign_off: 0, completed: 1 },
    });
    // The pathways list is read through GraphQL (web/src/app/graphql).
    handler = (c) =>
      graphqlOperation(c.path, c.body)?.operationName === 'Pathways'
        ? graphqlData({ pathways: paginator([waiting, quiet], { perPage: 100 }) })
        : undefined;
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const router = createMemoryRouter([{ path: '*', element: <AwaitingSignOffWidget /> }]);
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const card = await screen.findByTestId('pathways-awaiting-sign-off');
    expect(within(card).getByRole('link', { name: 'New carer induction' })).toHaveAttribute(
      'href',
      '/pathways/7?status=awaiting_sign_off',
    );
    expect(within(card).getByText('2 people')).toBeInTheDocument();
    expect(within(card).queryByText('Night shift')).toBeNull();
  });

  it('asks nothing of someone who cannot sign off', async () => {
    setUser(withPerms(24));
    const client = new QueryClient();
    const router = createMemoryRouter([{ path: '*', element: <AwaitingSignOffWidget /> }]);
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.filter((c) => c.path.startsWith('/pathways'))).toEqual([]);
  });
});
