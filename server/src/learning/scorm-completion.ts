import type { Ctx } from '../http/context';
import { invalidField } from '../http/errors';
import type { ScormItem } from '../packages/manifest';
import { recordAttemptResult, type Trx } from '../results/service';

/**
 * SCORM completion (issue 4 items 2 and 3, issue 10 item 1): turns the CMI a SCO commits (PATCH /attempts/{id} with
 * `cmi` and `sco`, the item's identifier) into that SCO's outcome, rolls the SCOs up into the content's outcome, and
 * records the result (type 'scorm') in the same transaction once every SCO is done.
 *
 * The verdict of one SCO, the same rule as H5P's: an explicit verdict counts, a score without a verdict is judged
 * against the pass mark, and no score and no verdict is never a pass. Where SCORM gives the LMS the judgement, the
 * LMS judges (1.2 RTE 3.4.2: a mastery score and a score.raw decide passed / failed; 2004 RTE 4.2.22: a
 * scaled_passing_score and a scaled score decide success_status).
 * - SCORM 1.2: cmi.core.lesson_status passed / failed, or completed (a completion: no verdict, no pass mark);
 *   incomplete, browsed and not attempted leave the SCO open. (The runtime applies RTE 3.4.2 at LMSFinish: a SCO
 *   that never set a status is completed, or judged against the mastery score; web players/scorm-runtime.ts.)
 * - SCORM 2004: cmi.success_status passed / failed, else cmi.completion_status completed (a completion).
 * - The score (0..100): score.scaled × 100, else score.raw relative to score.min..score.max (1.2's default range is
 *   0..100), never the raw number as a percentage.
 * - An asset (a launchable item that is no SCO) is completed once launched: the player commits it on launch.
 *
 * The CMI may arrive nested ({ cmi: { core: { lesson_status } } }, scorm-again's default), flattened
 * ({ 'cmi.core.lesson_status': … }), or as the cmi object itself ({ core: { … } }).
 *
 * attempts.cmi holds every SCO's data: { items: { <identifier>: { …the committed CMI, outcome: ScoOutcome } } }.
 * Attempts saved before multi-SCO packages hold one SCO's CMI at the top level: that is the first SCO's.
 */
export type ScormVersion = '1.2' | '2004';
export type ScormStatus = 'passed' | 'completed' | 'failed';

export const SCO_NOT_IN_PACKAGE = 'The SCO is not part of this package.';

/** One SCO's outcome: status null while it is not done (incomplete, browsed, not attempted, unknown). */
export interface ScoOutcome {
  status: ScormStatus | null;
  score: number | null;
}

/** The content's outcome (all SCOs rolled up). */
export interface ScormOutcome {
  status: ScormStatus;
  passed: boolean;
  score: number | null;
}

/** What the manifest says about judging one SCO. */
export type ScoRules = Pick<ScormItem, 'mastery_score' | 'scaled_passing_score'> & {
  scorm_type?: ScormItem['scorm_type'];
};

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
const clamp = (n: number, low: number, high: number) => Math.min(high, Math.max(low, n));

/** 1.2 when the CMI speaks 1.2 (cmi.core.*), else 2004; a stored package version wins. */
export function guessVersion(cmi: Record<string, unknown>): ScormVersion {
  return cmiValue(cmi, 'cmi.core.lesson_status') !== undefined ? '1.2' : '2004';
}

/**
 * A SCORM score as a fraction 0..1: score.scaled (2004, -1..1, below 0 counts as 0), else score.raw within
 * score.min..score.max; without a usable range, raw is read on 1.2's default 0..100 scale. Null without a score.
 */
export function scoreFraction(s: {
  scaled?: unknown;
  raw?: unknown;
  min?: unknown;
  max?: unknown;
}): number | null {
  const scaled = num(s.scaled);
  if (scaled !== null) return clamp(scaled, 0, 1);
  const raw = num(s.raw);
  if (raw === null) return null;
  const max = num(s.max);
  const min = num(s.min) ?? 0;
  if (max !== null && max > min) return clamp((raw - min) / (max - min), 0, 1);
  return clamp(raw / 100, 0, 1);
}

