/**
 * Quiet hours (issue 14: night shifts): an organisation's window, 'HH:MM' to 'HH:MM' in UK local time
 * (Europe/London), possibly across midnight. E-mails due inside it are held until it ends; in-app notifications
 * are not (they wait in the app anyway). Both ends are needed: with either missing, or both equal, there is none.
 */
const UK = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Minutes since midnight, UK time, at `at`. */
function ukMinutes(at: Date): number {
  const parts = UK.formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/**
 * When the quiet hours around `now` end, or null when `now` is outside them. The end is found in UK time: on the
 * nights the clocks change, the first guess (now + the minutes left on the wall clock) is off by the shift, and is
 * corrected once.
 */
export function quietHoursEnd(now: Date, start: string | null, end: string | null): Date | null {
  if (!start || !end || start === end) return null;
  const s = minutesOf(start);
  const e = minutesOf(end);
  const t = ukMinutes(now);
  const inside = s < e ? t >= s && t < e : t >= s || t < e;
  if (!inside) return null;
  const left = (e - t + 1440) % 1440;
  const base = new Date(now);
  base.setUTCSeconds(0, 0);
  let guess = new Date(base.getTime() + left * 60_000);
  const drift = ((ukMinutes(guess) - e + 1440 + 720) % 1440) - 720;
  if (drift !== 0) guess = new Date(guess.getTime() - drift * 60_000);
  return guess;
}
