import {
  ATTENDANCE,
  type Attendance,
  type AttendanceMark,
  attendanceNotYet,
  attendanceOpen,
  BookingsMessages,
  calendarDay,
  type DelegateView,
  type TrainingSessionView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../app/api';
import { Button, Card, cx, EmptyState, FormError, Select, TextField } from '../ui';
import { bookingAction, useDelegates } from './api';
import { ATTENDANCE_LABEL } from './labels';

interface Row {
  attendance: Attendance | '';
  passed: '' | 'yes' | 'no';
  score: string;
}

const rowOf = (d: DelegateView): Row => ({
  attendance: d.attendance ?? '',
  passed: d.passed === null ? '' : d.passed ? 'yes' : 'no',
  score: d.score === null ? '' : String(d.score),
});

/** The marks to send and the rows still missing something (grading_method rules of the contract). */
export function attendanceMarks(
  session: Pick<TrainingSessionView, 'grading_method'>,
  delegates: DelegateView[],
  rows: Record<number, Row>,
): { marks: AttendanceMark[]; missing: string[] } {
  const marks: AttendanceMark[] = [];
  const missing: string[] = [];
  for (const d of delegates) {
    const r = rows[d.id];
    if (!r?.attendance) continue;
    const mark: AttendanceMark = { delegate_id: d.id, attendance: r.attendance };
    const graded = r.attendance !== 'no_show';
    if (session.grading_method === 'pass_fail' && graded) {
      if (!r.passed) missing.push(`${d.user.name}: choose passed or not passed.`);
      else mark.passed = r.passed === 'yes';
    }
    if (session.grading_method === 'score' && graded) {
      const n = Number(r.score);
      if (r.score.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
        missing.push(`${d.user.name}: enter a score from 0 to 100.`);
      else mark.score = n;
    }
    marks.push(mark);
  }
  return { marks, missing };
}

/** The session's first day ('YYYY-MM-DD'): marks open at its start (the server refuses earlier ones, 422). */
const firstDayOf = (session: Pick<TrainingSessionView, 'date' | 'dates'>) =>
  session.dates?.[0]?.date ?? session.date;

/**
 * Mark attendance of the booked delegates (attended, partly, did not attend, with a pass/fail or score per the
 * session's grading) and save every mark in one request; each mark records a face-to-face result. Before the
 * session's first day nothing is offered: the card says from when it can be marked.
 */
export function AttendanceCard({ session }: { session: TrainingSessionView }) {
  const firstDay = firstDayOf(session);
  if (!attendanceOpen(firstDay, calendarDay(new Date())))
    return (
      <Card title="Attendance" data-testid="attendance">
        <EmptyState title="Not started yet" description={attendanceNotYet(firstDay)} />
      </Card>
    );
  return <AttendanceForm session={session} />;
}

function AttendanceForm({ session }: { session: TrainingSessionView }) {
  const queryClient = useQueryClient();
  const delegates = useDelegates(session.id, { status: 'accepted', per_page: 100 });
  const [rows, setRows] = useState<Record<number, Row>>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<number | null>(null);
  useEffect(() => {
    if (delegates.data)
      setRows((old) => {
        const next = { ...old };
        for (const d of delegates.data.data) if (!next[d.id]) next[d.id] = rowOf(d);
        return next;
      });
  }, [delegates.data]);
  const list = delegates.data?.data ?? [];
  const set = (id: number, patch: Partial<Row>) =>
    setRows((r) => ({ ...r, [id]: { ...(r[id] ?? { attendance: '', passed: '', score: '' }), ...patch } }));
  const save = async () => {
    const { marks, missing } = attendanceMarks(session, list, rows);
    if (!marks.length) return setProblem(['Mark at least one delegate.']);
    if (missing.length) return setProblem(missing);
    setProblem(null);
    setBusy(true);
    try {
      await bookingAction(
        queryClient,
        () => api.post(`/training-sessions/${session.id}/attendance`, { marks }),
        BookingsMessages.attendanceSaved,
      );
      setSaved(marks.length);
    } catch {
      // shown as a notification
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Attendance" data-testid="attendance">
      {delegates.isLoading ? (
        <p className="text-sm text-slate-600">Loading delegates…</p>
      ) : !list.length ? (
        <EmptyState
          title="Nobody to mark yet"
          description="Booked delegates appear here to mark their attendance."
        />
      ) : (
        <form
          noValidate
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          {problem ? <FormError error={{ message: 'Check the marks:', errors: { marks: problem } }} /> : null}
          {saved !== null ? (
            <p role="status" className="rounded-lg bg-success-100 px-4 py-3 text-sm text-success-800">
              {BookingsMessages.attendanceSaved} Results recorded for {saved}{' '}
              {saved === 1 ? 'delegate' : 'delegates'}: they now count in training records, the matrix and
              compliance.
            </p>
          ) : null}
          <ul className="divide-y divide-slate-100">
            {list.map((d) => {
              const r = rows[d.id] ?? rowOf(d);
              const graded = r.attendance !== '' && r.attendance !== 'no_show';
              return (
                <li
                  key={d.id}
                  className="grid grid-cols-1 gap-3 py-3 md:grid-cols-[1fr_auto_12rem] md:items-center"
                >
                  <div>
                    <p className="font-medium text-slate-900">{d.user.name}</p>
                    <p className="text-xs text-slate-600">
                      {d.entity.name}
                      {d.checked_in_at ? ' · checked in' : ''}
                    </p>
                  </div>
                  <fieldset>
                    <legend className="sr-only">Attendance of {d.user.name}</legend>
                    <div className="flex flex-wrap gap-1">
                      {ATTENDANCE.map((a) => (
                        <label
                          key={a}
                          className={cx(
                            'focus-within:ring-primary-300 inline-flex cursor-pointer items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm ring-1 focus-within:ring-2',
                            r.attendance === a
                              ? 'bg-primary-100 ring-primary-700 text-primary-900'
                              : 'ring-slate-300 text-slate-700',
                          )}
                        >
                          <input
                            type="radio"
                            className="accent-[var(--cc-primary-700)]"
                            name={`attendance-${d.id}`}
                            value={a}
                            checked={r.attendance === a}
                            onChange={() => set(d.id, { attendance: a })}
                          />
                          {ATTENDANCE_LABEL[a]}
                        </label>
                      ))}
                    </div>
                  </fieldset>
                  <div>
                    {session.grading_method === 'pass_fail' && graded ? (
                      <Select
                        label={`Result of ${d.user.name}`}
                        hideLabel
                        placeholder="Passed?"
                        options={[
                          { value: 'yes', label: 'Passed' },
                          { value: 'no', label: 'Not passed' },
                        ]}
                        value={r.passed}
                        onChange={(e) => set(d.id, { passed: e.target.value as Row['passed'] })}
                      />
                    ) : null}
                    {session.grading_method === 'score' && graded ? (
                      <TextField
                        label={`Score of ${d.user.name}`}
                        hideLabel
                        type="number"
                        min={0}
                        max={100}
                        inputMode="numeric"
                        placeholder={`Score (pass ${session.pass_mark ?? '—'})`}
                        value={r.score}
                        onChange={(e) => set(d.id, { score: e.target.value })}
                      />
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
          <div className="flex justify-end">
            <Button type="submit" loading={busy}>
              Save attendance
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