const percent = (fraction: number | null) => (fraction === null ? null : round(fraction * 100));

/** The outcome of one SCO from its CMI and the manifest's pass mark. */
export function scoOutcome(version: ScormVersion, cmi: Record<string, unknown>, rules: ScoRules): ScoOutcome {
  if (rules.scorm_type === 'asset') return { status: 'completed', score: null };
  if (version === '1.2') {
    const score = (k: string) => cmiValue(cmi, `cmi.core.score.${k}`);
    const fraction = scoreFraction({ raw: score('raw'), min: score('min'), max: score('max') });
    const status = str(cmiValue(cmi, 'cmi.core.lesson_status'));
    if (!['passed', 'completed', 'failed'].includes(status))
      return { status: null, score: percent(fraction) };
    const raw = num(score('raw'));
    // RTE 3.4.2: with a mastery score and a raw score, the LMS decides (raw in the SCO's own units).
    if (rules.mastery_score !== null && raw !== null)
      return { status: raw >= rules.mastery_score ? 'passed' : 'failed', score: percent(fraction) };
    return { status: status as ScormStatus, score: percent(fraction) };
  }
  const score = (k: string) => cmiValue(cmi, `cmi.score.${k}`);
  const fraction = scoreFraction({
    scaled: score('scaled'),
    raw: score('raw'),
    min: score('min'),
    max: score('max'),
  });
  const success = str(cmiValue(cmi, 'cmi.success_status'));
  const completion = str(cmiValue(cmi, 'cmi.completion_status'));
  const scored = percent(fraction);
  const judged = success === 'passed' || success === 'failed' || completion === 'completed';
  // RTE 4.2.22: with a scaled passing score and a score, the LMS decides success_status.
  if (judged && rules.scaled_passing_score !== null && fraction !== null) {
    const scaled = num(score('scaled')) ?? fraction;
    return { status: scaled >= rules.scaled_passing_score ? 'passed' : 'failed', score: scored };
  }
  if (success === 'passed' || success === 'failed') return { status: success, score: scored };
  if (completion === 'completed') return { status: 'completed', score: scored };
  return { status: null, score: scored };
}

/**
 * The content's outcome from its SCOs (undefined: never launched), null while any is not done. Failed when any
 * failed; passed when one passed (and none failed); completed when every SCO only completed. The score is the mean
 * of the SCOs' scores (a single SCO's own score), null when none is scored. SCORM 2004 rollup rules and objective
 * weights are not read (README: SCORM 2004 sequencing beyond a flow / choice table of contents is not built).
 */
export function rollupScos(outcomes: readonly (ScoOutcome | undefined)[]): ScormOutcome | null {
  if (!outcomes.length || outcomes.some((o) => !o?.status)) return null;
  const done = outcomes as ScoOutcome[];
  const statuses = new Set(done.map((o) => o.status));
  const status: ScormStatus = statuses.has('failed')
    ? 'failed'
    : statuses.has('passed')
      ? 'passed'
      : 'completed';
  const scores = done.map((o) => o.score).filter((s): s is number => s !== null);
  const score = scores.length ? round(scores.reduce((a, b) => a + b, 0) / scores.length) : null;
  return { status, passed: status !== 'failed', score };
}

/** A single SCO's outcome as the content's (1.2 mastery score given); null while it is not done. */
export function scormOutcome(
  version: ScormVersion,
  cmi: Record<string, unknown>,
  masteryScore: number | null = null,
  scaledPassingScore: number | null = null,
): ScormOutcome | null {
  return rollupScos([
    scoOutcome(version, cmi, { mastery_score: masteryScore, scaled_passing_score: scaledPassingScore }),
  ]);
}

/** The items the learner must finish: launchable and shown in the table of contents. */
export function requiredItems(items: readonly ScormItem[]): ScormItem[] {
  return items.filter((i) => i.launch_path !== null && i.visible);
}

type ItemsData = Record<string, Record<string, unknown>>;

