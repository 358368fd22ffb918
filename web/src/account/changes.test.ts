import { describe, expect, it } from 'vitest';
import { accountChanges, editsOwnRecordAsManager } from './changes';

const checker = (held: number[]) => {
  const set = new Set(held);
  return (ids: number[], mode: 'all' | 'any' = 'all') =>
    mode === 'all' ? ids.every((id) => set.has(id)) : ids.some((id) => set.has(id));
};

describe('My account: what a person may change (issue 31 §6)', () => {
  it('lets a learner with self update (127) change her name, e-mail and reminders, and not edit her record', () => {
    const learner = checker([6, 44, 80, 104, 108, 118, 127, 134]);
    expect(accountChanges(learner)).toEqual({ name: true, email: true, notifications: true });
    expect(editsOwnRecordAsManager(learner)).toBe(false);
  });

  it('offers nothing the server would refuse to someone without 127', () => {
    expect(accountChanges(checker([6, 44, 104]))).toEqual({
      name: false,
      email: false,
      notifications: false,
    });
  });

  it('lets 18 (update user) change the name and reminders but not the e-mail, which needs 127 with the password', () => {
    const editor = checker([18, 21]);
    expect(accountChanges(editor)).toEqual({ name: true, email: false, notifications: true });
    expect(editsOwnRecordAsManager(editor)).toBe(true);
  });
});
