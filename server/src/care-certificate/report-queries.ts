import type { StandardState } from '@cc/contracts';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { escapeLike } from '../courses/queries';
import type { Db } from '../db/connect';
import type { Trx } from '../results/queries';

/**
 * SQL of the Care Certificate report (87), its exports and the dashboards' widgets. Everything here is set-based:
 * one statement picks the people and their certificate (a LATERAL lookup on care_certificates_user_idx per person),
 * and the page's details are read in a fixed number of statements whatever the page size (no per-row queries).
 */

const ints = (ids: readonly number[]) => sql`${sql.val([...ids])}::int[]`;

/** The people a report covers and how they are filtered (already resolved against the tenant boundary). */
export interface PeopleFilter {
  /** Primary organisations of the people; null = every organisation (super admin without acting-as). */
  entityIds: number[] | null;
  userIds?: number[];
  roleIds?: number[];
  search?: string;
  /** Version ids a certificate must be of (empty or absent = any). */
  versionIds?: number[];
  /** Keep people without a certificate (people=all). */
  withoutCertificate: boolean;
  certificateStatus?: 'in_progress' | 'complete';
  overdueOnly?: boolean;
  /** 'YYYY-MM-DD' (Europe/London): expected_by before it is overdue. */
  today: string;
  /** spec 1 §3's four include flags. */
  include: {
    approved: boolean;
    awaiting_approval: boolean;
    working_towards: boolean;
    outstanding: boolean;
  };
}

export interface PersonRow {
  user_id: number;
  certificate_id: number | null;
  /** The SQL part of the include flags already keeps the person. */
  kept: boolean;
  /** The certificate has an open standard (evidence decides between working towards and outstanding). */
  has_open: boolean;
  total: number;
}

/**
 * The person's certificate the report and the dashboards show: their live one (not historical; the latest started
 * when they hold several versions), else their latest historical one. `versions` narrows the choice.
 */
export function chosenCertificateSql(userRef: RawBuilder<unknown>, versionIds?: number[]) {
  const versions = versionIds?.length ? sql`AND c.version_id = ANY(${ints(versionIds)})` : sql``;
  return sql`
    SELECT c.id, c.version_id, c.status, c.expected_by, c.historical
      FROM care_certificates c
     WHERE c.user_id = ${userRef} ${versions}
     ORDER BY c.historical, CASE WHEN c.historical THEN c.completed_on END DESC NULLS LAST,
              c.started_on DESC, c.id DESC
     LIMIT 1`;
}

const stateExists = (state: StandardState) =>
  sql<SqlBool>`EXISTS (SELECT 1 FROM care_certificate_standard_states st
                        WHERE st.certificate_id = c.id AND st.state = ${state})`;

/**
 * Whether the include flags need evidence: exactly one of working towards / outstanding is asked for, so an open
 * standard's evidence decides. Otherwise the flags are decided by the stored states alone, in SQL.
 */
export const flagsNeedEvidence = (i: PeopleFilter['include']) => i.working_towards !== i.outstanding;

/**
 * People in scope with their chosen certificate, filtered, ordered by name. With `page`, only that page (and the
 * total); without, all of them (exports, the per-standard view, and when evidence must decide the include flags).
 */
export async function reportPeople(
  db: Db | Trx,
  f: PeopleFilter,
  page?: { limit: number; offset: number },
): Promise<PersonRow[]> {
  const where: RawBuilder<SqlBool>[] = [];
  if (f.entityIds) where.push(sql<SqlBool>`u.primary_entity_id = ANY(${ints(f.entityIds)})`);
  if (f.userIds?.length) where.push(sql<SqlBool>`u.id = ANY(${ints(f.userIds)})`);
  if (f.roleIds?.length) where.push(sql<SqlBool>`u.role_id = ANY(${ints(f.roleIds)})`);
  if (f.search) {
    const pattern = `%${escapeLike(f.search)}%`;
    where.push(sql<SqlBool>`(u.name ILIKE ${pattern} OR u.email ILIKE ${pattern})`);
  }
  if (!f.withoutCertificate) where.push(sql<SqlBool>`c.id IS NOT NULL`);
  if (f.certificateStatus) where.push(sql<SqlBool>`c.status = ${f.certificateStatus}`);
  if (f.overdueOnly) where.push(sql<SqlBool>`c.status = 'in_progress' AND c.expected_by < ${f.today}::date`);

  const i = f.include;
  // The flags decided by stored states: approved, awaiting approval, and "any open standard" when both working
  // towards and outstanding are asked for. Someone without a certificate counts as outstanding.
  const kept: RawBuilder<SqlBool>[] = [];
  if (i.approved) kept.push(stateExists('approved'));
  if (i.awaiting_approval) kept.push(stateExists('awaiting_approval'));
  if (i.working_towards && i.outstanding) kept.push(stateExists('open'));
  const keptSql = kept.length ? sql<SqlBool>`(${sql.join(kept, sql` OR `)})` : sql<SqlBool>`false`;
  const noCertificate = i.outstanding ? sql<SqlBool>`c.id IS NULL` : sql<SqlBool>`false`;
  const needEvidence = flagsNeedEvidence(i);
  const allFlags = i.approved && i.awaiting_approval && i.working_towards && i.outstanding;
  if (!allFlags) {
    // With evidence to decide, a certificate with an open standard stays a candidate (checked by the caller).
    const candidate = needEvidence ? sql<SqlBool>` OR ${stateExists('open')}` : sql``;
    where.push(sql<SqlBool>`(${noCertificate} OR (c.id IS NOT NULL AND (${keptSql}${candidate})))`);
  }
  const whereSql = where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``;
  const limit = page ? sql`LIMIT ${page.limit} OFFSET ${page.offset}` : sql``;
  const { rows } = await sql<PersonRow>`
    SELECT u.id AS user_id, c.id AS certificate_id,
           ${allFlags ? sql`true` : sql`(c.id IS NULL OR ${keptSql})`} AS kept,
           (c.id IS NOT NULL AND ${stateExists('open')}) AS has_open,
           count(*) OVER () AS total
      FROM users u
      LEFT JOIN LATERAL (${chosenCertificateSql(sql.ref('u.id'), f.versionIds)}) c ON true
      ${whereSql}
     ORDER BY lower(u.name), u.id
     ${limit}`.execute(db);
  return rows.map((r) => ({ ...r, total: Number(r.total) }));
}

