import {
  type CreateScheduleBody,
  DEFAULT_SCHEDULE_TIMEZONE,
  PRESET_PERMISSIONS,
  type RecurrenceFields,
  type ReportSchedule,
  recurrenceCron,
  recurrenceErrors,
  type ScheduleListQuery,
  type UpdateScheduleBody,
} from '@cc/contracts';
import { CronExpressionParser } from 'cron-parser';
import type { z } from 'zod';
import { actorOf, authorize, type Ctx } from '../http/context';
import { invalid, notFound } from '../http/errors';
import { enqueue } from '../jobs/queue';
import { presentSchedule } from './presenters';
import {
  deleteSchedule as deleteScheduleRow,
  findOwnPreset,
  findOwnSchedule,
  insertSchedule,
  listSchedules as listScheduleRows,
  lockSchedule,
  updateSchedule as updateScheduleRow,
} from './queries';

/**
 * Report schedules (permission 117): the caller's preset e-mailed as PDF or XLSX to a list of addresses, daily at
 * HH:MM, weekly on a weekday or monthly on a day (1-28), in a time zone (default Europe/London). The recurrence is
 * stored as a cron expression too, and next_run_at is computed with cron-parser. Like presets, schedules are
 * personal: the report runs as their owner, within the preset's entity.
 */

export const SEND_SCHEDULED_REPORT = 'send-scheduled-report';

/** The first run strictly after `after`. */
export function nextRunAfter(cron: string, timezone: string, after: Date): Date {
  return CronExpressionParser.parse(cron, { currentDate: after, tz: timezone }).next().toDate();
}

async function ownSchedule(ctx: Ctx, id: number) {
  const actor = actorOf(ctx);
  const row = await findOwnSchedule(ctx.db, id, actor.userId);
  if (!row) throw notFound();
  authorize(ctx, [PRESET_PERMISSIONS.schedules]);
  return row;
}

/** The caller's own preset named by preset_id (another user's answers as a missing one). */
async function ownPreset(ctx: Ctx, presetId: number) {
  const preset = await findOwnPreset(ctx.db, presetId, actorOf(ctx).userId);
  if (!preset) throw notFound();
  return preset;
}

function recurrenceColumns(s: RecurrenceFields & { time: string; timezone: string }) {
  const errors = recurrenceErrors(s);
  if (Object.keys(errors).length) throw invalid(errors);
  return {
    frequency: s.frequency,
    time_of_day: s.time,
    weekday: s.frequency === 'weekly' ? (s.weekday ?? null) : null,
    day_of_month: s.frequency === 'monthly' ? (s.day_of_month ?? null) : null,
    timezone: s.timezone,
    cron: recurrenceCron(s),
  };
}

export async function listSchedules(ctx: Ctx, query: z.infer<typeof ScheduleListQuery>) {
  const actor = authorize(ctx, [PRESET_PERMISSIONS.schedules]);
  const { rows, total } = await listScheduleRows(ctx.db, {
    userId: actor.userId,
    search: query.search,
    page: query.page,
    perPage: query.per_page,
  });
  return { data: rows.map(presentSchedule), total };
}

export async function getSchedule(ctx: Ctx, id: number): Promise<ReportSchedule> {
  return presentSchedule(await ownSchedule(ctx, id));
}

export async function createSchedule(ctx: Ctx, body: CreateScheduleBody): Promise<ReportSchedule> {
  const actor = actorOf(ctx);
  const preset = await ownPreset(ctx, body.preset_id);
  authorize(ctx, [PRESET_PERMISSIONS.schedules]);
  const recurrence = recurrenceColumns({ ...body, timezone: body.timezone ?? DEFAULT_SCHEDULE_TIMEZONE });
  const active = body.active ?? true;
  const id = await insertSchedule(ctx.db, {
    user_id: actor.userId,
    entity_id: preset.entity_id,
    preset_id: preset.id,
    ...recurrence,
    recipients: JSON.stringify([...new Set(body.recipients)]),
    format: body.format,
    active,
    next_run_at: active ? nextRunAfter(recurrence.cron, recurrence.timezone, ctx.clock()) : null,
  });
  return getSchedule(ctx, id);
}

export async function updateSchedule(
  ctx: Ctx,
  id: number,
  body: UpdateScheduleBody,
): Promise<ReportSchedule> {
  const row = await ownSchedule(ctx, id);
  const preset =
    body.preset_id !== undefined && body.preset_id !== row.preset_id
      ? await ownPreset(ctx, body.preset_id)
      : null;
  await ctx.db.transaction().execute(async (trx) => {
    // The fields not sent keep their values as locked now, not as read before the transaction: a parallel PATCH of
    // another field (say the format) must not write back the old time with its recurrence (issue 10 §3).
    const current = await lockSchedule(trx, id);
    if (!current) throw notFound();
    const values: Record<string, unknown> = {};
    if (preset && preset.id !== current.preset_id) {
      values.preset_id = preset.id;
      values.entity_id = preset.entity_id;
    }
    const recurrence = recurrenceColumns({
      frequency: body.frequency ?? current.frequency,
      time: body.time ?? current.time_of_day,
      weekday: body.weekday === undefined ? current.weekday : body.weekday,
      day_of_month: body.day_of_month === undefined ? current.day_of_month : body.day_of_month,
      timezone: body.timezone ?? current.timezone,
    });
    Object.assign(values, recurrence);
    if (body.recipients !== undefined) values.recipients = JSON.stringify([...new Set(body.recipients)]);
    if (body.format !== undefined) values.format = body.format;
    const active = body.active ?? current.active;
    values.active = active;
    const changedWhen = recurrence.cron !== current.cron || recurrence.timezone !== current.timezone;
    // Pausing clears the next run; resuming or changing the recurrence computes it again from now.
    if (!active) values.next_run_at = null;
    else if (!current.active || changedWhen || !current.next_run_at)
      values.next_run_at = nextRunAfter(recurrence.cron, recurrence.timezone, ctx.clock());
    await updateScheduleRow(trx, id, values, ctx.clock());
  });
  return getSchedule(ctx, id);
}

export async function deleteSchedule(ctx: Ctx, id: number): Promise<void> {
  await ownSchedule(ctx, id);
  await deleteScheduleRow(ctx.db, id);
}

/** "Run now": queues one run at once; the regular next run is unchanged. */
export async function runScheduleNow(ctx: Ctx, id: number): Promise<ReportSchedule> {
  await ownSchedule(ctx, id);
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    await enqueue(
      trx,
      SEND_SCHEDULED_REPORT,
      { schedule_id: id, due_at: now.toISOString(), manual: true },
      { runAt: now, uniqueKey: `schedule:${id}:manual@${now.toISOString()}` },
    );
    await updateScheduleRow(trx, id, { last_status: 'queued', last_error: null }, now);
  });
  return getSchedule(ctx, id);
}
