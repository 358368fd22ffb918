import {
  attendanceNotYet,
  BookingsMessages,
  BookingsPerm,
  calendarDay,
  type DelegateView,
  formatDate,
  type TrainingSessionView,
} from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUser } from '../app/auth';
import { notificationsStore } from '../app/notifications';
import { navSections, visibleNav } from '../layouts/nav';
import { stubResizeObserver } from '../test/dom';
import { makeUser } from '../test/factories';
import { type ApiCall, json, paged, stubApi } from '../test/fake-api';
import { graphqlData, paginator } from '../test/graphql';
import { attendanceMarks } from './AttendanceCard';
import { checkInUrl } from './CheckInCode';
import { addDays, entriesByDay, periodTitle, startOfWeek, step, visibleDays } from './calendar';
import DelegateSettingsPage from './DelegateSettingsPage';
import { actionsFor, delegateNote } from './DelegatesCard';
import ManageBookingsPage from './ManageBookingsPage';
import SessionDetailPage from './SessionDetailPage';
import SessionFormPage from './SessionFormPage';
import {
  changedFields,
  emptySession,
  formErrorsOf,
  newDay,
  runByOptions,
  sessionBody,
  sessionValues,
} from './session-form';
import { providerBody } from './TrainingProviderSettingsPage';

function makeSession(o: Partial<TrainingSessionView> = {}): TrainingSessionView {
  return {
    id: 41,
    uuid: 's-41',
    entity: { id: 2, slug: 'oakfield', name: 'Oakfield House' },
    contentId: 9,
    content: { id: 9, title: 'Moving and handling practical' },
    course: { id: 3, title: 'Moving and handling' },
    date: '2026-12-02',
    startTime: '09:30',
    endTime: '16:30',
    dates: [
      { date: '2026-12-02', startTime: '09:30', endTime: '16:30' },
      { date: '2026-12-03', startTime: '09:30', endTime: '12:30' },
    ],
    starts_at: '2026-12-02T09:30:00.000Z',
    ends_at: '2026-12-03T12:30:00.000Z',
    trainerId: 5,
    trainer: { id: 5, uuid: 'u-5', name: 'Tara Trainer' },
    venue: 'Oakfield House',
    room: 'Training room',
    virtual: false,
    virtual_url: null,
    area: 'Leeds',
    aim: 'Safe moving',
    contentCovered: null,
    learningOutcomes: null,
    availableTo: 'internal',
    minDelegates: 2,
    maxDelegates: 10,
    grading_method: 'attendance',
    pass_mark: null,
    status: 'scheduled',
    cancelled: false,
    cancellation_reason_id: null,
    cancellation_reason: null,
    cancellation_notes: null,
    places_taken: 3,
    places_free: 7,
    waitlist_count: 0,
    check_in_code: 'K7P2QX',
    can: { edit: true, manage_delegates: true, mark: true, book: false },
    my_booking: null,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    ...o,
  };
}

function makeDelegate(o: Partial<DelegateView> = {}): DelegateView {
  return {
    id: 70,
    session_id: 41,
    user: { id: 7, uuid: 'u-7', name: 'Sam Carer' },
    entity: { id: 2, slug: 'oakfield', name: 'Oakfield House' },
    status: 'accepted',
    context: 'online',
    order_id: null,
    waitlist_position: null,
    offer_expires_at: null,
    attendance: null,
    passed: null,
    score: null,
    notes: null,
    checked_in_at: null,
    marked_at: null,
    result_id: null,
    booked_by: null,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    ...o,
  };
}

type Call = ApiCall;
const sessionsAnswer = (c: Call, rows: unknown[]) =>
  c.gql?.operationName === 'TrainingSessions'
    ? graphqlData({ trainingSessions: paginator(rows) })
    : undefined;
let calls: Call[] = [];
let handler: (call: Call) => Response | undefined = () => undefined;
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

