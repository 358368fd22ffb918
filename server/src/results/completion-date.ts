import { calendarDay, ResultsMessages } from '@cc/contracts';
import { invalidField } from '../http/errors';

/**
 * The one "nothing is dated in the future" rule of results (ARCHITECTURE "Compliance rules"; issue 28 §2): a
 * completion's UK calendar day may be today or earlier, never after. "Today" is calendarDay of the server's clock
 * (ctx.clock(), which tests drive), so a date of today is always accepted, whatever the hour. Every path that
 * records a result asks it: historical records (create and edit), bulk events, the importer's rows, and
 * recordResult itself (service.ts), which every other writer goes through.
 */
export function completedInFuture(completed: string | Date, now: Date): boolean {
  const day = typeof completed === 'string' ? completed.slice(0, 10) : calendarDay(completed);
  return day > calendarDay(now);
}

/** The field errors of a completed date ('YYYY-MM-DD') sent by a user: null when absent or not in the future. */
export function completedDateErrors(date: string | undefined, now: Date): string[] | null {
  if (!date) return null;
  return completedInFuture(date, now) ? [ResultsMessages.completedInFuture] : null;
}

/** Refuses (422 on completed_at) a result about to be written with a completion after today. */
export function assertNotCompletedInFuture(completedAt: Date, now: Date): void {
  if (completedInFuture(completedAt, now))
    throw invalidField('completed_at', ResultsMessages.completedInFuture);
}
