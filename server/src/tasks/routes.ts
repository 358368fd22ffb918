import { BulkAttemptsBody, TaskListQuery, TaskMessages, TaskParams } from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import { requestBulkAttempts } from './bulk-attempts';
import { activeTaskCount, dismissTask, getTask, listTasks, taskFile } from './user-service';

/** Tasks in progress (issue 18; contracts tasks.ts): the caller's own tasks. HTTP only, rules in user-service.ts. */
export async function taskRoutes(app: App): Promise<void> {
  const tags = ['tasks'];
  app.get('/tasks', { schema: { tags, querystring: TaskListQuery } }, async (r) => {
    const { data, total } = await listTasks(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.get('/tasks/active-count', { schema: { tags } }, async (r) => ok(await activeTaskCount(r.ctx)));
  app.get('/tasks/:uuid', { schema: { tags, params: TaskParams } }, async (r) =>
    ok(await getTask(r.ctx, r.params.uuid)),
  );
  app.get('/tasks/:uuid/download', { schema: { tags, params: TaskParams } }, async (r, reply) => {
    const file = await taskFile(r.ctx, r.params.uuid);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '')}"`)
      .header('content-length', String(file.size))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(file.body);
  });
  app.delete('/tasks/:uuid', { schema: { tags, params: TaskParams } }, async (r) => {
    const { message, task } = await dismissTask(r.ctx, r.params.uuid);
    return done(message, task ?? undefined);
  });
  // 111 bulk create attempts: 202, the work goes on as a task (follow it at /tasks-in-progress).
  app.post(
    '/attempts/bulk',
    { schema: { tags: ['learning', ...tags], body: BulkAttemptsBody } },
    async (r, reply) =>
      reply.status(202).send(ok(await requestBulkAttempts(r.ctx, r.body), TaskMessages.bulkAttemptsQueued)),
  );
}