export interface CertificateRowDetail {
  id: number;
  uuid: string;
  user_id: number;
  version_id: number;
  historical: boolean;
  status: 'in_progress' | 'complete';
  started_on: string;
  expected_by: string | null;
  completed_on: string | null;
  created_at: Date;
  version_code: string;
  version_title: string;
  assigned_by_name: string | null;
  user_uuid: string;
  user_name: string;
  user_email: string;
  user_start_date: string | null;
  role_name: string | null;
  entity_id: number;
  entity_slug: string;
  entity_name: string;
  any_decision: boolean;
}

/** The certificates by id with their version, people and whether anything was decided on them (one statement). */
export async function certificateRows(db: Db | Trx, ids: readonly number[]): Promise<CertificateRowDetail[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<CertificateRowDetail>`
    SELECT c.id, c.uuid, c.user_id, c.version_id, c.historical, c.status, c.started_on, c.expected_by,
           c.completed_on, c.created_at, v.code AS version_code, v.title AS version_title,
           ab.name AS assigned_by_name, u.uuid AS user_uuid, u.name AS user_name, u.email AS user_email,
           u.start_date AS user_start_date, r.name AS role_name,
           e.id AS entity_id, e.slug AS entity_slug, e.name AS entity_name,
           EXISTS (SELECT 1 FROM care_certificate_decisions d WHERE d.certificate_id = c.id) AS any_decision
      FROM care_certificates c
      JOIN care_certificate_versions v ON v.id = c.version_id
      JOIN users u ON u.id = c.user_id
      JOIN entities e ON e.id = u.primary_entity_id
      LEFT JOIN entity_roles r ON r.id = u.role_id
      LEFT JOIN users ab ON ab.id = c.assigned_by
     WHERE c.id = ANY(${ints(ids)})`.execute(db);
  return rows;
}

export interface StandardStateRow {
  certificate_id: number;
  standard_id: number;
  number: number;
  title: string;
  state: StandardState;
  submitted_at: Date | null;
}

/** Every standard of each certificate's version with its stored state (a missing row reads as open). */
export async function standardStates(db: Db | Trx, ids: readonly number[]): Promise<StandardStateRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<StandardStateRow>`
    SELECT c.id AS certificate_id, s.id AS standard_id, s.number, s.title,
           coalesce(st.state, 'open') AS state, st.submitted_at
      FROM care_certificates c
      JOIN care_certificate_standards s ON s.version_id = c.version_id
      LEFT JOIN care_certificate_standard_states st ON st.certificate_id = c.id AND st.standard_id = s.id
     WHERE c.id = ANY(${ints(ids)})
     ORDER BY c.id, s.number`.execute(db);
  return rows;
}

/** All certificates of these people (their workforce data set value looks at every one). */
export async function certificateIdsOfUsers(db: Db | Trx, userIds: readonly number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const { rows } = await sql<{ id: number }>`
    SELECT id FROM care_certificates WHERE user_id = ANY(${ints(userIds)})`.execute(db);
  return rows.map((r) => r.id);
}

