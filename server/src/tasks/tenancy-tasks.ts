import type { Db } from '../db/connect';

/**
 * Tasks' rows in server/test/tenancy.test.ts (issue 18): a finished task of the victim with a file, and the cases
 * calling every tasks route with it. A task is its owner's alone: everyone else (outsider or insider, whatever
 * their permissions) gets 404 and nothing changes. POST /attempts/bulk is scoped: an outsider naming the target's
 * course and person gets 404, an insider without 111 gets 403.
 */
export interface TaskFixture {
  uuid: string;
  title: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface F {
  task: TaskFixture;
  victim: { id: number };
  course: { id: number };
}

export async function taskFixture(db: Db, o: { victimId: number; canary: string }): Promise<TaskFixture> {
  const title = `${o.canary} export of the victim`;
  const row = await db
    .insertInto('tasks')
    .values({
      user_id: o.victimId,
      entity_id: null,
      kind: 'export',
      title,
      status: 'done',
      progress_total: 1,
      progress_done: 1,
      result: JSON.stringify({
        file: {
          key: 'tasks/00000000-0000-4000-8000-000000000000.csv',
          filename: 'x.csv',
          contentType: 'text/csv',
        },
      }),
      finished_at: new Date(),
    })
    .returning('uuid')
    .executeTakeFirstOrThrow();
  return { uuid: row.uuid, title };
}

export function taskCases() {
  const own = (method: Method, route: string, url: (f: F) => string) => ({
    method,
    route,
    url,
    kind: 'own' as const,
  });
  const task = (f: F) => `/api/tasks/${f.task.uuid}`;
  return [
    own('GET', '/api/tasks/:uuid', task),
    own('GET', '/api/tasks/:uuid/download', (f) => `${task(f)}/download`),
    own('DELETE', '/api/tasks/:uuid', task),
    {
      method: 'POST' as const,
      route: '/api/attempts/bulk',
      url: () => '/api/attempts/bulk',
      body: (f: F) => ({ user_ids: [f.victim.id], course_id: f.course.id }),
      kind: 'scoped' as const,
    },
  ];
}

export function taskLists() {
  return [
    {
      method: 'GET' as const,
      route: '/api/tasks',
      url: () => '/api/tasks?per_page=100',
      secrets: (f: F) => [f.task.title, f.task.uuid],
      insider: 200 as const,
    },
  ];
}

export const TASK_EXEMPT: Record<string, string> = {
  'GET /api/tasks/active-count': "the caller's own count only",
};
