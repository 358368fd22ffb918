import {
  ChangeQuestionOrderBody,
  ContentIdParams,
  Messages,
  OwnedListQuery,
  QuizBody,
  QuizContentParams,
  UpdateQuizBody,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  attachQuizToContent,
  changeQuestionOrder,
  createQuiz,
  deleteQuiz,
  getQuiz,
  listQuizzes,
  updateQuiz,
} from './service';

/** spec 2 §7 "H5P, lessons, quizzes, topics": quizzes and question order (not /quizzes/take). HTTP only. */
export async function quizRoutes(app: App) {
  const tags = ['quizzes'];
  app.get('/quizzes', { schema: { tags, querystring: OwnedListQuery } }, async (r) => {
    const { data, total } = await listQuizzes(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/quizzes', { schema: { tags, body: QuizBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createQuiz(r.ctx, r.body), Messages.quizCreated)),
  );
  app.get('/quizzes/:id', { schema: { tags, params: ContentIdParams } }, async (r) =>
    ok(await getQuiz(r.ctx, r.params.id)),
  );
  app.patch('/quizzes/:id', { schema: { tags, params: ContentIdParams, body: UpdateQuizBody } }, async (r) =>
    ok(await updateQuiz(r.ctx, r.params.id, r.body), Messages.quizUpdated),
  );
  app.delete('/quizzes/:id', { schema: { tags, params: ContentIdParams } }, async (r) => {
    await deleteQuiz(r.ctx, r.params.id);
    return done(Messages.quizDeleted);
  });
  app.post(
    '/quizzes/:quizId/content/:contentId',
    { schema: { tags, params: QuizContentParams } },
    async (r) =>
      ok(await attachQuizToContent(r.ctx, r.params.quizId, r.params.contentId), Messages.quizAdded),
  );
  app.post('/questions/changeOrder', { schema: { tags, body: ChangeQuestionOrderBody } }, async (r) =>
    ok(await changeQuestionOrder(r.ctx, r.body.quiz_id, r.body.ids), Messages.questionReordered),
  );
}
