import {
  ContentBody,
  ContentIdParams,
  ContentListQuery,
  ContentRefParams,
  DeleteImageBody,
  FeedbackBody,
  LessonActionBody,
  Messages,
  QuizActionBody,
  UpdateContentBody,
} from '@cc/contracts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import { deleteContentImage, type ImageUpload, uploadContentImage } from './images';
import {
  changeContentLinks,
  createContent,
  deleteContent,
  getContent,
  listContents,
  sendFeedback,
  updateContent,
} from './service';

/** The first file part of a multipart request (field `image`, or any file field). */
async function readImage(request: FastifyRequest): Promise<ImageUpload | null> {
  if (!request.isMultipart()) return null;
  const options = { throwFileSizeLimit: false } as Parameters<FastifyRequest['parts']>[0];
  let found: ImageUpload | null = null;
  for await (const part of request.parts(options)) {
    if (part.type !== 'file') continue;
    const bytes = await part.toBuffer(); // drain every part, keep the first file
    found ??= { filename: part.filename ?? '', bytes, truncated: part.file.truncated };
  }
  return found;
}

const ACTION_TEXT = {
  lessons: { add: Messages.lessonAdded, remove: Messages.lessonRemoved, order: Messages.lessonReordered },
  quizzes: { add: Messages.quizAdded, remove: Messages.quizRemoved, order: Messages.quizReordered },
} as const;

/** spec 2 §7 "Content". HTTP only: rules, permissions and visibility live in service.ts. */
export async function contentRoutes(app: App) {
  const tags = ['content'];
  app.get('/content', { schema: { tags, querystring: ContentListQuery } }, async (r) => {
    const { data, total } = await listContents(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/content', { schema: { tags, body: ContentBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createContent(r.ctx, r.body), Messages.contentCreated)),
  );
  // Static paths before /content/:id.
  app.post('/content/images', { schema: { tags } }, async (r, reply) =>
    reply.status(201).send(ok(await uploadContentImage(r.ctx, () => readImage(r)), Messages.imageUploaded)),
  );
  app.post('/content/images/delete', { schema: { tags, body: DeleteImageBody } }, async (r) => {
    await deleteContentImage(r.ctx, r.body.id);
    return done(Messages.imageRemoved);
  });
  app.get('/content/:id', { schema: { tags, params: ContentIdParams } }, async (r) =>
    ok(await getContent(r.ctx, r.params.id)),
  );
  app.patch(
    '/content/:id',
    { schema: { tags, params: ContentIdParams, body: UpdateContentBody } },
    async (r) => ok(await updateContent(r.ctx, r.params.id, r.body), Messages.contentUpdated),
  );
  app.delete('/content/:id', { schema: { tags, params: ContentIdParams } }, async (r) => {
    await deleteContent(r.ctx, r.params.id);
    return done(Messages.contentDeleted);
  });
  app.post(
    '/content/:contentId/lessons',
    { schema: { tags, params: ContentRefParams, body: LessonActionBody } },
    async (r) =>
      ok(
        await changeContentLinks(r.ctx, r.params.contentId, 'content_lessons', r.body),
        ACTION_TEXT.lessons[r.body.action],
      ),
  );
  app.post(
    '/content/:contentId/quizzes',
    { schema: { tags, params: ContentRefParams, body: QuizActionBody } },
    async (r) =>
      ok(
        await changeContentLinks(r.ctx, r.params.contentId, 'content_quizzes', r.body),
        ACTION_TEXT.quizzes[r.body.action],
      ),
  );
  app.post(
    '/feedback/:id',
    { schema: { tags, params: ContentIdParams, body: FeedbackBody } },
    async (r, reply) =>
      reply.status(201).send(ok(await sendFeedback(r.ctx, r.params.id, r.body), Messages.feedbackSent)),
  );
}
