import {
  BEHIND_KINDS,
  type BehindFilter,
  type BehindItem,
  type BehindKind,
  type BehindPeopleQuery,
  type BehindPerson,
  type BehindQuery,
  type BehindRemindBody,
  type BehindSummary,
  CARE_CERTIFICATE_VIEW_PERMS,
  DashboardsPerm,
  PathwayPerm,
} from '@cc/contracts';
import { sql } from 'kysely';
import { londonDate } from '../bookings/session-service';
import { CERTIFICATE_LINK } from '../care-certificate/notify';
import { chosenCertificateSql } from '../care-certificate/report-queries';
import { outOfDateSql } from '../compliance/queries';
import type { Db } from '../db/connect';
import { type Actor, authorize, type Ctx, can } from '../http/context';
import { bothChannels, recordAndQueue } from '../notifications/jobs';
import { behindReminderText, documentReminderText } from '../notifications/messages';
import type { NewNotification } from '../notifications/queries';
import { allocationSelect, progressFor } from '../pathways/allocation-view';
import { stepTitle } from '../pathways/progress';
import { resolveEntity } from './service';

/**
 * Who is behind (issue 33 §7): a manager's own checks of one home (and the homes under it), on the Care Certificate,
 * pathways and the documents people must read, in one list of people. Each kind is read with the definition its own
 * screens use (contracts dashboards.ts BEHIND_KINDS): the Care Certificate report's chosen certificate and its
 * `overdue`, pathways' step status `overdue` (progress.ts), and the one course status's out of date (outOfDateSql)
 * over the courses behind documents. Scope first (404 outside it), then 105; each kind also needs its own view
 * permission. A home's list is a few set-based statements whatever its size; the people are merged and paged here.
 */

interface Found extends BehindItem {
  user_id: number;
  /** What a reminder names: the certificate, the allocation, or the document and its current version. */
  remind:
    | { kind: 'care_certificate' | 'pathway'; id: number }
    | { kind: 'document'; id: number; version: number; course_id: number };
}

type Allowed = Record<BehindKind, boolean>;

const allowedKinds = (actor: Actor): Allowed => ({
  care_certificate: can(actor, CARE_CERTIFICATE_VIEW_PERMS, 'any'),
  pathway: can(actor, PathwayPerm.view, 'any'),
  document: true,
});

const day = (d: Date | string | null) =>
  d === null ? null : typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10);

/** In-progress certificates past their expected date (the Care Certificate's `overdue`, teamFigures). */
async function careCertificates(db: Db, entityIds: number[], today: string): Promise<Found[]> {
  const { rows } = await sql<{
    user_id: number;
    id: number;
    uuid: string;
    expected_by: string | Date;
    title: string;
    approved: number;
    total: number;
  }>`
    SELECT u.id AS user_id, c.id, cc.uuid, c.expected_by, v.title,
           (SELECT count(*) FROM care_certificate_standard_states st
             WHERE st.certificate_id = c.id AND st.state = 'approved')::int AS approved,
           (SELECT count(*) FROM care_certificate_standard_states st WHERE st.certificate_id = c.id)::int AS total
      FROM users u
      JOIN LATERAL (${chosenCertificateSql(sql.ref('u.id'))}) c ON true
      JOIN care_certificates cc ON cc.id = c.id
      JOIN care_certificate_versions v ON v.id = c.version_id
     WHERE u.primary_entity_id = ANY(${sql.val(entityIds)}::int[])
       AND c.status = 'in_progress' AND c.expected_by < ${today}::date`.execute(db);
  return rows.map((r) => ({
    user_id: r.user_id,
    kind: 'care_certificate',
    title: r.title,
    due: day(r.expected_by),
    detail: `${r.approved} of ${r.total} standards approved`,
    href: CERTIFICATE_LINK(r.uuid),
    remind: { kind: 'care_certificate', id: r.id },
  }));
}

