import type { TaskKind, TaskView } from '@cc/contracts';
import type { TaskResultJson } from '../db/schema';
import type { TaskRow } from './queries';

const iso = (d: Date | string) => new Date(d).toISOString();

/** The stored result as the owner sees it: the storage key never leaves the server, the download goes through us. */
export function presentTask(row: TaskRow): TaskView {
  const result = (
    typeof row.result === 'string' ? JSON.parse(row.result) : row.result
  ) as TaskResultJson | null;
  const file = result?.file ?? null;
  return {
    uuid: row.uuid,
    kind: row.kind as TaskKind,
    title: row.title,
    status: row.status,
    progress: { done: row.progress_done, total: row.progress_total },
    result: result
      ? {
          file: file
            ? { filename: file.filename, content_type: file.contentType, size: file.size ?? null }
            : null,
          download_url: file && row.status === 'done' ? `/api/tasks/${row.uuid}/download` : null,
          summary: result.summary ?? null,
          link: result.link ?? null,
        }
      : null,
    error: row.error,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    finished_at: row.finished_at ? iso(row.finished_at) : null,
  };
}
