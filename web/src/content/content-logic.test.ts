import { describe, expect, it } from 'vitest';
import {
  addPrereqOption,
  checkQuiz,
  move,
  newQuestion,
  prereqsToPayload,
  prereqsToState,
  quizToForm,
  quizToPayload,
  removePrereqOption,
  savedQuestionOrder,
  togglePrereq,
} from './logic';

describe('move', () => {
  it('moves an item up or down and leaves the ends alone', () => {
    expect(move([1, 2, 3], 1, -1)).toEqual([2, 1, 3]);
    expect(move([1, 2, 3], 1, 1)).toEqual([1, 3, 2]);
    expect(move([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
    expect(move([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
  });
});

describe('prerequisites state ↔ payload', () => {
  it('round-trips the server list of options', () => {
    const state = prereqsToState([[4, 5], [7]]);
    expect(state.map((o) => o.ids)).toEqual([[4, 5], [7]]);
    expect(new Set(state.map((o) => o.key)).size).toBe(2);
    expect(prereqsToPayload(state)).toEqual([[4, 5], [7]]);
  });

  it('adds, ticks, unticks and removes options; empty options and the content itself are dropped', () => {
    let state = addPrereqOption(addPrereqOption([]));
    const [a, b] = state.map((o) => o.key) as [string, string];
    state = togglePrereq(state, a, 3, true);
    state = togglePrereq(state, a, 3, true);
    state = togglePrereq(state, a, 9, true);
    state = togglePrereq(state, a, 12, true);
    expect(prereqsToPayload(state, 12)).toEqual([[3, 9]]);
    state = togglePrereq(state, b, 8, true);
    state = togglePrereq(state, a, 3, false);
    expect(prereqsToPayload(state, 12)).toEqual([[9], [8]]);
    expect(prereqsToPayload(removePrereqOption(state, a))).toEqual([[8]]);
  });
});

describe('quiz editor ↔ payload', () => {
  const dto = {
    title: 'Fire safety',
    published: true,
    is_randomized: false,
    pass_mark: 70,
    questions: [
      {
        id: 11,
        text: 'Second',
        position: 1,
        answers: [
          { id: 22, text: 'b', is_correct: false, position: 1 },
          { id: 21, text: 'a', is_correct: true, position: 0 },
        ],
      },
      { id: 10, text: 'First', position: 0, answers: [{ id: 20, text: 'x', is_correct: true, position: 0 }] },
    ],
  };

  it('orders by position and keeps ids in the payload', () => {
    const form = quizToForm(dto, 80);
    expect(form.pass_mark).toBe('70');
    expect(quizToPayload(form)).toEqual({
      title: 'Fire safety',
      published: true,
      is_randomized: false,
      pass_mark: 70,
      questions: [
        { id: 10, text: 'First', answers: [{ id: 20, text: 'x', is_correct: true }] },
        {
          id: 11,
          text: 'Second',
          answers: [
            { id: 21, text: 'a', is_correct: true },
            { id: 22, text: 'b', is_correct: false },
          ],
        },
      ],
    });
    expect(savedQuestionOrder(form)).toEqual([10, 11]);
    expect(savedQuestionOrder({ ...form, questions: [...form.questions, newQuestion()] })).toBeNull();
  });

  it('checks the server rules with the server field paths', () => {
    const form = quizToForm(null, 80);
    expect(form.pass_mark).toBe('80');
    const q = newQuestion();
    const errors = checkQuiz({ ...form, pass_mark: '120', questions: [q, { ...q, key: 'k', answers: [] }] });
    expect(errors.title).toBeDefined();
    expect(errors.pass_mark).toBeDefined();
    expect(errors['questions.0.text']).toBeDefined();
    expect(errors['questions.0.answers']).toEqual(['Each question needs at least one correct answer.']);
    expect(errors['questions.0.answers.1.text']).toBeDefined();
    expect(errors['questions.1.answers']).toEqual(['Each question needs at least 2 answers.']);
    const good = quizToForm(dto, 80);
    good.questions[0]?.answers.push({ key: 'z', text: 'y', is_correct: false });
    expect(checkQuiz(good)).toEqual({});
  });
});
