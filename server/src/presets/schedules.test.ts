import { Readable } from 'node:stream';
import { PresetMessages, recurrenceCron, reportFileName } from '@cc/contracts';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { findJob } from '../jobs/queries';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import {
  type ReportRenderer,
  registerReportRenderer,
  reportRenderer,
  unregisterReportRenderer,
} from './renderers';
import { ENQUEUE_DUE_SCHEDULES, enqueueDueSchedules } from './schedules-jobs';
import { nextRunAfter } from './schedules-service';

let h: Harness;
let org: Awaited<ReturnType<typeof buildEntity>>;
let site: Awaited<ReturnType<typeof buildEntity>>;
let manager: Awaited<ReturnType<typeof buildUser>>;
let as: Awaited<ReturnType<typeof clientFor>>;
let presetId: number;
const realClock = () => new Date();
const setClock = (iso: string) => {
  (h.deps as { clock: () => Date }).clock = () => new Date(iso);
};

/** The real renderer, put back when the file ends: the PostgreSQL lane runs later files in this same process. */
let realMatrixRenderer: ReportRenderer | undefined;
beforeAll(async () => {
  registerAllJobs();
  realMatrixRenderer = reportRenderer('matrix');
  // The clock travels years ahead of the tokens issued here; they must outlive it (TOKEN_LIFETIME_DAYS).
  h = await createHarness({ tokenLifetimeDays: 36_500 });
  org = await buildEntity(h.db, { level: 'A' });
  site = await buildEntity(h.db, { level: 'B', parentId: org.id });
  manager = await buildUser(h.db, {
    entityId: org.id,
    permissions: [12, 14, 15, 19, 117],
    name: 'Jane Smith',
  });
  as = await clientFor(h.app, h.db, manager.id);
  const preset = await as('POST', '/api/reports/presets', {
    name: 'Site matrix',
    report_type: 'matrix',
    acting_as_id: site.id,
  });
  presetId = preset.json().data.id;
});
afterAll(async () => {
  if (realMatrixRenderer) registerReportRenderer('matrix', realMatrixRenderer);
  await h?.close();
});
beforeEach(() => {
  (h.deps as { clock: () => Date }).clock = realClock;
  unregisterReportRenderer('matrix');
});

const body = (over: Record<string, unknown> = {}) => ({
  preset_id: presetId,
  frequency: 'daily',
  time: '07:30',
  recipients: ['area.manager@example.test', 'owner@example.test'],
  format: 'XLSX',
  ...over,
});

describe('recurrence', () => {
  it('turns daily, weekly and monthly choices into cron expressions', () => {
    expect(recurrenceCron({ frequency: 'daily', time: '07:30' })).toBe('30 7 * * *');
    expect(recurrenceCron({ frequency: 'weekly', time: '18:05', weekday: 1 })).toBe('5 18 * * 1');
    expect(recurrenceCron({ frequency: 'monthly', time: '00:00', day_of_month: 28 })).toBe('0 0 28 * *');
  });

  it('computes the next run in the schedule’s time zone, across summer time', () => {
    const winter = nextRunAfter('30 7 * * *', 'Europe/London', new Date('2026-11-21T08:00:00Z'));
    expect(winter.toISOString()).toBe('2026-11-22T07:30:00.000Z');
    const summer = nextRunAfter('30 7 * * *', 'Europe/London', new Date('2026-06-21T05:00:00Z'));
    expect(summer.toISOString()).toBe('2026-06-21T06:30:00.000Z');
    const monday = nextRunAfter('0 9 * * 1', 'Europe/London', new Date('2026-11-21T12:00:00Z'));
    expect(monday.toISOString()).toBe('2026-11-23T09:00:00.000Z');
    const monthly = nextRunAfter('0 6 1 * *', 'Europe/London', new Date('2026-11-21T12:00:00Z'));
    expect(monthly.toISOString()).toBe('2026-12-01T06:00:00.000Z');
  });

  it('names report files by type, user name and DD-MM-YYYY (spec 2 §9)', () => {
    expect(reportFileName('matrix', 'Jane Smith', new Date('2026-11-21T12:00:00Z'), 'xlsx')).toBe(
      'matrix-Jane-Smith-21-11-2026.xlsx',
    );
    // Just after midnight in London on a summer night is still the previous day in UTC.
    expect(reportFileName('certificate', "Siân O'Neil", new Date('2026-06-30T23:30:00Z'), '.PDF')).toBe(
      'certificate-Sian-O-Neil-01-07-2026.pdf',
    );
    expect(reportFileName('matrix', 'A  B', '2026-02-03', 'pdf')).toBe('matrix-A-B-03-02-2026.pdf');
  });
});

