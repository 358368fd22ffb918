import type { QuizSheet } from '@cc/contracts';

/** Chosen answer ids per question id. */
export type QuizAnswers = Readonly<Record<number, readonly number[]>>;

/** A question takes several answers when the server says so (`multiple`); otherwise one (radio). */
export const isMultiple = (q: QuizSheet['questions'][number]) =>
  Boolean((q as { multiple?: boolean }).multiple);

/** Radio: the answer replaces the choice. Checkbox: the answer toggles. */
export function choose(
  answers: QuizAnswers,
  questionId: number,
  answerId: number,
  multiple: boolean,
): QuizAnswers {
  const current = answers[questionId] ?? [];
  if (!multiple) return { ...answers, [questionId]: [answerId] };
  const next = current.includes(answerId) ? current.filter((id) => id !== answerId) : [...current, answerId];
  return { ...answers, [questionId]: next };
}

export function unanswered(sheet: Pick<QuizSheet, 'questions'>, answers: QuizAnswers): number {
  return sheet.questions.filter((q) => !(answers[q.id]?.length ?? 0)).length;
}

/** The body of the submit call: question id -> the chosen answer ids. */
export function toResponses(
  sheet: Pick<QuizSheet, 'questions'>,
  answers: QuizAnswers,
): Record<string, number[]> {
  return Object.fromEntries(sheet.questions.map((q) => [String(q.id), [...(answers[q.id] ?? [])]]));
}
