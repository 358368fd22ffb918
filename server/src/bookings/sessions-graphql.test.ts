import { BookingsMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { type SessionsWorld, sessionBody, sessionsWorld } from './sessions-world';

/** GraphQL of training sessions (spec 2 §7): trainingSessions, trainingSession, upsertTrainingSession, cancelTrainingSession. */
let h: Harness;
let w: SessionsWorld;
beforeAll(async () => {
  h = await createHarness();
  w = await sessionsWorld(h);
});
afterAll(async () => h?.close());

interface GqlBody {
  // biome-ignore lint/suspicious/noExplicitAny: GraphQL answers are read by shape in the assertions.
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: { code?: string; validation?: Record<string, string[]> } }[];
}
async function gql(userId: number | null, query: string, variables: Record<string, unknown> = {}) {
  const headers = userId === null ? {} : await bearer(h.db, userId);
  const res = await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return res.json() as GqlBody;
}
const codes = (b: GqlBody) => b.errors?.map((e) => e.extensions?.code);

const UPSERT = `mutation ($input: TrainingSessionInput!) {
  upsertTrainingSession(input: $input) { id venue maxDelegates dates { date startTime endTime } status }
}`;
const LIST = `query ($first: Int, $page: Int, $mine: Boolean, $from: String, $to: String) {
  trainingSessions(first: $first, page: $page, mine: $mine, from: $from, to: $to) {
    data { id venue trainer { name } can { edit mark } places_free }
    paginatorInfo { total currentPage lastPage }
  }
}`;
const CANCEL = `mutation ($id: ID!, $reason: Int!) {
  cancelTrainingSession(id: $id, cancellation_reason_id: $reason, cancellation_notes: "Ill") { id status cancellation_reason }
}`;

describe('GraphQL training sessions', () => {
  it('upsert creates and edits (only the fields sent); 401, 422, 403, 404', async () => {
    const input = sessionBody(w, { date: '2035-05-05' });
    expect(codes(await gql(null, UPSERT, { input }))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gql(w.nobody.id, UPSERT, { input }))).toEqual(['FORBIDDEN']);
    const bad = await gql(w.manager.id, UPSERT, { input: { ...input, contentId: w.elearning.id } });
    expect(codes(bad)).toEqual(['BAD_USER_INPUT']);
    expect(bad.errors?.[0].extensions?.validation?.contentId).toEqual([M.notFace2face]);

    const made = await gql(w.manager.id, UPSERT, { input });
    expect(made.errors).toBeUndefined();
    const s = made.data?.upsertTrainingSession;
    expect(s).toMatchObject({ venue: 'Oak Home', maxDelegates: 6, status: 'scheduled' });
    expect(s.dates).toEqual([{ date: '2035-05-05', startTime: '09:30', endTime: '16:00' }]);

    const edited = await gql(w.manager.id, UPSERT, { input: { id: s.id, venue: 'Ash Hall' } });
    expect(edited.data?.upsertTrainingSession).toMatchObject({
      id: s.id,
      venue: 'Ash Hall',
      maxDelegates: 6,
    });
    expect(codes(await gql(w.creator.id, UPSERT, { input: { id: s.id, venue: 'x' } }))).toEqual([
      'FORBIDDEN',
    ]);
    expect(codes(await gql(w.outsider.id, UPSERT, { input: { id: s.id, venue: 'x' } }))).toEqual([
      'NOT_FOUND',
    ]);
    expect(
      codes(await gql(w.manager.id, UPSERT, { input: { id: String(w.otherSession.id), venue: 'x' } })),
    ).toEqual(['NOT_FOUND']);
  });

  it('trainingSessions pages the scope; mine for a trainer; trainingSession by id', async () => {
    for (const date of ['2036-01-02', '2036-01-03', '2036-01-04'])
      expect((await gql(w.manager.id, UPSERT, { input: sessionBody(w, { date }) })).errors).toBeUndefined();
    const vars = { first: 2, page: 2, from: '2036-01-01', to: '2036-01-31' };
    expect(codes(await gql(null, LIST, vars))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gql(w.nobody.id, LIST, vars))).toEqual(['FORBIDDEN']);
    const page = (await gql(w.manager.id, LIST, vars)).data?.trainingSessions;
    expect(page.paginatorInfo).toEqual({ total: 3, currentPage: 2, lastPage: 2 });
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ trainer: { name: 'Tia Trainer' }, can: { edit: true, mark: true } });
    const outsider = (await gql(w.outsider.id, LIST, vars)).data?.trainingSessions;
    expect(outsider.paginatorInfo.total).toBe(0);
    const mine = (await gql(w.trainer.id, LIST, { ...vars, page: 1, mine: true })).data?.trainingSessions;
    expect(mine.paginatorInfo.total).toBe(3);
    expect(mine.data[0].can).toEqual({ edit: false, mark: true });

    const one = await gql(w.outsider.id, `{ trainingSession(id: ${page.data[0].id}) { id } }`);
    expect(codes(one)).toEqual(['NOT_FOUND']);
  });

  it('cancelTrainingSession: 401, 422, 403, 404, cancelled', async () => {
    const s = (await gql(w.manager.id, UPSERT, { input: sessionBody(w) })).data?.upsertTrainingSession;
    const reason = await h.db
      .selectFrom('cancellation_reasons')
      .select('id')
      .where('name', '=', 'Trainer unavailable')
      .executeTakeFirstOrThrow();
    const vars = { id: s.id, reason: reason.id };
    expect(codes(await gql(null, CANCEL, vars))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gql(w.manager.id, CANCEL, { ...vars, reason: 0 }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await gql(w.creator.id, CANCEL, vars))).toEqual(['FORBIDDEN']);
    expect(codes(await gql(w.outsider.id, CANCEL, vars))).toEqual(['NOT_FOUND']);
    const done = await gql(w.manager.id, CANCEL, vars);
    expect(done.errors).toBeUndefined();
    expect(done.data?.cancelTrainingSession).toEqual({
      id: s.id,
      status: 'cancelled',
      cancellation_reason: 'Trainer unavailable',
    });
  });
});
