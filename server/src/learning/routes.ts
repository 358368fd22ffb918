import {
  AttemptListQuery,
  AttemptParams,
  CreateAttemptBody,
  LearnerListQuery,
  LearningMessages,
  TakeQuizBody,
  UpdateAttemptBody,
  UserRefParams,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  createAttempt,
  currentAttempt,
  deleteAttempt,
  getAttempt,
  listAttempts,
  retakeAttempt,
  updateAttempt,
} from './attempts-service';
import { learnerEvents } from './events';
import {
  availableCourses,
  availableTraining,
  compliantCourses,
  personalDevelopmentCourses,
} from './learner-lists';
import { startQuiz, submitQuiz } from './quizzes-service';
import { attemptStructure } from './structure';

/** spec 1 §7 "Attempts" and the learner lists of "Users"; spec 2 §7 POST /quizzes/take. */
export async function learningRoutes(app: App) {
  const tags = ['learning'];
  app.get(
    '/users/:id/attempts',
    { schema: { tags, params: UserRefParams, querystring: AttemptListQuery } },
    async (r) => {
      const { data, total } = await listAttempts(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post(
    '/users/:id/attempts',
    { schema: { tags, params: UserRefParams, body: CreateAttemptBody } },
    async (r, reply) => {
      const { attempt, created } = await createAttempt(r.ctx, r.params.id, r.body.content_id);
      return reply
        .status(created ? 201 : 200)
        .send(ok(attempt, created ? LearningMessages.attemptCreated : undefined));
    },
  );
  app.post('/retake_attempt/:id', { schema: { tags, params: AttemptParams } }, async (r, reply) => {
    const { attempt, created } = await retakeAttempt(r.ctx, r.params.id);
    return reply
      .status(created ? 201 : 200)
      .send(ok(attempt, created ? LearningMessages.attemptCreated : undefined));
  });
  app.get('/attempts/current-attempt', { schema: { tags } }, async (r) => ok(await currentAttempt(r.ctx)));
  app.get('/attempts/:id/structure', { schema: { tags, params: AttemptParams } }, async (r) =>
    ok(await attemptStructure(r.ctx, r.params.id)),
  );
  app.get('/attempts/:id', { schema: { tags, params: AttemptParams } }, async (r) =>
    ok(await getAttempt(r.ctx, r.params.id)),
  );
  app.patch(
    '/attempts/:id',
    { schema: { tags, params: AttemptParams, body: UpdateAttemptBody } },
    async (r) => ok(await updateAttempt(r.ctx, r.params.id, r.body)),
  );
  app.delete('/attempts/:id', { schema: { tags, params: AttemptParams } }, async (r) => {
    await deleteAttempt(r.ctx, r.params.id);
    return done(LearningMessages.attemptDeleted);
  });
  app.post('/quizzes/take', { schema: { tags, body: TakeQuizBody } }, async (r) => {
    const body = r.body;
    if ('quiz_attempt_id' in body) {
      const outcome = await submitQuiz(r.ctx, body);
      return ok(outcome, outcome.passed ? LearningMessages.quizPassed : LearningMessages.quizFailed);
    }
    return ok(await startQuiz(r.ctx, body));
  });

  const list =
    (load: typeof availableCourses | typeof availableTraining) =>
    async (r: {
      ctx: Parameters<typeof load>[0];
      params: { id: string };
      query: LearnerListQuery;
      url: string;
    }) => {
      const { data, total } = await load(r.ctx, r.params.id, r.query);
      return paginate<unknown>(data, total, r.query, r.url);
    };
  const listSchema = { schema: { tags, params: UserRefParams, querystring: LearnerListQuery } };
  app.get('/users/:id/available-courses', listSchema, list(availableCourses));
  app.get('/users/:id/available-training', listSchema, list(availableTraining));
  app.get('/users/:id/compliant-courses', listSchema, list(compliantCourses));
  app.get('/users/:id/personal-development-courses', listSchema, list(personalDevelopmentCourses));
  // The learner's to-do (spec 1 §2 "learner events"): counts and ordered courses, not paged (one person's courses).
  app.get('/users/:id/events', { schema: { tags, params: UserRefParams } }, async (r) =>
    ok(await learnerEvents(r.ctx, r.params.id)),
  );
}
