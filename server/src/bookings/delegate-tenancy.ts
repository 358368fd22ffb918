import { buildContent } from '../../test/learning-factories';
import type { Db } from '../db/connect';

/**
 * The delegates part's rows in server/test/tenancy.test.ts (issue 15): the target organisation's session with the
 * victim booked on it and an order of the organisation's, and the cases calling every delegate, booking, order and
 * marketplace route with them (outsider: 404 and nothing changes; insider without permissions: 403).
 */
export interface DelegateFixture {
  sessionId: number;
  delegateId: number;
  orderId: number;
  orderNotes: string;
  /** The session's course (GET /booking-gaps/{courseId}). */
  courseId: number;
}

type Method = 'GET' | 'POST' | 'DELETE';
interface F {
  delegates: DelegateFixture;
  victim: { id: number };
}
interface DelegateCase {
  method: Method;
  route: string;
  url: (f: F) => string;
  body?: (f: F) => unknown;
  kind: 'scoped';
}

export async function delegateFixture(
  db: Db,
  o: { orgId: number; siteId: number; victimId: number; canary: string },
): Promise<DelegateFixture> {
  const content = await buildContent(db, o.orgId, { type: 'face2face', title: `${o.canary} Workshop` });
  const startsAt = new Date(Date.now() + 7 * 24 * 3_600_000);
  const session = await db
    .insertInto('training_sessions')
    .values({
      entity_id: o.orgId,
      content_id: content.id,
      course_id: content.course_id,
      max_delegates: 5,
      places_taken: 2,
      check_in_code: 'TENANT',
      starts_at: startsAt,
      ends_at: new Date(startsAt.getTime() + 3_600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const orderNotes = `${o.canary} order notes`;
  const order = await db
    .insertInto('training_orders')
    .values({ session_id: session.id, entity_id: o.orgId, places: 1, notes: orderNotes })
    .returning('id')
    .executeTakeFirstOrThrow();
  const delegate = await db
    .insertInto('session_delegates')
    .values({ session_id: session.id, user_id: o.victimId, entity_id: o.siteId, status: 'pending' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    sessionId: session.id,
    delegateId: delegate.id,
    orderId: order.id,
    orderNotes,
    courseId: content.course_id,
  };
}

export function delegateCases(): DelegateCase[] {
  const s = (
    method: Method,
    route: string,
    url: (f: F) => string,
    body?: (f: F) => unknown,
  ): DelegateCase => ({
    method,
    route,
    url,
    ...(body ? { body } : {}),
    kind: 'scoped',
  });
  const session = (f: F) => `/api/training-sessions/${f.delegates.sessionId}`;
  const delegate = (f: F) => `/api/delegates/${f.delegates.delegateId}`;
  const order = (f: F) => `/api/training-orders/${f.delegates.orderId}`;
  return [
    s(
      'POST',
      '/api/training-sessions/:id/delegates',
      (f) => `${session(f)}/delegates`,
      (f) => ({
        users: [f.victim.id],
      }),
    ),
    s('GET', '/api/training-sessions/:id/delegates', (f) => `${session(f)}/delegates`),
    s(
      'POST',
      '/api/training-sessions/:id/book',
      (f) => `${session(f)}/book`,
      () => ({}),
    ),
    s('GET', '/api/users/:id/bookings', (f) => `/api/users/${f.victim.id}/bookings`),
    ...(['accept', 'decline', 'restore', 'approve', 'reject', 'claim'] as const).map((action) =>
      s('POST', `/api/delegates/:id/${action}`, (f) => `${delegate(f)}/${action}`),
    ),
    s('DELETE', '/api/delegates/:id', delegate),
    s(
      'POST',
      '/api/training-orders',
      () => '/api/training-orders',
      (f) => ({
        session_id: f.delegates.sessionId,
        places: 1,
      }),
    ),
    s('GET', '/api/training-orders/:id', order),
    s(
      'POST',
      '/api/training-orders/:id/delegates',
      (f) => `${order(f)}/delegates`,
      (f) => ({
        users: [f.victim.id],
      }),
    ),
    s('DELETE', '/api/training-orders/:id', order),
    // Booking the gaps (issue 33 §2; gap-booking.ts).
    s(
      'POST',
      '/api/training-sessions/:id/gap-bookings',
      (f) => `${session(f)}/gap-bookings`,
      (f) => ({ users: [f.victim.id] }),
    ),
    s('GET', '/api/booking-gaps/:courseId', (f) => `/api/booking-gaps/${f.delegates.courseId}?deep=true`),
  ];
}

/** GET /training-orders: another organisation's list never shows the target's order. */
export const delegateLists = () => [
  {
    method: 'GET' as const,
    route: '/api/training-orders',
    url: () => '/api/training-orders?per_page=100',
    secrets: (f: F) => [f.delegates.orderNotes],
    insider: 403 as const,
  },
];

/** training_sessions and session_delegates are listed by the sessions part. */
export const DELEGATE_TABLES = ['training_orders'] as const;
export const DELEGATE_EXEMPT = {
  'GET /api/marketplace':
    'training companies publish these sessions to every organisation that books externally (orders.test.ts)',
};
