import type { Attempt } from '@cc/contracts';
import { normaliseProgress } from './progress';
import type { AttemptRow } from './queries';

const iso = (d: Date | string) => new Date(d).toISOString();
const num = (v: number | string | null) => (v === null ? null : Number(v));

export function presentAttempt(row: AttemptRow): Attempt {
  return {
    id: row.id,
    uuid: row.uuid,
    user_id: row.user_id,
    content_id: row.content_id,
    course_id: row.course_id,
    content: { id: row.content_id, title: row.content_title, type: row.content_type },
    course: { id: row.course_id, title: row.course_title },
    status: row.status,
    progress: normaliseProgress(row.progress),
    cmi: row.cmi ?? {},
    score: num(row.score),
    version: row.version,
    started_at: iso(row.started_at),
    completed_at: row.completed_at ? iso(row.completed_at) : null,
    updated_at: iso(row.updated_at),
    result_id: row.result_id ?? null,
    result_passed: row.result_passed ?? null,
  };
}
