import type { Ctx } from '../http/context';
import { recordAttemptResult, type Trx } from '../results/service';

/**
 * SCORM completion (issue 4 items 2 and 3): turns the CMI data a SCORM runtime commits (PATCH /attempts/{id} with
 * `cmi`) into the attempt's outcome, and records the result (type 'scorm') in the same transaction.
 *
 * SCORM 1.2: cmi.core.lesson_status passed / completed / failed; with a mastery score from the manifest
 *   (adlcp:masteryscore) and a cmi.core.score.raw, the LMS decides passed (raw >= mastery) or failed (RTE 3.4.2).
 * SCORM 2004: cmi.success_status passed / failed decides; otherwise cmi.completion_status completed completes.
 *   The score is cmi.score.scaled × 100, else cmi.score.raw.
 * 'completed' (no pass/fail judgement) finishes the attempt as completed with a passing result (the learner has
 * done the training); 'failed' finishes it as failed with a failing result (a retake starts a new attempt).
 * Anything else (incomplete, browsed, not attempted, unknown) leaves the attempt in progress.
 *
 * The CMI may arrive nested ({ cmi: { core: { lesson_status } } }, scorm-again's default), flattened
 * ({ 'cmi.core.lesson_status': … }), or as the cmi object itself ({ core: { … } }).
 */
export type ScormVersion = '1.2' | '2004';

export interface ScormOutcome {
  status: 'passed' | 'completed' | 'failed';
  passed: boolean;
  score: number | null;
}

/** Reads a dotted CMI element (e.g. 'cmi.core.lesson_status') from any of the accepted shapes. */
export function cmiValue(cmi: Record<string, unknown>, element: string): unknown {
  if (element in cmi) return cmi[element];
  const walk = (from: unknown, keys: string[]): unknown => {
    let node = from;
    for (const key of keys) {
      if (!node || typeof node !== 'object') return undefined;
      node = (node as Record<string, unknown>)[key];
    }
    return node;
  };
  const keys = element.split('.');
  const nested = walk(cmi, keys);
  if (nested !== undefined) return nested;
  return keys[0] === 'cmi' ? walk(cmi, keys.slice(1)) : undefined;
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');
const num = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const round = (n: number) => Math.round(n * 100) / 100;

/** 1.2 when the CMI speaks 1.2 (cmi.core.*), else 2004; a stored package version wins. */
export function guessVersion(cmi: Record<string, unknown>): ScormVersion {
  return cmiValue(cmi, 'cmi.core.lesson_status') !== undefined ? '1.2' : '2004';
}

export function scormOutcome(
  version: ScormVersion,
  cmi: Record<string, unknown>,
  masteryScore: number | null = null,
): ScormOutcome | null {
  if (version === '1.2') {
    const status = str(cmiValue(cmi, 'cmi.core.lesson_status'));
    if (!['passed', 'completed', 'failed'].includes(status)) return null;
    const raw = num(cmiValue(cmi, 'cmi.core.score.raw'));
    const score = raw === null ? null : round(raw);
    if (masteryScore !== null && raw !== null) {
      const passed = raw >= masteryScore;
      return { status: passed ? 'passed' : 'failed', passed, score };
    }
    if (status === 'failed') return { status: 'failed', passed: false, score };
    return { status: status as 'passed' | 'completed', passed: true, score };
  }
  const success = str(cmiValue(cmi, 'cmi.success_status'));
  const completion = str(cmiValue(cmi, 'cmi.completion_status'));
  const scaled = num(cmiValue(cmi, 'cmi.score.scaled'));
  const raw = num(cmiValue(cmi, 'cmi.score.raw'));
  const score = scaled !== null ? round(scaled * 100) : raw !== null ? round(raw) : null;
  if (success === 'passed') return { status: 'passed', passed: true, score };
  if (success === 'failed') return { status: 'failed', passed: false, score };
  if (completion === 'completed') return { status: 'completed', passed: true, score };
  return null;
}

/**
 * Called by updateAttempt (attempts-service.ts) under the attempt's row lock when SCORM content commits CMI. When the
 * CMI finishes the attempt, writes the result (type 'scorm') and latest_results in `trx` and returns the attempt's
 * new status, score and completed_at; otherwise null.
 */
export async function finishScormIfDone(
  trx: Trx,
  ctx: Ctx,
  attempt: { id: number; user_id: number; content_id: number; course_id: number },
  cmi: Record<string, unknown>,
  now: Date,
) {
  const pkg = await trx
    .selectFrom('scorm_packages')
    .select(['version', 'mastery_score'])
    .where('content_id', '=', attempt.content_id)
    .executeTakeFirst();
  const version = pkg?.version ?? guessVersion(cmi);
  const outcome = scormOutcome(version, cmi, pkg?.mastery_score == null ? null : Number(pkg.mastery_score));
  if (!outcome) return null;
  await recordAttemptResult(
    trx,
    attempt,
    { type: 'scorm', passed: outcome.passed, score: outcome.score, createdBy: ctx.actor?.userId ?? null },
    now,
  );
  return { status: outcome.status, score: outcome.score, completed_at: now };
}
