import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import type { Trx } from '../results/queries';

/** SQL of documents and libraries. Callers bound every list by the entity ids scope.ts allows. */
type Executor = Db | Trx;

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Libraries (with their organisation and live document count), by name. `entityIds` null: every one. */
export function librariesQuery(db: Executor, entityIds: number[] | null, search?: string) {
  let q = db
    .selectFrom('libraries as l')
    .innerJoin('entities as e', 'e.id', 'l.entity_id')
    .where('l.deleted_at', 'is', null);
  if (entityIds !== null) q = q.where('l.entity_id', 'in', entityIds.length ? entityIds : [0]);
  if (search) q = q.where(sql<SqlBool>`l.name ILIKE ${`%${escapeLike(search)}%`}`);
  return q;
}

export function libraryColumns(q: ReturnType<typeof librariesQuery>) {
  return q.select([
    'l.id',
    'l.uuid',
    'l.name',
    'l.description',
    'l.entity_id',
    'l.updated_at',
    'e.slug as entity_slug',
    'e.name as entity_name',
    sql<number>`(SELECT count(*)::int FROM documents d WHERE d.library_id = l.id AND d.deleted_at IS NULL)`.as(
      'document_count',
    ),
  ]);
}
export type LibraryListRow = Awaited<ReturnType<ReturnType<typeof libraryColumns>['execute']>>[number];

/**
 * Documents with what a summary shows, for one user's status: the current version's number, the latest version the
 * user acknowledged and whether the user must read it.
 */
export function documentsQuery(db: Executor, userId: number) {
  return db
    .selectFrom('documents as d')
    .innerJoin('libraries as l', 'l.id', 'd.library_id')
    .innerJoin('entities as e', 'e.id', 'd.entity_id')
    .leftJoin('document_versions as cv', 'cv.id', 'd.current_version_id')
    .where('d.deleted_at', 'is', null)
    .where('l.deleted_at', 'is', null)
    .select([
      'd.id',
      'd.uuid',
      'd.title',
      'd.description',
      'd.course_id',
      'd.entity_id',
      'd.library_id',
      'd.check_question',
      'd.updated_at',
      'l.name as library_name',
      'e.slug as entity_slug',
      'e.name as entity_name',
      sql<number>`coalesce(cv.number, 0)`.as('version'),
      'cv.change_note as current_change_note',
      sql<number | null>`(SELECT max(v.number) FROM document_acknowledgements a
          JOIN document_versions v ON v.id = a.version_id
         WHERE a.document_id = d.id AND a.user_id = ${userId})`.as('my_version'),
      sql<boolean>`EXISTS (SELECT 1 FROM user_requirements ur
         WHERE ur.user_id = ${userId} AND ur.course_id = d.course_id)`.as('required'),
    ]);
}
export type DocumentListRow = Awaited<ReturnType<ReturnType<typeof documentsQuery>['execute']>>[number];

/** Every version of a document, newest first, with its file and author. */
export async function versionsOf(db: Executor, documentId: number) {
  return db
    .selectFrom('document_versions as v')
    .innerJoin('files as f', 'f.id', 'v.file_id')
    .leftJoin('users as u', 'u.id', 'v.created_by')
    .select([
      'v.id',
      'v.number',
      'v.change_note',
      'v.created_at',
      'f.original_name',
      'f.mime_type',
      'f.size_bytes',
      'f.storage_key',
      'u.id as user_id',
      'u.uuid as user_uuid',
      'u.name as user_name',
    ])
    .where('v.document_id', '=', documentId)
    .orderBy('v.number', 'desc')
    .execute();
}
export type VersionRow = Awaited<ReturnType<typeof versionsOf>>[number];

/** The job roles that must read a document: the compliance rules on its backing course. */
export async function requirementsOf(db: Executor, courseId: number, entityIds: number[] | null) {
  let q = db
    .selectFrom('compliance_rules as cr')
    .innerJoin('entities as e', 'e.id', 'cr.entity_id')
    .innerJoin('entity_roles as r', 'r.id', 'cr.role_id')
    .select([
      'e.id as entity_id',
      'e.slug',
      'e.name as entity_name',
      'r.id as role_id',
      'r.name as role_name',
      'cr.type',
    ])
    .where('cr.course_id', '=', courseId)
    .orderBy('e.name')
    .orderBy('r.name');
  if (entityIds !== null) q = q.where('cr.entity_id', 'in', entityIds.length ? entityIds : [0]);
  return q.execute();
}

/** The user's latest acknowledgement of a document, of any version. */
export async function myAcknowledgement(db: Executor, documentId: number, userId: number) {
  return db
    .selectFrom('document_acknowledgements as a')
    .innerJoin('document_versions as v', 'v.id', 'a.version_id')
    .select(['v.number as version', 'a.typed_name', 'a.acknowledged_at'])
    .where('a.document_id', '=', documentId)
    .where('a.user_id', '=', userId)
    .orderBy('v.number', 'desc')
    .limit(1)
    .executeTakeFirst();
}
