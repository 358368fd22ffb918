import type { BookingsDashboard, DelegateStatus, TrainingSessionView, UserBookingView } from '@cc/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actingAsStore } from '../app/acting-as';
import { permissionsStore, setUser } from '../app/auth';
import { notificationsStore } from '../app/notifications';
import { routes } from '../router';
import { makeUser } from '../test/factories';
import { type ApiCall, json, paged, stubApi } from '../test/fake-api';
import { graphqlData, graphqlOperation, paginator } from '../test/graphql';
import { renderRoutes } from '../test/render-routes';
import { londonToday } from './LearnerSessionParts';

type Call = ApiCall;
type Handler = (c: Call) => Response | undefined;
let handler: Handler = () => undefined;
let calls: Call[] = [];

const renderAt = (path: string) => renderRoutes(routes, path);

function session(id: number, o: Partial<TrainingSessionView> = {}): TrainingSessionView {
  const date = o.date ?? '2026-12-14';
  return {
    id,
    uuid: `s-${id}`,
    entity: { id: 2, slug: 'oakfield', name: 'Oakfield House' },
    contentId: 30,
    content: { id: 30, title: 'Moving and handling practical' },
    course: { id: 40 + id, title: `Moving and handling ${id}` },
    date,
    startTime: '09:30',
    endTime: '12:30',
    dates: [{ date, startTime: '09:30', endTime: '12:30' }],
    starts_at: `${date}T09:30:00.000Z`,
    ends_at: `${date}T12:30:00.000Z`,
    trainerId: 9,
    trainer: { id: 9, uuid: 'u-9', name: 'Tara Trainer' },
    venue: 'Oakfield House',
    room: 'Training room',
    virtual: false,
    virtual_url: null,
    area: null,
    aim: null,
    contentCovered: null,
    learningOutcomes: null,
    availableTo: 'internal',
    minDelegates: 2,
    maxDelegates: 8,
    grading_method: 'attendance',
    pass_mark: null,
    status: 'scheduled',
    cancelled: false,
    cancellation_reason_id: null,
    cancellation_reason: null,
    cancellation_notes: null,
    places_taken: 3,
    places_free: 5,
    waitlist_count: 0,
    check_in_code: null,
    can: { edit: false, manage_delegates: false, mark: false, book: true },
    my_booking: null,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...o,
  };
}

function booking(
  id: number,
  status: DelegateStatus,
  s: TrainingSessionView,
  o: Partial<UserBookingView> = {},
) {
  return {
    id,
    session_id: s.id,
    user: { id: 7, uuid: 'u-7', name: 'Sam Carer' },
    entity: { id: 2, slug: 'oakfield', name: 'Oakfield House' },
    status,
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
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    session: s,
    ...o,
  } satisfies UserBookingView;
}

const lists: Record<string, UserBookingView[]> = { upcoming: [], waitlisted: [], past: [] };
const emptyFeed = { active: false, url: null, created_at: null, last_used_at: null };

function baseHandler(c: Call): Response | undefined {
  const p = c.url.pathname;
  // The learner's bookings are read through GraphQL (web/src/app/graphql): a booking is its delegate row and session.
  const op = graphqlOperation(c.url, c.body);
  if (op?.operationName === 'MyBookings' && op.variables.user === '7') {
    const rows = lists[String(op.variables.scope)] ?? [];
    return graphqlData({
      bookings: paginator(rows.map(({ session, ...delegate }) => ({ id: delegate.id, delegate, session }))),
    });
  }
  if (p === '/api/users/7/calendar-feed' && c.method === 'GET') return json(200, { data: emptyFeed });
  if (p === '/api/users/7/available-training') return json(200, paged([]));
  return undefined;
}

beforeEach(() => {
  permissionsStore.set(null);
  actingAsStore.set(null);
  notificationsStore.set([]);
  lists.upcoming = [];
  lists.waitlisted = [];
  lists.past = [];
  handler = () => undefined;
  calls = stubApi((c) => handler(c) ?? baseHandler(c));
  setUser(makeUser({ permissions: [104, 108].map((id) => ({ id, slug: `p${id}` })) }));
});
afterEach(() => vi.unstubAllGlobals());

const toastText = () => notificationsStore.get().map((n) => n.message);

