import {
  AttendanceBody,
  CancelSessionBody,
  CheckInBody,
  IdParams,
  BookingsMessages as M,
  TrainersQuery,
  TrainingSessionBody,
  TrainingSessionsQuery,
  TrainingSessionUpdate,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok, paginate } from '../http/envelope';
import { markAttendance } from './attendance';
import {
  cancelSession,
  checkIn,
  closeSession,
  createSession,
  getSession,
  listCancellationReasons,
  listSessions,
  patchSession,
} from './session-service';
import { searchTrainers } from './trainers';

/** Training sessions (issue 15; contracts bookings.ts). HTTP only: the rules live in session-service.ts. */
export async function sessionRoutes(app: App) {
  const tags = ['bookings'];
  app.get('/cancellation-reasons', { schema: { tags } }, async (r) =>
    ok(await listCancellationReasons(r.ctx)),
  );
  app.get('/training-sessions', { schema: { tags, querystring: TrainingSessionsQuery } }, async (r) => {
    const { data, total } = await listSessions(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  // The trainers a session may name (issue 33 §3): its organisation's and those of the providers it books with.
  app.get('/training-sessions/trainers', { schema: { tags, querystring: TrainersQuery } }, async (r) => {
    const { data, total } = await searchTrainers(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/training-sessions', { schema: { tags, body: TrainingSessionBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createSession(r.ctx, r.body), M.sessionCreated)),
  );
  app.get('/training-sessions/:id', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await getSession(r.ctx, r.params.id)),
  );
  app.patch(
    '/training-sessions/:id',
    { schema: { tags, params: IdParams, body: TrainingSessionUpdate } },
    async (r) => ok(await patchSession(r.ctx, r.params.id, r.body), M.sessionUpdated),
  );
  app.post(
    '/training-sessions/:id/cancel',
    { schema: { tags, params: IdParams, body: CancelSessionBody } },
    async (r) => ok(await cancelSession(r.ctx, r.params.id, r.body), M.sessionCancelled),
  );
  app.post('/training-sessions/:id/complete', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await closeSession(r.ctx, r.params.id, 'completed'), M.sessionCompleted),
  );
  app.post('/training-sessions/:id/incomplete', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await closeSession(r.ctx, r.params.id, 'incomplete'), M.sessionIncomplete),
  );
  app.post(
    '/training-sessions/:id/attendance',
    { schema: { tags, params: IdParams, body: AttendanceBody } },
    async (r) => ok(await markAttendance(r.ctx, r.params.id, r.body), M.attendanceSaved),
  );
  app.post(
    '/training-sessions/:id/check-in',
    { schema: { tags, params: IdParams, body: CheckInBody } },
    async (r) => ok(await checkIn(r.ctx, r.params.id, r.body), M.checkedIn),
  );
}