/** Every SCO's saved data on an attempt; a pre-multi-SCO attempt's top-level CMI is the first SCO's. */
export function savedItems(cmi: Record<string, unknown>, firstId: string): ItemsData {
  const items = cmi.items;
  if (items && typeof items === 'object' && !Array.isArray(items)) return { ...(items as ItemsData) };
  return Object.keys(cmi).length ? { [firstId]: cmi } : {};
}

/** Which launch of a SCO sent a commit, and the commit's place in it (UpdateAttemptBody.commit). */
export interface CommitOrder {
  session: string;
  seq: number;
}

/**
 * How a commit stands against the last one saved for its SCO (the `commit` kept beside the SCO's CMI):
 * - 'stale': the same session already saved this commit or a later one; nothing is written (a resent save, or a
 *   commit overtaken by the save sent as the learner left, never replaces newer data);
 * - 'next': a later commit of the session that saved last; the attempt's version need not match (the keepalive save
 *   may overtake the commit still under way, whose answer it never saw);
 * - 'unordered': no order to go by (another session, or none given): the version decides as for any PATCH.
 * Read under the attempt's row lock (updateAttempt), so two commits of a session are weighed one after the other.
 */
export function commitStanding(
  attemptCmi: Record<string, unknown>,
  sco: string | undefined,
  order: CommitOrder | undefined,
): 'stale' | 'next' | 'unordered' {
  if (!order || !sco) return 'unordered';
  const items = attemptCmi.items as ItemsData | undefined;
  const last = items && typeof items === 'object' ? (items[sco]?.commit as Partial<CommitOrder>) : undefined;
  if (!last || last.session !== order.session || typeof last.seq !== 'number') return 'unordered';
  return order.seq <= last.seq ? 'stale' : 'next';
}

/**
 * Called by updateAttempt (attempts-service.ts) under the attempt's row lock when SCORM content commits CMI. Saves the
 * SCO's CMI with its outcome; when every SCO is done, writes the result (type 'scorm') and latest_results in `trx`.
 * Returns the attempt's new cmi and, when finished, its status, score and completed_at.
 */
export async function commitScorm(
  trx: Trx,
  ctx: Ctx,
  attempt: {
    id: number;
    user_id: number;
    content_id: number;
    course_id: number;
    cmi: Record<string, unknown>;
  },
  commit: { cmi: Record<string, unknown>; sco?: string | undefined; order?: CommitOrder | undefined },
  now: Date,
) {
  const pkg = await trx
    .selectFrom('scorm_packages')
    .select(['version', 'items'])
    .where('content_id', '=', attempt.content_id)
    .executeTakeFirst();
  const version = pkg?.version ?? guessVersion(commit.cmi);
  const items = pkg?.items ?? [];
  const launchable = items.filter((i) => i.launch_path !== null);
  const firstId = launchable[0]?.identifier ?? 'item';
  const id = commit.sco ?? firstId;
  const item = launchable.find((i) => i.identifier === id);
  if (pkg && !item) throw invalidField('sco', SCO_NOT_IN_PACKAGE);
  const rules: ScoRules = item ?? { mastery_score: null, scaled_passing_score: null };

  const saved = savedItems(attempt.cmi, firstId);
  saved[id] = {
    ...commit.cmi,
    outcome: scoOutcome(version, commit.cmi, rules),
    ...(commit.order ? { commit: { session: commit.order.session, seq: commit.order.seq } } : {}),
  };
  const cmi = { items: saved };

  const required = pkg ? requiredItems(items) : [{ identifier: id }];
  const outcome = rollupScos(required.map((i) => saved[i.identifier]?.outcome as ScoOutcome | undefined));
  if (!outcome) return { cmi, finished: null };
  await recordAttemptResult(
    trx,
    ctx,
    attempt,
    { type: 'scorm', passed: outcome.passed, score: outcome.score, createdBy: ctx.actor?.userId ?? null },
    now,
  );
  return { cmi, finished: { status: outcome.status, score: outcome.score, completed_at: now } };
}