/** Users by id with their organisation and role (people without a certificate in the report). */
export async function peopleRows(db: Db | Trx, userIds: readonly number[]) {
  if (userIds.length === 0) return [];
  const { rows } = await sql<{
    id: number;
    uuid: string;
    name: string;
    email: string;
    start_date: string | null;
    role_name: string | null;
    entity_id: number;
    entity_slug: string;
    entity_name: string;
  }>`
    SELECT u.id, u.uuid, u.name, u.email, u.start_date, r.name AS role_name,
           e.id AS entity_id, e.slug AS entity_slug, e.name AS entity_name
      FROM users u JOIN entities e ON e.id = u.primary_entity_id
      LEFT JOIN entity_roles r ON r.id = u.role_id
     WHERE u.id = ANY(${ints(userIds)})`.execute(db);
  return rows;
}

/**
 * The manager widget in one statement over the chosen certificates of people in scope: the counts (in progress with no
 * standard awaiting approval, awaiting approval, overdue, complete) and up to `limit` certificate ids overdue (oldest
 * expected_by first) and awaiting approval (longest waiting first).
 */
export async function teamFigures(db: Db | Trx, entityIds: number[] | null, today: string, limit: number) {
  const scope = entityIds ? sql`WHERE u.primary_entity_id = ANY(${ints(entityIds)})` : sql``;
  const { rows } = await sql<{
    working_towards: number;
    awaiting_approval: number;
    overdue: number;
    complete: number;
    overdue_ids: number[] | null;
    awaiting_ids: number[] | null;
  }>`
    WITH chosen AS MATERIALIZED (
      SELECT c.id, c.status, c.expected_by, w.waiting
        FROM users u
        JOIN LATERAL (${chosenCertificateSql(sql.ref('u.id'))}) c ON true
        LEFT JOIN LATERAL (SELECT min(st.submitted_at) AS waiting FROM care_certificate_standard_states st
                            WHERE st.certificate_id = c.id AND st.state = 'awaiting_approval') w ON true
        ${scope})
    SELECT count(*) FILTER (WHERE status = 'in_progress' AND waiting IS NULL)::int AS working_towards,
           count(*) FILTER (WHERE status = 'in_progress' AND waiting IS NOT NULL)::int AS awaiting_approval,
           count(*) FILTER (WHERE status = 'in_progress' AND expected_by < ${today}::date)::int AS overdue,
           count(*) FILTER (WHERE status = 'complete')::int AS complete,
           (SELECT array_agg(id ORDER BY expected_by, id) FROM (
              SELECT id, expected_by FROM chosen WHERE status = 'in_progress' AND expected_by < ${today}::date
               ORDER BY expected_by, id LIMIT ${limit}) o) AS overdue_ids,
           (SELECT array_agg(id ORDER BY waiting, id) FROM (
              SELECT id, waiting FROM chosen WHERE status = 'in_progress' AND waiting IS NOT NULL
               ORDER BY waiting, id LIMIT ${limit}) a) AS awaiting_ids
      FROM chosen`.execute(db);
  const r = rows[0];
  return {
    counts: {
      working_towards: r?.working_towards ?? 0,
      awaiting_approval: r?.awaiting_approval ?? 0,
      overdue: r?.overdue ?? 0,
      complete: r?.complete ?? 0,
    },
    overdueIds: (r?.overdue_ids ?? []).map(Number),
    awaitingIds: (r?.awaiting_ids ?? []).map(Number),
  };
}

/** The caller's own chosen certificate id (the learner widget), or null. */
export async function ownCertificateId(db: Db | Trx, userId: number): Promise<number | null> {
  const { rows } = await sql<{ id: number }>`${chosenCertificateSql(sql.val(userId))}`.execute(db);
  return rows[0]?.id ?? null;
}

/** A certificate's criteria in order (standard number, outcome position, criterion position). */
export async function criteriaInOrder(db: Db | Trx, certificateId: number) {
  const { rows } = await sql<{
    id: number;
    code: string;
    text: string;
    standard_id: number;
    standard_number: number;
    standard_title: string;
  }>`
    SELECT k.id, k.code, k.text, s.id AS standard_id, s.number AS standard_number, s.title AS standard_title
      FROM care_certificates c
      JOIN care_certificate_standards s ON s.version_id = c.version_id
      JOIN care_certificate_outcomes o ON o.standard_id = s.id
      JOIN care_certificate_criteria k ON k.outcome_id = o.id
     WHERE c.id = ${certificateId}
     ORDER BY s.number, o.position, o.id, k.position, k.id`.execute(db);
  return rows;
}

/** Each person's chosen certificate id (people without one are absent): one statement for all of them. */
export async function chosenCertificateIds(
  db: Db | Trx,
  userIds: readonly number[],
): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await sql<{ user_id: number; id: number }>`
    SELECT u.id AS user_id, c.id FROM users u
      JOIN LATERAL (${chosenCertificateSql(sql.ref('u.id'))}) c ON true
     WHERE u.id = ANY(${ints(userIds)})`.execute(db);
  return new Map(rows.map((r) => [r.user_id, r.id]));
}
