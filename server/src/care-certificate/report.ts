import {
  CareCertificatePerm,
  type CareCertificateReportQuery,
  type CareCertificateReportRow,
  type CareCertificateStandardRow,
  type StandardStatus,
} from '@cc/contracts';
import { londonDate } from '../bookings/session-service';
import { assertEntityInScope } from '../entities/scope';
import { subtreeIds } from '../entities/tree';
import { actorOf, authorize, type Ctx } from '../http/context';
import { notFound } from '../http/errors';
import { presentPreset } from '../presets/presenters';
import { findOwnPreset } from '../presets/queries';
import { standardCounts, standardStatus } from './progress';
import { type CertificateDetail, certificateDetails, personNmds, withoutJit } from './report-details';
import {
  certificateIdsOfUsers,
  flagsNeedEvidence,
  type PeopleFilter,
  type PersonRow,
  peopleRows,
  reportPeople,
  standardStates,
} from './report-queries';
import { scopedEntityIds } from './scope';

/**
 * GET /reports/care-certificate (87; contracts care-certificate.ts "Report"): one row per person in scope.
 *
 * - Scope: the people whose primary organisation is in the caller's scope (scope.ts scopedEntityIds). `entities`
 *   narrows to those organisations and, unless deep=false, their descendants; an organisation outside the scope is the
 *   same 404 as a missing one (as the other reports answer), checked before the permission (404 before 403).
 * - Each person's certificate: their live one, else their latest historical one (report-queries.ts), of the versions
 *   in `certificates` when given. people=all adds people without one (nmds not_started, standards {}).
 * - The include flags keep a person when any standard of their certificate shows an included status (someone without
 *   a certificate counts as outstanding). The stored states decide approved and awaiting approval in SQL; evidence is
 *   read only when exactly one of working towards / outstanding is asked for (one standardCounts statement over the
 *   candidates).
 * - care_certificate_filter: the certificate's status (in_progress, complete; either = any). overdue_only: in
 *   progress and expected_by before today (Europe/London). search: name or e-mail.
 * - preset_id: the caller's own saved report preset (another's is 404): its entities (unless `entities` is sent),
 *   users and roles narrow the people, and its care_certificate_filter applies unless the query sends one other than
 *   'either'. Its entities must be in the caller's scope (404), like the query's.
 * - A page reads its rows in a fixed number of statements (report-details.ts): no per-row queries.
 */
export type ReportQuery = CareCertificateReportQuery;

/** The query with its preset applied and resolved against the tenant boundary (404s first), then 87 (403). */
export async function resolveReport(ctx: Ctx, q: ReportQuery): Promise<PeopleFilter> {
  const actor = actorOf(ctx);
  let entities = q.entities;
  let userIds: number[] | undefined;
  let roleIds: number[] | undefined;
  let status = q.care_certificate_filter;
  if (q.preset_id !== undefined) {
    const row = await findOwnPreset(ctx.db, q.preset_id, actor.userId);
    if (!row) throw notFound();
    const preset = presentPreset(row);
    if (!entities?.length && preset.entities.length) entities = preset.entities;
    if (preset.users.length) userIds = preset.users;
    if (preset.roles.length) roleIds = preset.roles;
    if (status === 'either') status = preset.care_certificate_filter;
  }
  const scoped = await scopedEntityIds(ctx);
  let entityIds = scoped;
  if (entities?.length) {
    const ids = new Set<number>();
    for (const id of new Set(entities)) {
      await assertEntityInScope(ctx, id);
      for (const sub of q.deep === false ? [id] : await subtreeIds(ctx.db, id)) ids.add(sub);
    }
    entityIds = scoped ? [...ids].filter((id) => scoped.includes(id)) : [...ids];
  }
  authorize(ctx, [CareCertificatePerm.report]);
  return {
    entityIds,
    userIds,
    roleIds,
    search: q.search || undefined,
    versionIds: q.certificates,
    withoutCertificate: q.people === 'all',
    certificateStatus: status === 'either' ? undefined : status,
    overdueOnly: q.overdue_only,
    today: londonDate(ctx.clock()),
    include: {
      approved: q.includeApproved,
      awaiting_approval: q.includeAwaitingApproval,
      working_towards: q.includeWorkingTowards,
      outstanding: q.includeOutstanding,
    },
  };
}

/**
 * Whether evidence keeps a candidate the stored states did not: an open standard with evidence (working towards) or
 * without (outstanding), whichever the flags ask for. One standardCounts statement for all candidates.
 */
async function keptByEvidence(ctx: Ctx, f: PeopleFilter, rows: PersonRow[]): Promise<Set<number>> {
  const ids = rows.filter((r) => !r.kept && r.has_open && r.certificate_id !== null);
  const certIds = ids.map((r) => r.certificate_id as number);
  const kept = new Set<number>();
  if (certIds.length === 0) return kept;
  const states = await standardStates(ctx.db, certIds);
  const counts = await standardCounts(ctx.db, certIds);
  for (const s of states) {
    if (s.state !== 'open') continue;
    const evidenced = counts.get(s.certificate_id)?.get(s.standard_id)?.evidenced ?? 0;
    const status = standardStatus('open', evidenced);
    if (
      (status === 'working_towards' && f.include.working_towards) ||
      (status === 'outstanding' && f.include.outstanding)
    )
      kept.add(s.certificate_id);
  }
  return kept;
}

/** Every matching person (not paged), in name order: exports, the per-standard view. */
export async function allReportPeople(ctx: Ctx, f: PeopleFilter): Promise<PersonRow[]> {
  const rows = await reportPeople(ctx.db, f);
  if (!flagsNeedEvidence(f.include)) return rows;
  const byEvidence = await keptByEvidence(ctx, f, rows);
  return rows.filter((r) => r.kept || (r.certificate_id !== null && byEvidence.has(r.certificate_id)));
}