function renderAt(path: string, routes: { path: string; Component: React.ComponentType }[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      ...routes.map((r) => ({ path: r.path, Component: r.Component })),
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

const manager = () =>
  makeUser({
    permissions: [BookingsPerm.createBookings, BookingsPerm.editBooking, BookingsPerm.markDelegates].map(
      (id) => ({
        id,
        slug: '',
      }),
    ),
    a_entity: { ...makeUser().a_entity, can_manage_bookings: true },
  });

describe('calendar arithmetic', () => {
  it('starts weeks on Monday and covers whole weeks of a month', () => {
    expect(startOfWeek('2026-11-25')).toBe('2026-11-23');
    expect(startOfWeek('2026-11-23')).toBe('2026-11-23');
    expect(startOfWeek('2026-11-29')).toBe('2026-11-23');
    const month = visibleDays('2026-11-10', 'month');
    expect(month[0]).toBe('2026-10-26');
    expect(month.length % 7).toBe(0);
    expect(month).toContain('2026-11-30');
    expect(month[month.length - 1]).toBe('2026-12-06');
    expect(visibleDays('2026-11-25', 'week')).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    // Across the clocks changing (29 March 2026) no day is lost or doubled.
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(step('2026-01-31', 'month', 1)).toBe('2026-02-01');
    expect(step('2026-11-25', 'week', -1)).toBe('2026-11-16');
    expect(periodTitle('2026-11-25', 'month')).toBe('November 2026');
    expect(periodTitle('2026-11-25', 'week')).toBe('Week of 23 November 2026');
  });

  it('places every day of a multi-day session on its date', () => {
    const map = entriesByDay([makeSession()]);
    expect(map.get('2026-12-02')?.[0]).toMatchObject({ day: 1, days: 2, startTime: '09:30' });
    expect(map.get('2026-12-03')?.[0]).toMatchObject({ day: 2, days: 2, endTime: '12:30' });
  });
});

describe('session form rules', () => {
  it('"Run by" names each organisation once: the default one is the empty choice, not also an option', () => {
    const homes = [
      { id: 1, name: 'Sunrise Care Group' },
      { id: 2, name: 'Oakfield House' },
      { id: 3, name: 'Riverside Lodge' },
    ];
    expect(runByOptions(homes, 2, false)).toEqual([
      { value: 1, label: 'Sunrise Care Group' },
      { value: 3, label: 'Riverside Lodge' },
    ]);
    // Editing: the session's own organisation is the chosen value, so every one is listed.
    expect(runByOptions(homes, 2, true).map((o) => o.label)).toEqual([
      'Sunrise Care Group',
      'Oakfield House',
      'Riverside Lodge',
    ]);
  });

  const filled = () => ({
    ...emptySession(),
    content: { id: 9, label: 'Moving and handling practical' },
    days: [newDay('2026-12-02', '09:30', '16:30'), newDay('2026-12-03', '09:30', '12:30')],
  });

  it('makes the contract body: first day, additional dates, nulls for blanks', () => {
    const r = sessionBody(filled());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.body).toMatchObject({
      contentId: 9,
      date: '2026-12-02',
      additionalDates: [{ date: '2026-12-03', startTime: '09:30', endTime: '12:30' }],
      trainerId: null,
      venue: null,
      maxDelegates: 12,
      minDelegates: 0,
      grading_method: 'attendance',
      pass_mark: null,
    });
  });

  it('names each problem beside its field', () => {
    const r = sessionBody({
      ...filled(),
      content: null,
      days: [newDay('', '10:00', '09:00'), newDay('2026-12-03', '12:00', '11:00')],
      minDelegates: '8',
      maxDelegates: '4',
      grading_method: 'score',
      virtual: true,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.contentId).toEqual([BookingsMessages.notFace2face]);
    expect(r.errors['days.0.date']).toBeDefined();
    expect(r.errors['days.0.endTime']).toEqual([BookingsMessages.endBeforeStart]);
    expect(r.errors['days.1.endTime']).toEqual([BookingsMessages.endBeforeStart]);
    expect(r.errors.minDelegates).toEqual([BookingsMessages.minAboveMax]);
    expect(r.errors.pass_mark).toBeDefined();
    expect(r.errors.virtual_url).toBeDefined();
  });

  it('sends only what changed on edit, the days together', () => {
    const s = makeSession();
    const initial = sessionBody(sessionValues(s));
    expect(initial.ok).toBe(true);
    if (!initial.ok) return;
    const edited = sessionBody({ ...sessionValues(s), room: 'Room 4' });
    if (!edited.ok) throw new Error('invalid');
    expect(changedFields(edited.body, initial.body)).toEqual({ room: 'Room 4' });
    const values = sessionValues(s);
    values.days = values.days.slice(0, 1);
    const oneDay = sessionBody(values);
    if (!oneDay.ok) throw new Error('invalid');
    expect(Object.keys(changedFields(oneDay.body, initial.body)).sort()).toEqual([
      'additionalDates',
      'date',
      'endTime',
      'startTime',
    ]);
  });

  it('puts the server 422 errors beside the day they name', () => {
    expect(formErrorsOf({ date: ['a'], 'additionalDates.0.endTime': ['b'], maxDelegates: ['c'] })).toEqual({
      'days.0.date': ['a'],
      'days.1.endTime': ['b'],
      maxDelegates: ['c'],
    });
  });
});

describe('delegates and attendance rules', () => {
  it('offers each state its actions', () => {
    expect(actionsFor('requested')).toEqual({ actions: ['approve', 'reject'], removable: false });
    expect(actionsFor('pending')).toEqual({ actions: ['accept', 'decline'], removable: true });
    expect(actionsFor('accepted')).toEqual({ actions: [], removable: true });
    expect(actionsFor('deleted')).toEqual({ actions: ['restore'], removable: false });
    expect(delegateNote(makeDelegate({ status: 'waitlisted', waitlist_position: 2 }))).toBe(
      'Number 2 on the waiting list',
    );
    expect(
      delegateNote(makeDelegate({ status: 'offered', offer_expires_at: '2026-11-26T14:00:00.000Z' })),
    ).toBe('Offered until 26/11/2026 14:00');
  });

  it('asks for a pass/fail or a score per the grading method, not for no-shows', () => {
    const a = makeDelegate({ id: 1 });
    const b = makeDelegate({ id: 2, user: { id: 8, uuid: 'u-8', name: 'Bo' } });
    const rows = {
      1: { attendance: 'attended' as const, passed: '' as const, score: '71' },
      2: { attendance: 'no_show' as const, passed: '' as const, score: '' },
    };
    expect(attendanceMarks({ grading_method: 'score' }, [a, b], rows)).toEqual({
      marks: [
        { delegate_id: 1, attendance: 'attended', score: 71 },
        { delegate_id: 2, attendance: 'no_show' },
      ],
      missing: [],
    });
    expect(attendanceMarks({ grading_method: 'pass_fail' }, [a, b], rows).missing).toEqual([
      'Sam Carer: choose passed or not passed.',
    ]);
  });

  it('links the QR code to the learner check-in', () => {
    expect(checkInUrl('https://app.test', 41, 'K7P2QX')).toBe(
      'https://app.test/your-bookings?check_in=41&code=K7P2QX',
    );
  });

  it('refuses a provider minimum above its maximum', () => {
    const form = {
      delegate_auto_accept_period: '48',
      delegate_removal_cutoff_hours: '48',
      practical_min_delegates: '14',
      practical_max_delegates: '12',
      theory_min_delegates: '4',
      theory_max_delegates: '20',
      waitlist_claim_hours: '0',
      waitlist_cutoff_hours: '24',
      minimum_decision_hours: '72',
      under_minimum_action: 'cancel' as const,
    };
    const r = providerBody(form);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.practical_min_delegates).toEqual([BookingsMessages.minAboveMax]);
    expect(r.errors.waitlist_claim_hours).toBeDefined();
  });
});

describe('navigation', () => {
  const wl = {
    entityAltName: 'Home',
    entitiesAltName: 'Homes',
    certificateGroupMenuName: 'Care certificate',
  };
  const hrefs = (o: { ids: number[]; flag: boolean; trainer?: boolean }) =>
    visibleNav(navSections(wl), {
      can: (want, mode = 'all') =>
        mode === 'any' ? want.some((i) => o.ids.includes(i)) : want.every((i) => o.ids.includes(i)),
      flags: { can_manage_bookings: o.flag },
      slug: 'oakfield',
      isBuilt: () => true,
      trainer: o.trainer,
    }).flatMap((s) => s.items.map((i) => i.href));
  it('shows Manage bookings with the flag and 9/11/109/128, or to a trainer', () => {
    for (const id of [9, 11, 109, 128])
      expect(hrefs({ ids: [id], flag: true })).toContain('/manage-bookings');
    expect(hrefs({ ids: [9], flag: false })).not.toContain('/manage-bookings');
    expect(hrefs({ ids: [108], flag: true })).not.toContain('/manage-bookings');
    expect(hrefs({ ids: [], flag: false, trainer: true })).toContain('/manage-bookings');
  });
});

describe('/manage-bookings screens', () => {
  it('lists sessions with their status, and leads to creating one when there are none', async () => {
    setUser(manager());
    handler = (c) => sessionsAnswer(c, [makeSession()]);
    renderAt('/manage-bookings', [{ path: '/manage-bookings', Component: ManageBookingsPage }]);
    expect(await screen.findByRole('link', { name: 'Moving and handling practical' })).toHaveAttribute(
      'href',
      '/manage-bookings/41',
    );
    expect(within(screen.getByRole('table')).getByText('Scheduled')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New session' })).toBeInTheDocument();
  });

  it('shows a trainer My sessions (mine=1) and an empty state', async () => {
    setUser(makeUser({ is_trainer: true }));
    handler = (c) => sessionsAnswer(c, []);
    renderAt('/manage-bookings', [{ path: '/manage-bookings', Component: ManageBookingsPage }]);
    expect(await screen.findByRole('heading', { name: 'My sessions' })).toBeInTheDocument();
    expect(await screen.findByText('No sessions to train yet')).toBeInTheDocument();
    expect(
      calls.some((c) => c.gql?.operationName === 'TrainingSessions' && c.gql.variables.mine === true),
    ).toBe(true);
  });

  it('creates a two-day session and shows the server 422 beside the field', async () => {
    setUser(manager());
    handler = (c) => {
      if (c.path.startsWith('/content'))
        return json(200, paged([{ id: 9, title: 'Moving and handling practical' }]));
      if (c.method === 'POST' && c.path === '/training-sessions')
        return json(422, {
          message: 'The given data was invalid.',
          errors: { trainerId: [BookingsMessages.notATrainer] },
        });
      return undefined;
    };
    const user = userEvent.setup();
    renderAt('/manage-bookings/new', [{ path: '/manage-bookings/new', Component: SessionFormPage }]);
    const content = await screen.findByRole('combobox', { name: /Face-to-face content/ });
    await user.type(content, 'Mov');
    await user.click(await screen.findByRole('option', { name: /Moving and handling practical/ }));
    await user.type(screen.getByLabelText(/^Date(\s*\*)?$/), '2026-12-02');
    await user.click(screen.getByRole('button', { name: 'Add another day' }));
    await user.type(screen.getByLabelText(/Day 2 date/), '2026-12-03');
    await user.click(screen.getByRole('button', { name: 'Create session' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]?.body).toMatchObject({
      contentId: 9,
      date: '2026-12-02',
      additionalDates: [{ date: '2026-12-03', startTime: '09:30', endTime: '16:30' }],
    });
    expect(await screen.findByText(BookingsMessages.notATrainer)).toBeInTheDocument();
  });

  it('runs the delegate actions and saves attendance in one request', async () => {
    setUser(manager());
    const delegates = [
      makeDelegate(),
      makeDelegate({ id: 71, status: 'pending', user: { id: 8, uuid: 'u-8', name: 'Bo Pending' } }),
      makeDelegate({
        id: 72,
        status: 'waitlisted',
        waitlist_position: 1,
        user: { id: 9, uuid: 'u-9', name: 'Wyn Waiting' },
      }),
    ];
    // A session that started yesterday: its attendance can be marked.
    const yesterday = calendarDay(new Date(Date.now() - 86_400_000));
    const started = makeSession({
      date: yesterday,
      dates: [{ date: yesterday, startTime: '09:30', endTime: '16:30' }],
    });
    handler = (c) => {
      if (c.method === 'GET' && c.path === '/training-sessions/41') return json(200, { data: started });
      if (c.method === 'GET' && c.path.startsWith('/training-sessions/41/delegates'))
        return json(200, paged(c.path.includes('status=accepted') ? delegates.slice(0, 1) : delegates));
      if (c.method === 'POST' && c.path === '/delegates/71/accept')
        return json(200, { message: BookingsMessages.delegateUpdated });
      if (c.method === 'DELETE' && c.path === '/delegates/72')
        return json(200, { message: BookingsMessages.delegateDeleted });
      if (c.method === 'POST' && c.path === '/training-sessions/41/attendance')
        return json(200, { message: BookingsMessages.attendanceSaved });
      return undefined;
    };
    const user = userEvent.setup();
    renderAt('/manage-bookings/41', [{ path: '/manage-bookings/:id', Component: SessionDetailPage }]);
    expect(await screen.findByTestId('check-in-code')).toHaveTextContent('K7P2QX');
    const table = await screen.findByTestId('delegates');
    expect(await within(table).findByText('Number 1 on the waiting list')).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Accept Bo Pending' }));
    await waitFor(() => expect(writes().map((w) => w.path)).toContain('/delegates/71/accept'));
    await user.click(within(table).getByRole('button', { name: 'Remove Wyn Waiting' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(writes().map((w) => `${w.method} ${w.path}`)).toContain('DELETE /delegates/72'),
    );
    const attendance = screen.getByTestId('attendance');
    await user.click(await within(attendance).findByRole('radio', { name: 'Attended' }));
    await user.click(within(attendance).getByRole('button', { name: 'Save attendance' }));
    await waitFor(() =>
      expect(writes().find((w) => w.path === '/training-sessions/41/attendance')?.body).toEqual({
        marks: [{ delegate_id: 70, attendance: 'attended' }],
      }),
    );
    expect(await within(attendance).findByText(/Results recorded for 1 delegate/)).toBeInTheDocument();
    expect(notices()).toContain(BookingsMessages.attendanceSaved);
  });

  it('offers no attendance marks for a session two weeks ahead: it says from when it can be marked', async () => {
    setUser(manager());
    const day = calendarDay(new Date(Date.now() + 14 * 86_400_000));
    const ahead = makeSession({
      date: day,
      dates: [{ date: day, startTime: '09:30', endTime: '16:30' }],
    });
    handler = (c) => {
      if (c.method === 'GET' && c.path === '/training-sessions/41') return json(200, { data: ahead });
      if (c.method === 'GET' && c.path.startsWith('/training-sessions/41/delegates'))
        return json(200, paged([makeDelegate()]));
      return undefined;
    };
    renderAt('/manage-bookings/41', [{ path: '/manage-bookings/:id', Component: SessionDetailPage }]);
    const attendance = await screen.findByTestId('attendance');
    expect(within(attendance).getByText(attendanceNotYet(day))).toBeInTheDocument();
    expect(within(attendance).getByText(attendanceNotYet(day)).textContent).toContain(formatDate(day));
    // The delegate is booked (the delegates card lists them), yet nothing here marks them.
    expect(await within(await screen.findByTestId('delegates')).findByText('Sam Carer')).toBeInTheDocument();
    expect(within(attendance).queryByRole('radio')).toBeNull();
    expect(within(attendance).queryByRole('button', { name: 'Save attendance' })).toBeNull();
  });

  it('saves the delegate settings switches', async () => {
    setUser(manager());
    handler = (c) => {
      if (c.path.startsWith('/entities/oakfield/delegate-settings'))
        return json(200, {
          data: {
            entity_id: 2,
            require_approval: c.method === 'PATCH',
            allow_self_cancel: true,
            send_calendar_invites: true,
            notify_managers: true,
          },
          message: c.method === 'PATCH' ? BookingsMessages.settingsUpdated : undefined,
        });
      if (c.path.startsWith('/entities/oakfield'))
        return json(200, {
          data: { id: 2, slug: 'oakfield', name: 'Oakfield House', is_training_company: false },
        });
      return undefined;
    };
    const user = userEvent.setup();
    renderAt('/entities/oakfield/delegate-settings', [
      { path: '/entities/:slug/delegate-settings', Component: DelegateSettingsPage },
    ]);
    await user.click(await screen.findByRole('switch', { name: /manager’s approval/ }));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(writes()[0]).toMatchObject({
        method: 'PATCH',
        body: { require_approval: true, allow_self_cancel: true },
      }),
    );
    await waitFor(() => expect(notices()).toContain(BookingsMessages.settingsUpdated));
  });

  it('moves between calendar days with the arrow keys and enters a day with Enter', async () => {
    setUser(manager());
    handler = (c) => sessionsAnswer(c, [makeSession()]);
    const user = userEvent.setup();
    renderAt('/manage-bookings?view=calendar&cal=week&d=2026-12-02', [
      { path: '/manage-bookings', Component: ManageBookingsPage },
    ]);
    const grid = await screen.findByRole('table', { name: 'Sessions by day' });
    expect(await within(grid).findAllByRole('link', { name: /Moving and handling practical/ })).toHaveLength(
      2,
    );
    expect(
      calls.some((c) => c.gql?.variables.from === '2026-11-30' && c.gql.variables.to === '2026-12-06'),
    ).toBe(true);
    const monday = within(grid).getByRole('cell', { name: /^Monday 30 November 2026/ });
    monday.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toHaveAccessibleName('Wednesday 2 December 2026, 1 session');
    await user.keyboard('{Enter}');
    expect(document.activeElement).toHaveAttribute('href', '/manage-bookings/41');
  });
});