/** In-progress pathway allocations with an overdue step (pathways' step status). */
async function pathways(db: Db, entityIds: number[], now: Date): Promise<Found[]> {
  const rows = await allocationSelect(db)
    .where('a.status', '=', 'in_progress')
    .where('u.primary_entity_id', 'in', entityIds)
    .execute();
  if (rows.length === 0) return [];
  const progress = await progressFor(db, rows, now);
  return rows.flatMap((r): Found[] => {
    const steps = progress.get(r.id) ?? [];
    const overdue = steps.filter((s) => s.status === 'overdue');
    if (overdue.length === 0) return [];
    const first = [...overdue].sort((a, b) => (a.due_on ?? '').localeCompare(b.due_on ?? ''))[0];
    const done = steps.filter((s) => s.status === 'done').length;
    const what =
      overdue.length === 1 && first
        ? `Step ‘${stepTitle(first.step)}’ overdue`
        : `${overdue.length} steps overdue`;
    return [
      {
        user_id: r.user_id,
        kind: 'pathway',
        title: r.pathway_title,
        due: first?.due_on ?? null,
        detail: `${what} (${done} of ${steps.length} done)`,
        href: `/pathways/${r.pathway_id}`,
        remind: { kind: 'pathway', id: r.id },
      },
    ];
  });
}

/**
 * Documents a person's job role must read, not read and past their due date: the manager dashboard's out of date
 * (outOfDateSql, the one course status) over the courses behind documents.
 */
async function documents(db: Db, entityIds: number[], now: Date): Promise<Found[]> {
  const rows = await db
    .selectFrom('user_requirements as ur')
    .innerJoin('users as u', 'u.id', 'ur.user_id')
    .innerJoin('entities as e', 'e.id', 'ur.entity_id')
    .innerJoin('documents as d', 'd.course_id', 'ur.course_id')
    .innerJoin('libraries as l', 'l.id', 'd.library_id')
    .innerJoin('document_versions as cv', 'cv.id', 'd.current_version_id')
    .select([
      'ur.user_id',
      'd.id',
      'd.title',
      'd.course_id',
      'cv.number as version',
      'ur.passed',
      'ur.expires_at',
      // The day it became due: the later of a new starter's period and the requirement's own due date (the day
      // it was required, for one due at once).
      sql<Date | null>`greatest(
        coalesce(u.start_date::timestamptz, u.created_at) + make_interval(days => e.starter_period),
        (SELECT coalesce(cr.due_at, cr.created_at) FROM effective_compliance_rules x
           JOIN compliance_rules cr ON cr.id = x.rule_id
          WHERE x.entity_id = ur.entity_id AND x.role_id = ur.role_id AND x.course_id = ur.course_id))`.as(
        'due_at',
      ),
    ])
    .where('ur.entity_id', 'in', entityIds)
    .where('d.deleted_at', 'is', null)
    .where('l.deleted_at', 'is', null)
    .where(outOfDateSql(now, 'ur', 'u', 'e'))
    .execute();
  return rows.map((r) => ({
    user_id: r.user_id,
    kind: 'document',
    title: r.title,
    due: r.passed ? day(r.expires_at) : day(r.due_at),
    detail: r.passed ? `Version ${r.version} not read` : 'Never read',
    href: `/document/${r.id}`,
    remind: { kind: 'document', id: r.id, version: r.version, course_id: r.course_id },
  }));
}

interface Gathered {
  entity: BehindSummary['entity'];
  allowed: Allowed;
  found: Found[];
  now: Date;
}

async function gather(ctx: Ctx, ref: string | undefined, filter: BehindFilter = 'all'): Promise<Gathered> {
  const { entity, tree } = await resolveEntity(ctx, ref, 'primary');
  const actor = authorize(ctx, [DashboardsPerm.managerDashboard]);
  const allowed = allowedKinds(actor);
  const entityIds = tree.map((e) => e.id);
  const now = ctx.clock();
  const wants = (k: BehindKind) => allowed[k] && (filter === 'all' || filter === k);
  // One after another: the embedded engine (and a transaction) has one connection.
  const found: Found[] = [];
  if (wants('care_certificate')) found.push(...(await careCertificates(ctx.db, entityIds, londonDate(now))));
  if (wants('pathway')) found.push(...(await pathways(ctx.db, entityIds, now)));
  if (wants('document')) found.push(...(await documents(ctx.db, entityIds, now)));
  return { entity, allowed, found, now };
}