/** One page of people (and the total). */
export async function reportPage(
  ctx: Ctx,
  f: PeopleFilter,
  page: { page: number; per_page: number },
): Promise<{ people: PersonRow[]; total: number }> {
  const offset = (page.page - 1) * page.per_page;
  if (!flagsNeedEvidence(f.include)) {
    const people = await reportPeople(ctx.db, f, { limit: page.per_page, offset });
    // Past the last page: no rows carry the total, so count again without the page.
    const total = people[0]?.total ?? (offset > 0 ? (await reportPeople(ctx.db, f)).length : 0);
    return { people, total };
  }
  const all = await allReportPeople(ctx, f);
  return { people: all.slice(offset, offset + page.per_page), total: all.length };
}

/** The rows of these people (a fixed number of statements). */
export async function reportRows(
  ctx: Ctx,
  f: PeopleFilter,
  people: PersonRow[],
): Promise<CareCertificateReportRow[]> {
  const userIds = people.map((p) => p.user_id);
  const certIds = await certificateIdsOfUsers(ctx.db, userIds);
  const details = await certificateDetails(ctx.db, certIds, f.today);
  const byUser = new Map<number, CertificateDetail[]>();
  for (const d of details.values()) byUser.set(d.row.user_id, [...(byUser.get(d.row.user_id) ?? []), d]);
  const without = people.filter((p) => p.certificate_id === null).map((p) => p.user_id);
  const persons = new Map((await peopleRows(ctx.db, without)).map((p) => [p.id, p]));
  return people.map((p): CareCertificateReportRow => {
    const chosen = p.certificate_id === null ? undefined : details.get(p.certificate_id);
    if (chosen) {
      const { user, ...certificate } = chosen.summary;
      return {
        user,
        role: chosen.row.role_name,
        start_date: chosen.row.user_start_date,
        certificate,
        nmds: personNmds(byUser.get(p.user_id) ?? [chosen]),
        standards: chosen.standards,
      };
    }
    const person = persons.get(p.user_id);
    const others = byUser.get(p.user_id) ?? [];
    return {
      user: {
        id: p.user_id,
        uuid: person?.uuid ?? '',
        name: person?.name ?? '',
        entity: {
          id: person?.entity_id ?? 0,
          slug: person?.entity_slug ?? '',
          name: person?.entity_name ?? '',
        },
      },
      role: person?.role_name ?? null,
      start_date: person?.start_date ?? null,
      certificate: null,
      nmds: others.length ? personNmds(others) : 'not_started',
      standards: {},
    };
  });
}

/** GET /reports/care-certificate, view=person: a page of rows and the total. */
export async function careCertificateReport(
  ctx: Ctx,
  q: ReportQuery,
): Promise<{ data: CareCertificateReportRow[]; total: number }> {
  const f = await resolveReport(ctx, q);
  return withoutJit(ctx, async (c) => {
    const { people, total } = await reportPage(c, f, q);
    return { data: await reportRows(c, f, people), total };
  });
}

/**
 * view=standard: per version and standard, how many of the matching people's certificates show each status (people
 * without a certificate are not counted: they have no version). Two statements over all their certificates.
 */
export async function careCertificateStandardReport(
  ctx: Ctx,
  q: ReportQuery,
): Promise<CareCertificateStandardRow[]> {
  const f = await resolveReport(ctx, q);
  return withoutJit(ctx, (c) => standardReportOf(c, f));
}

async function standardReportOf(ctx: Ctx, f: PeopleFilter): Promise<CareCertificateStandardRow[]> {
  const people = await allReportPeople(ctx, f);
  const certIds = people.map((p) => p.certificate_id).filter((id): id is number => id !== null);
  if (certIds.length === 0) return [];
  const states = await standardStates(ctx.db, certIds);
  const counts = await standardCounts(ctx.db, certIds);
  const complete = new Set(
    (
      await ctx.db
        .selectFrom('care_certificates')
        .select('id')
        .where('id', 'in', certIds)
        .where('status', '=', 'complete')
        .execute()
    ).map((r) => r.id),
  );
  const versions = new Map(
    (await ctx.db.selectFrom('care_certificate_versions').select(['id', 'code']).execute()).map((v) => [
      v.id,
      v.code,
    ]),
  );
  const versionOfStandard = new Map(
    (
      await ctx.db
        .selectFrom('care_certificate_standards')
        .select(['id', 'version_id'])
        .where('id', 'in', [...new Set(states.map((s) => s.standard_id))])
        .execute()
    ).map((s) => [s.id, s.version_id]),
  );
  const rows = new Map<number, CareCertificateStandardRow>();
  for (const s of states) {
    const versionId = versionOfStandard.get(s.standard_id) as number;
    let row = rows.get(s.standard_id);
    if (!row) {
      row = {
        version_code: versions.get(versionId) ?? '',
        number: s.number,
        title: s.title,
        outstanding: 0,
        working_towards: 0,
        awaiting_approval: 0,
        approved: 0,
      };
      rows.set(s.standard_id, row);
    }
    const evidenced = counts.get(s.certificate_id)?.get(s.standard_id)?.evidenced ?? 0;
    const status: StandardStatus = complete.has(s.certificate_id)
      ? 'approved'
      : standardStatus(s.state, evidenced);
    row[status] += 1;
  }
  return [...rows.values()].sort(
    (a, b) => a.version_code.localeCompare(b.version_code) || a.number - b.number,
  );
}

export const STANDARD_STATUS_WORDS: Record<StandardStatus, string> = {
  outstanding: 'Outstanding',
  working_towards: 'Working towards',
  awaiting_approval: 'Awaiting approval',
  approved: 'Approved',
};