describe('CRUD /api/reports/schedules', () => {
  it('answers 401, 422, 403 and 404 in that spirit', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/reports/schedules' })).statusCode).toBe(401);

    const bad = await as('POST', '/api/reports/schedules', {
      ...body(),
      frequency: 'hourly',
      time: '25:00',
      recipients: ['not-an-address'],
      format: 'CSV',
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['format', 'frequency', 'recipients.0', 'time']);

    const weekly = await as('POST', '/api/reports/schedules', body({ frequency: 'weekly' }));
    expect(weekly.statusCode).toBe(422);
    expect(weekly.json().errors).toEqual({ weekday: ['Choose the day of the week.'] });
    const monthly = await as(
      'POST',
      '/api/reports/schedules',
      body({ frequency: 'monthly', day_of_month: 31 }),
    );
    expect(monthly.statusCode).toBe(422);
    expect(monthly.json().errors.day_of_month).toEqual(['The day must be 1 to 28.']);
    const zone = await as('POST', '/api/reports/schedules', body({ timezone: 'Mars/Olympus' }));
    expect(zone.json().errors.timezone).toEqual(['The time zone is not known.']);

    // 403: the owner of the preset without permission 117.
    const noSchedules = await buildUser(h.db, { entityId: org.id, permissions: [12] });
    const client = await clientFor(h.app, h.db, noSchedules.id);
    const own = (await client('POST', '/api/reports/presets', { name: 'Mine', report_type: 'matrix' })).json()
      .data;
    expect((await client('POST', '/api/reports/schedules', body({ preset_id: own.id }))).statusCode).toBe(
      403,
    );
    expect((await client('GET', '/api/reports/schedules')).statusCode).toBe(403);

    // 404: someone else's preset, in this organisation or another.
    const colleague = await buildUser(h.db, { entityId: org.id, permissions: [12, 117] });
    const theirs = await (await clientFor(h.app, h.db, colleague.id))(
      'POST',
      '/api/reports/schedules',
      body(),
    );
    expect(theirs.statusCode).toBe(404);
  });

  it('creates, lists, pauses, resumes, changes and deletes a schedule', async () => {
    setClock('2026-11-20T10:00:00Z');
    const created = await as('POST', '/api/reports/schedules', body());
    expect(created.statusCode, created.body).toBe(201);
    const s = created.json().data;
    expect(s).toMatchObject({
      preset: { id: presetId, name: 'Site matrix', report_type: 'matrix' },
      entity: { id: site.id },
      frequency: 'daily',
      time: '07:30',
      timezone: 'Europe/London',
      cron: '30 7 * * *',
      format: 'XLSX',
      active: true,
      next_run_at: '2026-11-21T07:30:00.000Z',
      last_run_at: null,
      recipients: ['area.manager@example.test', 'owner@example.test'],
    });

    const list = (await as('GET', '/api/reports/schedules')).json();
    expect(list.data.map((x: { id: number }) => x.id)).toContain(s.id);

    const paused = (await as('PATCH', `/api/reports/schedules/${s.id}`, { active: false })).json().data;
    expect(paused).toMatchObject({ active: false, next_run_at: null });

    setClock('2026-11-23T12:00:00Z');
    const resumed = (await as('PATCH', `/api/reports/schedules/${s.id}`, { active: true })).json().data;
    expect(resumed.next_run_at).toBe('2026-11-24T07:30:00.000Z');

    const weekly = await as('PATCH', `/api/reports/schedules/${s.id}`, {
      frequency: 'weekly',
      weekday: 5,
      time: '16:00',
    });
    expect(weekly.json().data).toMatchObject({ cron: '0 16 * * 5', next_run_at: '2026-11-27T16:00:00.000Z' });
    const incomplete = await as('PATCH', `/api/reports/schedules/${s.id}`, { frequency: 'monthly' });
    expect(incomplete.statusCode).toBe(422);

    const outsider = await buildUser(h.db, { permissions: [12, 117] });
    const theirs = await clientFor(h.app, h.db, outsider.id);
    for (const [method, url] of [
      ['GET', `/api/reports/schedules/${s.id}`],
      ['PATCH', `/api/reports/schedules/${s.id}`],
      ['DELETE', `/api/reports/schedules/${s.id}`],
      ['POST', `/api/reports/schedules/${s.id}/run`],
    ] as const)
      expect((await theirs(method, url, method === 'PATCH' ? { active: false } : undefined)).statusCode).toBe(
        404,
      );

    expect((await as('DELETE', `/api/reports/schedules/${s.id}`)).json()).toEqual({
      message: PresetMessages.scheduleDeleted,
    });
    expect((await as('GET', `/api/reports/schedules/${s.id}`)).statusCode).toBe(404);
  });
});