/** The people of the found items: longest overdue first (their earliest due date), then by name. */
async function peopleOf(db: Db, found: Found[]): Promise<BehindPerson[]> {
  const byUser = new Map<number, Found[]>();
  for (const f of found) byUser.set(f.user_id, [...(byUser.get(f.user_id) ?? []), f]);
  if (byUser.size === 0) return [];
  const users = await db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .leftJoin('entity_roles as r', 'r.id', 'u.role_id')
    .select(['u.id', 'u.uuid', 'u.name', 'r.name as role', 'e.id as entity_id', 'e.name as entity_name'])
    .where('u.id', 'in', [...byUser.keys()])
    .execute();
  const earliest = (items: BehindItem[]) => items.map((i) => i.due ?? '9999').sort()[0] ?? '9999';
  return users
    .map((u) => {
      const items = (byUser.get(u.id) ?? [])
        .map(({ user_id: _u, remind: _r, ...item }) => item)
        .sort((a, b) => (a.due ?? '9999').localeCompare(b.due ?? '9999') || a.title.localeCompare(b.title));
      return {
        id: u.id,
        uuid: u.uuid,
        name: u.name,
        role: u.role,
        entity: { id: u.entity_id, name: u.entity_name },
        items,
      };
    })
    .sort(
      (a, b) =>
        earliest(a.items).localeCompare(earliest(b.items)) || a.name.localeCompare(b.name) || a.id - b.id,
    );
}

/** GET /dashboards/manager/behind (105): how many people are behind, per kind the caller may see. */
export async function behindSummary(ctx: Ctx, q: BehindQuery): Promise<BehindSummary> {
  const { entity, allowed, found, now } = await gather(ctx, q.entity);
  const people = (k: BehindKind) => new Set(found.filter((f) => f.kind === k).map((f) => f.user_id)).size;
  const counts = Object.fromEntries(BEHIND_KINDS.map((k) => [k, allowed[k] ? people(k) : null])) as Record<
    BehindKind,
    number | null
  >;
  return {
    entity,
    people: new Set(found.map((f) => f.user_id)).size,
    counts,
    generated_at: now.toISOString(),
  };
}

/** GET /dashboards/manager/behind/people (105): the people behind (one kind, or all), paged. */
export async function behindPeople(
  ctx: Ctx,
  q: BehindPeopleQuery,
): Promise<{ data: BehindPerson[]; total: number }> {
  const { found } = await gather(ctx, q.entity, q.kind);
  const people = await peopleOf(ctx.db, found);
  const start = (q.page - 1) * q.per_page;
  return { data: people.slice(start, start + q.per_page), total: people.length };
}

/**
 * POST /dashboards/manager/behind/remind (105): reminds everyone on the list (one kind, or all) of each thing they
 * are behind on, through the delivery ledger (in-app and e-mail). A document's reminder is the document page's own
 * ("Remind those who have not read it": kind document_reminder, the same key), the others kind behind_reminder;
 * the ledger's unique key keeps it to one per person, thing and day, however often and by however many managers.
 */
export async function remindBehind(ctx: Ctx, body: BehindRemindBody): Promise<{ reminded: number }> {
  const { found, now } = await gather(ctx, body.entity, body.kind);
  if (found.length === 0) return { reminded: 0 };
  const entities = new Map(
    (
      await ctx.db
        .selectFrom('users')
        .select(['id', 'primary_entity_id'])
        .where('id', 'in', [...new Set(found.map((f) => f.user_id))])
        .execute()
    ).map((u) => [u.id, u.primary_entity_id]),
  );
  const today = londonDate(now);
  const rows: NewNotification[] = found.flatMap((f) => {
    const entity_id = entities.get(f.user_id) as number;
    const r = f.remind;
    if (r.kind === 'document') {
      const { title, body: text } = documentReminderText(f.title, r.version);
      return bothChannels(
        {
          kind: 'document_reminder',
          subject_key: `document:${r.id}@${r.version}`,
          // The document page's remind uses the UTC day: the same key, so one reminder a day from either place.
          occasion: now.toISOString().slice(0, 10),
          user_id: f.user_id,
          entity_id,
          course_id: r.course_id,
          expires_at: null,
          title,
          body: text,
          link: f.href,
          created_at: now,
        },
        now,
      );
    }
    const { title, body: text } = behindReminderText(r.kind, f.title);
    return bothChannels(
      {
        kind: 'behind_reminder',
        subject_key: `${r.kind === 'care_certificate' ? 'care_certificate' : 'pathway_allocation'}:${r.id}`,
        occasion: today,
        user_id: f.user_id,
        entity_id,
        course_id: null,
        expires_at: null,
        title,
        body: text,
        link: f.href,
        created_at: now,
      },
      now,
    );
  });
  const inserted = await ctx.db.transaction().execute((trx) => recordAndQueue(trx, rows, now));
  return { reminded: new Set(inserted.filter((r) => r.channel === 'in_app').map((r) => r.user_id)).size };
}
