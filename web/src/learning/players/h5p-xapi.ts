import type { H5pOutcomeBody } from '@cc/contracts';

/**
 * Reading H5P's xAPI statements (H5P.externalDispatcher 'xAPI' events, https://h5p.org/documentation/x-api) into
 * the outcome PATCH /attempts/{id} records (`h5p`: score_scaled 0..1, success, completion).
 *
 * Only the item's own, top-level statement counts: its local content id is the one the player was started with,
 * and it is not about a sub-content (a question inside a question set reports `answered` for itself first; the set
 * reports `completed` with the total afterwards). Verbs other than completed and answered (attempted, interacted,
 * progressed…) carry no outcome.
 *
 * The outcome says only what the statement says: no success is invented (H5P.Blanks and H5P.DragText send a score
 * without `success`; the server judges that score against the item's pass mark, server/src/learning/verdict.ts), and
 * completion is true for the `completed` verb or when the statement sets it, otherwise unknown (null).
 */
export type H5pOutcome = Omit<H5pOutcomeBody, 'topic_id' | 'h5p_id'>;

export interface XapiStatement {
  verb?: { id?: string };
  object?: { definition?: { extensions?: Record<string, unknown> } };
  result?: {
    score?: { scaled?: number; raw?: number; max?: number; min?: number };
    success?: boolean;
    completion?: boolean;
  };
}

const LOCAL_CONTENT_ID = 'http://h5p.org/x-api/h5p-local-content-id';
const SUB_CONTENT_ID = 'http://h5p.org/x-api/h5p-subContentId';
const OUTCOME_VERBS = new Set(['completed', 'answered']);

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
const clamp01 = (n: number) => Math.min(1, Math.max(0, n));

/** The outcome of `statement` for the item started as `contentId`, or null when it carries none. */
export function h5pOutcomeOf(
  statement: XapiStatement | null | undefined,
  contentId: string,
): H5pOutcome | null {
  if (!statement?.result) return null;
  const verb = (statement.verb?.id ?? '').split('/').pop() ?? '';
  if (!OUTCOME_VERBS.has(verb)) return null;
  const extensions = statement.object?.definition?.extensions ?? {};
  if (String(extensions[LOCAL_CONTENT_ID] ?? '') !== contentId) return null;
  if (extensions[SUB_CONTENT_ID] !== undefined) return null;

  const { score, success, completion } = statement.result;
  let scaled: number | null = null;
  if (finite(score?.scaled)) scaled = clamp01(score.scaled);
  else if (finite(score?.raw) && finite(score?.max) && score.max > 0) scaled = clamp01(score.raw / score.max);
  return {
    score_scaled: scaled === null ? null : Math.round(scaled * 10000) / 10000,
    success: typeof success === 'boolean' ? success : null,
    // `completed` says so by its verb; an `answered` statement without the flag does not say.
    completion: typeof completion === 'boolean' ? completion : verb === 'completed' ? true : null,
  };
}