describe('scheduled runs', () => {
  const log = pino({ level: 'silent' });
  const jobCtx = (now: Date) => ({
    ...h.deps,
    log,
    now,
    job: { id: 0 } as never,
    finish: async () => undefined,
  });

  it('enqueues one run per due time, even when two schedulers race', async () => {
    setClock('2027-01-01T00:00:00Z');
    const s = (await as('POST', '/api/reports/schedules', body({ time: '06:00' }))).json().data;
    expect(s.next_run_at).toBe('2027-01-01T06:00:00.000Z');
    const now = new Date('2027-01-01T06:00:20Z');
    const counts = await Promise.all([enqueueDueSchedules(jobCtx(now)), enqueueDueSchedules(jobCtx(now))]);
    const jobs = await h.db
      .selectFrom('jobs')
      .selectAll()
      .where('unique_key', 'like', `schedule:${s.id}@%`)
      .execute();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.unique_key).toBe(`schedule:${s.id}@2027-01-01T06:00:00.000Z`);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    const after = (await as('GET', `/api/reports/schedules/${s.id}`)).json().data;
    expect(after).toMatchObject({ next_run_at: '2027-01-02T06:00:00.000Z', last_status: 'queued' });
    await as('DELETE', `/api/reports/schedules/${s.id}`);
  });

  it('fails with a recorded error while no renderer is registered — no fake report', async () => {
    setClock('2028-03-01T00:00:00Z');
    const s = (await as('POST', '/api/reports/schedules', body({ time: '05:00' }))).json().data;
    const outboxBefore = await h.db.selectFrom('mail_outbox').select('id').execute();
    await runDueJobs(h.deps, new Date('2028-03-01T04:59:00Z'));
    expect((await as('GET', `/api/reports/schedules/${s.id}`)).json().data.last_status).toBeNull();

    await Promise.all([
      runDueJobs(h.deps, new Date('2028-03-01T05:00:30Z'), { workerId: 'one' }),
      runDueJobs(h.deps, new Date('2028-03-01T05:00:30Z'), { workerId: 'two' }),
    ]);
    const after = (await as('GET', `/api/reports/schedules/${s.id}`)).json().data;
    expect(after).toMatchObject({
      last_status: 'failed',
      last_error: PresetMessages.noRenderer('matrix'),
      last_run_at: '2028-03-01T05:00:30.000Z',
      next_run_at: '2028-03-02T05:00:00.000Z',
    });
    const sends = await h.db
      .selectFrom('jobs')
      .select(['id', 'status'])
      .where('unique_key', 'like', `schedule:${s.id}@%`)
      .execute();
    expect(sends).toEqual([{ id: expect.anything(), status: 'failed' }]);
    expect(await h.db.selectFrom('mail_outbox').select('id').execute()).toEqual(outboxBefore);
    await as('DELETE', `/api/reports/schedules/${s.id}`);
  });

  it('renders as the owner acting as the preset’s entity and e-mails the file to each recipient', async () => {
    const calls: { userId: number; actingAs: number | undefined; format: string; presetName: string }[] = [];
    registerReportRenderer('matrix', async (ctx, preset, format) => {
      calls.push({
        userId: ctx.actor?.userId ?? 0,
        actingAs: ctx.actor?.actingAs?.id,
        format,
        presetName: preset.name,
      });
      return {
        filename: reportFileName(preset.report_type, ctx.actor?.name ?? '', ctx.clock(), format),
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        body: Readable.from([Buffer.from('PK-'), Buffer.from('test-bytes')]),
      };
    });
    setClock('2029-05-01T00:00:00Z');
    const s = (await as('POST', '/api/reports/schedules', body({ time: '23:30' }))).json().data;

    const run = await as('POST', `/api/reports/schedules/${s.id}/run`);
    expect(run.statusCode).toBe(202);
    expect(run.json()).toMatchObject({
      message: PresetMessages.scheduleQueued,
      data: { last_status: 'queued' },
    });
    // Run-now does not move the regular next run.
    expect(run.json().data.next_run_at).toBe(s.next_run_at);

    await runDueJobs(h.deps, new Date('2029-05-01T00:00:05Z'));
    expect(calls).toEqual([
      { userId: manager.id, actingAs: site.id, format: 'XLSX', presetName: 'Site matrix' },
    ]);
    const after = (await as('GET', `/api/reports/schedules/${s.id}`)).json().data;
    expect(after).toMatchObject({ last_status: 'sent', last_error: null });

    const mails = await h.db
      .selectFrom('mail_outbox')
      .select(['id', 'to_address', 'subject', 'template'])
      .where('template', '=', 'scheduled_report')
      .orderBy('id')
      .execute();
    expect(mails.map((m) => m.to_address)).toEqual(['area.manager@example.test', 'owner@example.test']);
    expect(mails[0]?.subject).toBe('Site matrix: scheduled matrix report');

    // The admin sees the attachment in the outbox and can download it.
    const admin = await buildUser(h.db, { superAdmin: true });
    const outbox = await h.app.inject({
      method: 'GET',
      url: '/api/mail/outbox?to=owner@example.test',
      headers: await bearer(h.db, admin.id),
    });
    const [message] = outbox.json().data;
    expect(message.attachments).toEqual([
      {
        id: expect.any(Number),
        filename: 'matrix-Jane-Smith-01-05-2029.xlsx',
        content_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        size_bytes: 13,
        url: expect.stringMatching(/^\/api\/mail\/outbox\/\d+\/attachments\/\d+$/),
      },
    ]);
    const file = await h.app.inject({
      method: 'GET',
      url: message.attachments[0].url,
      headers: await bearer(h.db, admin.id),
    });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('PK-test-bytes');
    expect(file.headers['content-disposition']).toBe(
      'attachment; filename="matrix-Jane-Smith-01-05-2029.xlsx"',
    );
    const notAdmin = await h.app.inject({
      method: 'GET',
      url: message.attachments[0].url,
      headers: await bearer(h.db, manager.id),
    });
    expect(notAdmin.statusCode).toBe(403);
    await as('DELETE', `/api/reports/schedules/${s.id}`);
  });

  it('records the error when the owner has lost permission 117, without retrying', async () => {
    registerReportRenderer('matrix', async () => {
      throw new Error('must not be called');
    });
    const owner = await buildUser(h.db, { entityId: org.id, permissions: [12, 117] });
    const client = await clientFor(h.app, h.db, owner.id);
    const preset = (
      await client('POST', '/api/reports/presets', { name: 'Mine', report_type: 'matrix' })
    ).json().data;
    const s = (await client('POST', '/api/reports/schedules', body({ preset_id: preset.id }))).json().data;
    await h.db
      .deleteFrom('type_permissions')
      .where('type_id', '=', owner.type.id)
      .where('permission_id', '=', 117)
      .execute();
    const job = (await client('POST', `/api/reports/schedules/${s.id}/run`)).statusCode;
    expect(job).toBe(403);
    // The regular run still happens; it fails with the reason recorded.
    await h.db
      .updateTable('report_schedules')
      .set({ next_run_at: new Date('2030-01-01T07:30:00Z') })
      .where('id', '=', s.id)
      .execute();
    await runDueJobs(h.deps, new Date('2030-01-01T07:30:00Z'));
    const row = await h.db
      .selectFrom('report_schedules')
      .selectAll()
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.last_status).toBe('failed');
    expect(row.last_error).toBe('The owner of this schedule no longer holds the schedules permission.');
    const sends = await h.db
      .selectFrom('jobs')
      .select('id')
      .where('unique_key', 'like', `schedule:${s.id}@%`)
      .execute();
    expect((await findJob(h.db, Number(sends[0]?.id)))?.attempts).toBe(1);
  });

  it('registers the scheduler as a recurring job that runs once per minute slot', async () => {
    await runDueJobs(h.deps, new Date('2031-01-01T00:00:10Z'));
    await runDueJobs(h.deps, new Date('2031-01-01T00:00:50Z'));
    const rows = await h.db
      .selectFrom('jobs')
      .select(['unique_key', 'status'])
      .where('name', '=', ENQUEUE_DUE_SCHEDULES)
      .where('unique_key', 'like', '%2031-01-01T00:00%')
      .execute();
    expect(rows).toEqual([
      { unique_key: `${ENQUEUE_DUE_SCHEDULES}@2031-01-01T00:00:00.000Z`, status: 'done' },
    ]);
  });
});
