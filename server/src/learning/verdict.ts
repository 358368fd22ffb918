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

/**
 * H5P content types that are graded tasks (H5P's question contract: the instance reports a score out of a maximum,
 * and H5P core marks it a task). A topic holding one of these is completed by passing the item, never by the
 * learner saying they have read it: online (PATCH /attempts/{id} completed_topic_id) and offline (a synced "I have
 * read") alike (progress.ts manualCompletionRefusal). The web's player also asks the running item whether it has a
 * max score (h5p-frame.js 'scored'), which covers containers (Course Presentation, Interactive Video, Column…) that
 * are graded only when they hold questions; the server cannot tell those from the package's name, so they are not
 * listed here and a failed outcome of theirs blocks completion by hand as before.
 */
export const GRADED_H5P_TYPES: ReadonlySet<string> = new Set([
  'H5P.ArithmeticQuiz',
  'H5P.Blanks',
  'H5P.Crossword',
  'H5P.Dictation',
  'H5P.DragQuestion',
  'H5P.DragText',
  'H5P.Essay',
  'H5P.FindTheWords',
  'H5P.ImageHotspotQuestion',
  'H5P.ImageMultipleHotspotQuestion',
  'H5P.ImagePair',
  'H5P.ImageSequencing',
  'H5P.MarkTheWords',
  'H5P.MultiChoice',
  'H5P.MultiMediaChoice',
  'H5P.QuestionSet',
  'H5P.SingleChoiceSet',
  'H5P.SortParagraphs',
  'H5P.SpeakTheWords',
  'H5P.SpeakTheWordsSet',
  'H5P.Summary',
  'H5P.TrueFalse',
]);

/**
 * Whether an H5P item must be passed to complete its topic, from its main library as the package names it
 * (h5ps.library: "H5P.MultiChoice 1.16", the machine name and version). An item without a package (a video id) has
 * nothing to pass.
 */
export function h5pMustBePassed(library: string | null | undefined): boolean {
  if (!library) return false;
  return GRADED_H5P_TYPES.has(library.trim().split(/\s+/)[0] ?? '');
}
