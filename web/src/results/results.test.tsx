import { EVIDENCE_MAX_BYTES, ResultsMessages } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { formatDay, toDateInput, todayInput } from './api';
import {
  bulkBody,
  bulkErrors,
  evidenceErrors,
  exemptBody,
  exemptErrors,
  type HistoricalValues,
  historicalErrors,
  historicalFormData,
} from './forms';

const base: HistoricalValues = {
  user: { id: 7, label: 'Ada' },
  course: { id: 3, label: 'Fire safety' },
  completed_at: '2024-05-07',
  passed: true,
  score: '',
  notes: '',
  evidence: null,
  remove_evidence: false,
};

describe('historical result form', () => {
  it('asks for the user, course and date, refuses future dates and scores outside 0-100', () => {
    expect(historicalErrors(base, '2024-06-01', 'create')).toEqual({});
    const e = historicalErrors(
      { ...base, user: null, course: null, completed_at: '' },
      '2024-06-01',
      'create',
    );
    expect(Object.keys(e).sort()).toEqual(['completed_at', 'course_id', 'user_id']);
    expect(historicalErrors({ ...base, user: null }, '2024-06-01', 'update')).toEqual({});
    expect(
      historicalErrors({ ...base, completed_at: '2024-06-02' }, '2024-06-01', 'create').completed_at,
    ).toEqual([ResultsMessages.completedInFuture]);
    expect(historicalErrors({ ...base, score: '101' }, '2024-06-01', 'create').score).toBeDefined();
    expect(historicalErrors({ ...base, score: '55.5' }, '2024-06-01', 'create').score).toBeUndefined();
  });

  it('checks the evidence by extension and size before sending', () => {
    expect(evidenceErrors(new File(['x'], 'scan.PDF'))).toBeNull();
    expect(evidenceErrors(new File(['x'], 'photo.jpeg'))).toBeNull();
    expect(evidenceErrors(new File(['x'], 'page.html'))).toEqual([ResultsMessages.evidenceType]);
    const big = new File([new Uint8Array(EVIDENCE_MAX_BYTES + 1)], 'big.pdf');
    expect(evidenceErrors(big)).toEqual([ResultsMessages.evidenceSize]);
  });

  it('sends multipart fields with the contract names, and the file as `evidence`', () => {
    const file = new File(['%PDF-'], 'cert.pdf', { type: 'application/pdf' });
    const form = historicalFormData({ ...base, score: '80', notes: 'Paper', evidence: file }, 'create');
    expect(form.get('user_id')).toBe('7');
    expect(form.get('course_id')).toBe('3');
    expect(form.get('completed_at')).toBe('2024-05-07');
    expect(form.get('passed')).toBe('true');
    expect(form.get('score')).toBe('80');
    expect((form.get('evidence') as File).name).toBe('cert.pdf');
    const update = historicalFormData({ ...base, remove_evidence: true }, 'update');
    expect(update.get('user_id')).toBeNull();
    expect(update.get('remove_evidence')).toBe('true');
  });
});

describe('exemption form', () => {
  const v = {
    user: { id: 1, label: 'A' },
    course: { id: 2, label: 'C' },
    start_date: '2024-01-01',
    end_date: '',
    notes: ' Agency nurse ',
  };
  const today = '2026-03-10';
  it('needs an end date after the start date, and sends null for no end', () => {
    expect(exemptErrors(v, 'create', today)).toEqual({});
    expect(exemptErrors({ ...v, end_date: '2024-01-01' }, 'create', today).end_date).toEqual([
      ResultsMessages.endBeforeStart,
    ]);
    expect(exemptBody(v, 'create')).toEqual({
      user_id: 1,
      course_id: 2,
      start_date: '2024-01-01',
      end_date: null,
      notes: 'Agency nurse',
    });
    expect(exemptBody({ ...v, end_date: '2025-01-01' }, 'update')).not.toHaveProperty('user_id');
  });

  it('needs a reason, and a new end date after today; an edit may keep a stored end date that has passed', () => {
    expect(exemptErrors({ ...v, notes: '  ' }, 'create', today).notes).toEqual([
      ResultsMessages.reasonRequired,
    ]);
    for (const end of [today, '2026-03-01'])
      expect(exemptErrors({ ...v, end_date: end }, 'create', today).end_date).toEqual([
        ResultsMessages.endNotFuture,
      ]);
    expect(exemptErrors({ ...v, end_date: '2026-03-11' }, 'create', today)).toEqual({});
    expect(exemptErrors({ ...v, end_date: '2026-03-01' }, 'update', today, '2026-03-01')).toEqual({});
  });
});

describe('bulk add events form', () => {
  it('needs users, a course and a date, and sends ids', () => {
    const v = {
      users: [
        { id: 4, label: 'A' },
        { id: 9, label: 'B' },
      ],
      course: { id: 2, label: 'C' },
      completed_at: '2024-01-01',
      type: 'face2face' as const,
      passed: true,
      score: '',
      notes: '',
    };
    expect(bulkErrors(v, '2024-02-01')).toEqual({});
    expect(Object.keys(bulkErrors({ ...v, users: [], course: null }, '2024-02-01')).sort()).toEqual([
      'course_id',
      'user_ids',
    ]);
    expect(bulkBody(v)).toEqual({
      user_ids: [4, 9],
      course_id: 2,
      completed_at: '2024-01-01',
      type: 'face2face',
      passed: true,
      score: null,
      notes: null,
    });
  });
});

describe('dates', () => {
  it('shows result days in UTC and fills date inputs', () => {
    expect(formatDay('2024-05-07T00:00:00.000Z')).toBe('07/05/2024');
    expect(formatDay(null)).toBe('—');
    expect(toDateInput('2024-05-07T00:00:00.000Z')).toBe('2024-05-07');
    expect(todayInput(new Date(2024, 0, 9, 23, 30))).toBe('2024-01-09');
  });
});
