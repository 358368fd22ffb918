/**
 * The one rule that turns what a piece of learning reported into a verdict (issue 10 §1 "Wrong answers must not
 * pass"). Every place that decides pass or fail from a reported outcome asks this function: H5P outcomes
 * (progress.ts recordH5pOutcome) and the platform's own quizzes (quizzes-service.ts scoreQuiz).
 *
 * - An explicit verdict counts: `success` true passes, false fails, whatever the score says.
 * - A score without a verdict is judged against the pass mark: passed when score >= pass mark.
 * - No score and no verdict is never a pass: the outcome is 'unjudged' (the item said it was done, or nothing at
 *   all); callers must not treat it as passed.
 *
 * Scores and pass marks are percentages (0..100).
 */
export type Verdict = 'passed' | 'failed' | 'unjudged';

export interface ReportedOutcome {
  /** The content's own judgement (xAPI result.success, SCORM success_status), when it gave one. */
  success?: boolean | null;
  /** The score as a percentage 0..100, when the content reported one. */
  score?: number | null;
}

/**
 * The pass mark of an H5P item. Neither the spec (spec 2 §3: an H5P is id, title, video_id) nor our schema gives an
 * H5P item, its topic or its content a pass mark, so a score reported without a verdict must reach full marks.
 * That is H5P's own convention for a question that states no pass percentage: H5P.TrueFalse reports success only
 * for score === max, H5P.MultiChoice's passPercentage defaults to 100; H5P.Blanks 1.12 and H5P.DragText 1.8 send
 * the score without a verdict. A lower default would let a learner pass Fill in the blanks with a wrong blank.
 */
export const H5P_PASS_MARK = 100;

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

export function judgeOutcome(reported: ReportedOutcome, passMark: number): Verdict {
  if (reported.success === true) return 'passed';
  if (reported.success === false) return 'failed';
  if (finite(reported.score)) return reported.score >= passMark ? 'passed' : 'failed';
  return 'unjudged';
}

/** The verdict as the records store it: true passed, false failed, null when nothing could be judged. */
export function verdictFlag(verdict: Verdict): boolean | null {
  return verdict === 'unjudged' ? null : verdict === 'passed';
}