describe('/your-bookings', () => {
  it('shows upcoming bookings with their state in words, and cancels one after asking', async () => {
    lists.upcoming = [booking(5, 'accepted', session(1)), booking(6, 'requested', session(2))];
    handler = (c) =>
      c.method === 'DELETE' && c.url.pathname === '/api/delegates/5'
        ? json(200, { message: 'Your booking has been cancelled.' })
        : undefined;
    renderAt('/your-bookings');
    const list = await screen.findByRole('list', { name: 'Upcoming' }, { timeout: 10_000 });
    const cards = within(list).getAllByTestId('booking-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0] as HTMLElement).getByText('Booked')).toBeTruthy();
    expect(within(cards[0] as HTMLElement).getByText('14/12/2026, 09:30–12:30')).toBeTruthy();
    expect(within(cards[0] as HTMLElement).getByText('Oakfield House, Training room')).toBeTruthy();
    expect(within(cards[1] as HTMLElement).getByText(/waiting for your manager’s approval/)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Upcoming (2)' })).toBeTruthy();

    await userEvent.click(
      within(cards[0] as HTMLElement).getByRole('button', {
        name: 'Cancel my booking on Moving and handling 1',
      }),
    );
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/14\/12\/2026 at 09:30/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel my booking' }));
    await waitFor(() => expect(toastText()).toContain('Your booking has been cancelled.'));
    expect(calls.some((c) => c.method === 'DELETE' && c.url.pathname === '/api/delegates/5')).toBe(true);
  });

  it('shows the server’s refusal when it is too late to cancel', async () => {
    lists.upcoming = [booking(5, 'accepted', session(1))];
    handler = (c) =>
      c.method === 'DELETE'
        ? json(422, { message: 'It is too late to remove this delegate: the session starts soon.' })
        : undefined;
    renderAt('/your-bookings');
    await userEvent.click(
      await screen.findByRole('button', { name: /^Cancel my booking on/ }, { timeout: 10_000 }),
    );
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel my booking' }),
    );
    await waitFor(() =>
      expect(toastText()).toContain('It is too late to remove this delegate: the session starts soon.'),
    );
    // The dialog stays open so the learner can read it and keep the booking.
    expect(screen.getByRole('alertdialog')).toBeTruthy();
  });

  it('waiting list: the position, an offered place with its deadline, and Claim this place', async () => {
    lists.waitlisted = [
      booking(8, 'waitlisted', session(3, { places_free: 0, waitlist_count: 3 }), { waitlist_position: 2 }),
    ];
    // An offered place holds a seat: the server lists it as upcoming; the waiting list shows it first.
    lists.upcoming = [booking(9, 'offered', session(4), { offer_expires_at: '2026-12-01T17:00:00.000Z' })];
    handler = (c) =>
      c.method === 'POST' && c.url.pathname === '/api/delegates/9/claim'
        ? json(200, { message: 'The place is yours.', data: {} })
        : undefined;
    renderAt('/your-bookings?tab=waiting');
    const list = await screen.findByRole('list', { name: 'Waiting list' }, { timeout: 10_000 });
    await within(list).findByText(/Claim it by/);
    expect(within(list).getAllByTestId('booking-card')).toHaveLength(2);
    expect(screen.getByRole('tab', { name: 'Waiting list (2)' })).toBeTruthy();
    expect(within(list).getByText(/number 2 on the waiting list/)).toBeTruthy();
    expect(within(list).getByText(/Claim it by 01\/12\/2026 17:00/)).toBeTruthy();
    await userEvent.click(
      within(list).getByRole('button', { name: 'Claim this place on Moving and handling 4' }),
    );
    await waitFor(() => expect(toastText()).toContain('The place is yours.'));
  });

  it('book training: places free or waiting list, Book with context, the answer as a notice', async () => {
    handler = (c) => {
      if (c.url.pathname === '/api/users/7/available-training')
        return json(
          200,
          paged([session(11), session(12, { places_free: 0, waitlist_count: 4, virtual: true })]),
        );
      if (c.method === 'POST' && c.url.pathname === '/api/training-sessions/12/book')
        return json(201, { message: 'This session is full: you are on the waiting list.', data: {} });
      return undefined;
    };
    renderAt('/your-bookings?tab=book');
    const list = await screen.findByRole('list', { name: 'Sessions you can book' }, { timeout: 10_000 });
    expect(within(list).getByText('5 places free')).toBeTruthy();
    expect(within(list).getByText('Full: waiting list (4 waiting)')).toBeTruthy();
    expect(within(list).getByText('Online')).toBeTruthy();
    expect(
      within(list).getByRole('button', { name: 'Book Moving and handling 11 on 14/12/2026' }),
    ).toBeTruthy();
    await userEvent.click(
      within(list).getByRole('button', {
        name: 'Join the waiting list for Moving and handling 12 on 14/12/2026',
      }),
    );
    await waitFor(() => expect(toastText()).toContain('This session is full: you are on the waiting list.'));
    const book = calls.find((c) => c.method === 'POST' && c.url.pathname.endsWith('/book'));
    expect(book?.body).toEqual({ context: 'online' });
  });

  it('empty sections lead to Book training', async () => {
    renderAt('/your-bookings');
    expect(
      await screen.findByText('You have no upcoming training', undefined, { timeout: 10_000 }),
    ).toBeTruthy();
    const buttons = screen.getAllByRole('button', { name: 'Book training' });
    await userEvent.click(buttons[buttons.length - 1] as HTMLElement);
    expect(await screen.findByText('No sessions open for booking')).toBeTruthy();
  });

  it('past: attendance and result in words', async () => {
    lists.past = [
      booking(20, 'accepted', session(21), { attendance: 'attended', passed: true }),
      booking(21, 'accepted', session(22), { attendance: 'no_show', passed: false }),
    ];
    renderAt('/your-bookings?tab=past');
    const list = await screen.findByRole('list', { name: 'Past' }, { timeout: 10_000 });
    expect(within(list).getByText('Attended')).toBeTruthy();
    expect(within(list).getByText('Passed')).toBeTruthy();
    expect(within(list).getByText('Did not attend')).toBeTruthy();
  });

  it('?check_in= (the trainer’s QR) opens the code input of that day’s session; a wrong code says so', async () => {
    const today = londonToday();
    lists.upcoming = [booking(30, 'accepted', session(31, { date: today }))];
    handler = (c) =>
      c.method === 'POST' && c.url.pathname === '/api/training-sessions/31/check-in'
        ? c.body && (c.body as { code: string }).code === 'AB12CD'
          ? json(200, { message: 'You are checked in.', data: {} })
          : json(422, { message: 'That check-in code is not right for this session.' })
        : undefined;
    renderAt('/your-bookings?check_in=31');
    const input = await screen.findByLabelText('Check-in code', undefined, { timeout: 10_000 });
    await waitFor(() => expect(input).toHaveFocus());
    await userEvent.type(input, 'WRONG1');
    await userEvent.click(screen.getByRole('button', { name: 'Check in' }));
    expect(await screen.findByText('That check-in code is not right for this session.')).toBeTruthy();
    await userEvent.clear(input);
    await userEvent.type(input, 'AB12CD');
    await userEvent.click(screen.getByRole('button', { name: 'Check in' }));
    await waitFor(() => expect(toastText()).toContain('You are checked in.'));
  });

  it('calendar link: made once with a copy box, then revoked after asking', async () => {
    let active = false;
    handler = (c) => {
      if (c.url.pathname !== '/api/users/7/calendar-feed') return undefined;
      if (c.method === 'POST') {
        active = true;
        return json(201, {
          message: 'Calendar link created.',
          data: {
            active: true,
            url: 'https://x.test/calendar/secret.ics',
            created_at: '2026-11-25T10:00:00Z',
            last_used_at: null,
          },
        });
      }
      if (c.method === 'DELETE') {
        active = false;
        return json(200, { message: 'Calendar link revoked.' });
      }
      return json(200, {
        data: active
          ? { active: true, url: null, created_at: '2026-11-25T10:00:00Z', last_used_at: null }
          : emptyFeed,
      });
    };
    renderAt('/your-bookings');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Create a calendar link' }, { timeout: 10_000 }),
    );
    expect(await screen.findByDisplayValue('https://x.test/calendar/secret.ics')).toBeTruthy();
    expect(screen.getByTestId('calendar-link-state')).toHaveTextContent('Your calendar link is on.');
    await userEvent.click(screen.getByRole('button', { name: 'Revoke the link' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke the link' }),
    );
    await waitFor(() => expect(toastText()).toContain('Calendar link revoked.'));
    await waitFor(() =>
      expect(screen.getByTestId('calendar-link-state')).toHaveTextContent('no calendar link'),
    );
  });
});

describe('dashboard widgets', () => {
  const learnerDashboardHandler: Handler = (c) =>
    c.url.pathname === '/api/users/u-7/events'
      ? json(200, { data: { data: [], counts: { current: 0, overdue: 0, completed: 0 } } })
      : c.url.pathname.startsWith('/api/users/u-7/')
        ? json(200, paged([]))
        : undefined;

  it('learner dashboard: my next sessions with a link to /your-bookings', async () => {
    lists.upcoming = [booking(5, 'accepted', session(1)), booking(6, 'pending', session(2))];
    handler = learnerDashboardHandler;
    renderAt('/learner-dashboard');
    const card = await screen.findByTestId('next-sessions', undefined, { timeout: 10_000 });
    expect(await within(card).findAllByTestId('next-session')).toHaveLength(2);
    expect(within(card).getByText('Booked, awaiting confirmation')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Your bookings' })).toHaveAttribute(
      'href',
      '/your-bookings',
    );
    const asked = calls
      .map((c) => graphqlOperation(c.url, c.body))
      .find((op) => op?.operationName === 'MyBookings');
    expect(asked?.variables.scope).toBe('upcoming');
    expect(asked?.variables.first).toBe(3);
  });

  it('learner dashboard: no sessions card without own bookings (108)', async () => {
    setUser(makeUser({ permissions: [104].map((id) => ({ id, slug: `p${id}` })) }));
    handler = learnerDashboardHandler;
    renderAt('/learner-dashboard');
    await screen.findByRole('heading', { name: 'Learner dashboard' }, { timeout: 10_000 });
    expect(screen.queryByTestId('next-sessions')).toBeNull();
    expect(calls.some((c) => graphqlOperation(c.url, c.body)?.operationName === 'MyBookings')).toBe(false);
  });

  it('manager dashboard: this week, places free and gaps linking to /manage-bookings for the course', async () => {
    setUser(
      makeUser({
        permissions: [105, 9].map((id) => ({ id, slug: `p${id}` })),
        a_entity: { ...makeUser().a_entity, can_manage_bookings: true },
      }),
    );
    const figures: BookingsDashboard = {
      sessions_this_week: [session(1), session(2, { places_free: 0 })],
      places_free_this_week: 5,
      gaps: [
        {
          course: { id: 77, title: 'First aid' },
          people_not_in_date: 4,
          people_booked: 1,
          next_session: session(3),
        },
      ],
    };
    handler = (c) => {
      if (c.url.pathname === '/api/dashboards/bookings') return json(200, { data: figures });
      if (c.url.pathname === '/api/dashboards/manager')
        return json(200, {
          data: {
            entity: { id: 2, slug: 'oakfield', name: 'Oakfield House', level: 'B' },
            compliance_type: 'all',
            figures: {
              users: 3,
              required: 6,
              in_date: 6,
              expiring: 0,
              expired: 0,
              missing: 0,
              exempt: 0,
              score: 100,
            },
            trend: { previous: null, change: null, months: [] },
            out_of_date: { people: 0, cells: 0, rows: [] },
            expiring: {
              '30': { people: 0, cells: 0, rows: [] },
              '60': { people: 0, cells: 0, rows: [] },
              '90': { people: 0, cells: 0, rows: [] },
            },
            pending: null,
            new_starters: { people: 0, cells: 0, rows: [] },
            generated_at: '2026-11-25T12:00:00.000Z',
          },
        });
      if (c.url.pathname === '/api/entities') return json(200, paged([]));
      return undefined;
    };
    renderAt('/manager-dashboard');
    const card = await screen.findByTestId('bookings-widget', undefined, { timeout: 10_000 });
    expect(await within(card).findByText('2 sessions, 5 places free.')).toBeTruthy();
    const gap = within(card).getByTestId('bookings-gap');
    expect(within(gap).getByRole('link', { name: 'First aid' })).toHaveAttribute(
      'href',
      '/manage-bookings?content=30%3AMoving+and+handling+practical',
    );
    expect(within(gap).getByText('3 people to book')).toBeTruthy();
    // The badge opens the gap's people with "Book these people" (issue 33 §2).
    expect(within(gap).getByRole('link', { name: /^3 people to book on First aid/ })).toHaveAttribute(
      'href',
      '/manage-bookings/gaps/77?entity=oakfield',
    );
    const asked = calls.find((c) => c.url.pathname === '/api/dashboards/bookings');
    expect(asked?.url.searchParams.get('actingAs')).toBe('oakfield');
    expect(asked?.url.searchParams.get('deep')).toBe('1');
  });

  it('manager dashboard: no booking card for those who cannot manage bookings', async () => {
    setUser(makeUser({ permissions: [105].map((id) => ({ id, slug: `p${id}` })) }));
    handler = (c) =>
      c.url.pathname === '/api/dashboards/manager'
        ? json(403, { message: 'This action is unauthorized.' })
        : undefined;
    renderAt('/manager-dashboard');
    await screen.findByRole('heading', { name: 'Manager dashboard' }, { timeout: 10_000 });
    expect(screen.queryByTestId('bookings-widget')).toBeNull();
    expect(calls.some((c) => c.url.pathname === '/api/dashboards/bookings')).toBe(false);
  });
});
