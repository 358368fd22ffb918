/**
 * Pure logic of the content creator's editors, tested in content-logic.test.ts: re-ordering, the
 * prerequisites editor (spec 2 §3: a list of options, each a list of contents) and the quiz editor.
 */

/** The list with the item at `index` moved by `delta` (−1 up, +1 down); unchanged at the ends. */
export function move<T>(list: readonly T[], index: number, delta: -1 | 1): T[] {
  const to = index + delta;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return [...list];
  const out = [...list];
  const [item] = out.splice(index, 1);
  out.splice(to, 0, item as T);
  return out;
}

// --- Prerequisites -----------------------------------------------------------------------------------------

/** Editor state: options with a stable key each (for React), each a list of content ids (maybe empty). */
export interface PrereqOption {
  key: string;
  ids: number[];
}

let prereqKey = 0;
const nextKey = () => `opt-${++prereqKey}`;

export const prereqsToState = (prerequisites: number[][]): PrereqOption[] =>
  prerequisites.map((ids) => ({ key: nextKey(), ids: [...ids] }));

export const addPrereqOption = (state: PrereqOption[]): PrereqOption[] => [
  ...state,
  { key: nextKey(), ids: [] },
];

export const removePrereqOption = (state: PrereqOption[], key: string): PrereqOption[] =>
  state.filter((o) => o.key !== key);

/** Tick or untick one content in one option. */
export function togglePrereq(state: PrereqOption[], key: string, id: number, on: boolean): PrereqOption[] {
  return state.map((o) =>
    o.key !== key
      ? o
      : { ...o, ids: on ? (o.ids.includes(id) ? o.ids : [...o.ids, id]) : o.ids.filter((x) => x !== id) },
  );
}

/** The payload: empty options dropped, duplicates removed, and the content itself never its own prerequisite. */
export function prereqsToPayload(state: PrereqOption[], selfId: number | null = null): number[][] {
  return state.map((o) => [...new Set(o.ids)].filter((id) => id !== selfId)).filter((ids) => ids.length > 0);
}

// --- Quiz --------------------------------------------------------------------------------------------------

export interface AnswerState {
  key: string;
  id?: number;
  text: string;
  is_correct: boolean;
}
export interface QuestionState {
  key: string;
  id?: number;
  text: string;
  answers: AnswerState[];
}
export interface QuizFormState {
  title: string;
  published: boolean;
  is_randomized: boolean;
  pass_mark: string;
  questions: QuestionState[];
}

let quizKey = 0;
const qk = (prefix: string) => `${prefix}-${++quizKey}`;

export const newAnswer = (): AnswerState => ({ key: qk('a'), text: '', is_correct: false });
/** A new question starts with two empty answers: the server wants at least two. */
export const newQuestion = (): QuestionState => ({
  key: qk('q'),
  text: '',
  answers: [newAnswer(), newAnswer()],
});

export interface QuizDtoLike {
  title: string;
  published: boolean;
  is_randomized: boolean;
  pass_mark: number;
  questions?: {
    id: number;
    text: string;
    position: number;
    answers: { id: number; text: string; is_correct: boolean; position: number }[];
  }[];
}

export function quizToForm(quiz: QuizDtoLike | null, defaultPassMark: number): QuizFormState {
  const byPos = <T extends { position: number }>(list: T[]) =>
    [...list].sort((a, b) => a.position - b.position);
  return {
    title: quiz?.title ?? '',
    published: quiz?.published ?? false,
    is_randomized: quiz?.is_randomized ?? false,
    pass_mark: String(quiz?.pass_mark ?? defaultPassMark),
    questions: byPos(quiz?.questions ?? []).map((q) => ({
      key: qk('q'),
      id: q.id,
      text: q.text,
      answers: byPos(q.answers).map((a) => ({
        key: qk('a'),
        id: a.id,
        text: a.text,
        is_correct: a.is_correct,
      })),
    })),
  };
}

/** The POST/PATCH /quizzes body (ids kept so the server updates questions and answers in place). */
export function quizToPayload(form: QuizFormState) {
  const passMark = form.pass_mark.trim() === '' ? undefined : Number(form.pass_mark);
  return {
    title: form.title.trim(),
    published: form.published,
    is_randomized: form.is_randomized,
    ...(passMark === undefined ? {} : { pass_mark: passMark }),
    questions: form.questions.map((q) => ({
      ...(q.id ? { id: q.id } : {}),
      text: q.text.trim(),
      answers: q.answers.map((a) => ({
        ...(a.id ? { id: a.id } : {}),
        text: a.text.trim(),
        is_correct: a.is_correct,
      })),
    })),
  };
}

/** The same rules the server applies (QuestionInput), keyed by the server's field paths (`questions.0.answers`). */
export function checkQuiz(form: QuizFormState): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => {
    errors[key] = [...(errors[key] ?? []), message];
  };
  if (!form.title.trim()) add('title', 'The title field is required.');
  const mark = Number(form.pass_mark);
  if (form.pass_mark.trim() === '' || !Number.isInteger(mark) || mark < 0 || mark > 100)
    add('pass_mark', 'The pass mark must be a whole number from 0 to 100.');
  form.questions.forEach((q, i) => {
    if (!q.text.trim()) add(`questions.${i}.text`, 'The text field is required.');
    if (q.answers.length < 2) add(`questions.${i}.answers`, 'Each question needs at least 2 answers.');
    else if (!q.answers.some((a) => a.is_correct))
      add(`questions.${i}.answers`, 'Each question needs at least one correct answer.');
    q.answers.forEach((a, j) => {
      if (!a.text.trim()) add(`questions.${i}.answers.${j}.text`, 'The text field is required.');
    });
  });
  return errors;
}

/** Question ids in form order, when every question is saved (POST /questions/changeOrder needs them all). */
export function savedQuestionOrder(form: QuizFormState): number[] | null {
  const ids = form.questions.map((q) => q.id);
  return ids.every((id): id is number => typeof id === 'number') && ids.length > 0 ? ids : null;
}
