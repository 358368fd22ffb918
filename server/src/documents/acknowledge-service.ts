import {
  type AcknowledgeBody,
  type AcknowledgementListQuery,
  type AcknowledgementRow,
  type DocumentRequirementsBody,
  DocumentMessages as M,
  type MyDocument,
  LibraryPerm as P,
} from '@cc/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import { auditVia } from '../audit/record';
import { deleteRule, insertRule, newRuleDueAt, updateRule } from '../compliance/rule-queries';
import { markScoresStale } from '../compliance/scores-cache';
import { pageWithTotal } from '../db/paged';
import { findEntityByRef } from '../entities/queries';
import { entityScope, inScope } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { actorOf, type Ctx } from '../http/context';
import { conflict, invalidField, notFound } from '../http/errors';
import { bothChannels, recordAndQueue } from '../notifications/jobs';
import { documentReminderText } from '../notifications/messages';
import { auditEarnedResult } from '../results/audit';
import { recordResult } from '../results/service';
import { emitWebhookEvent } from '../webhooks/events';
import { type AnyDocumentView, presentDocument } from './document-views';
import { statusOf } from './presenters';
import { documentFor, requireManage, requirePerm } from './scope';

/**
 * Reading and acknowledging (contracts documents.ts "Read and acknowledge"): the acknowledgement and its `document`
 * result, who has and has not acknowledged (136), the caller's required documents, and which job roles must read a
 * document (135: compliance rules on the backing course, so user_requirements and the matrix follow by trigger).
 */

const sameName = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ').toLocaleLowerCase('en-GB') ===
  b.trim().replace(/\s+/g, ' ').toLocaleLowerCase('en-GB');

/**
 * POST /documents/{id}/acknowledge: the current version (409 when a newer one was published meanwhile), opened
 * first (409), the check question answered right (422 `answer`), the account's name typed (422 `typed_name`). The
 * document row is held FOR SHARE, so a new version cannot be published in between; two acknowledgements of one
 * version by one person meet at the unique key (version, user): the second inserts nothing and answers 409. The
 * `document` result (passed, never expiring by itself) is recorded in the same transaction.
 */
export async function acknowledgeDocument(
  ctx: Ctx,
  id: number,
  body: z.infer<typeof AcknowledgeBody>,
): Promise<AnyDocumentView> {
  const actor = actorOf(ctx);
  await documentFor(ctx, id);
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const doc = await documentFor(ctx, id, { db: trx, lock: 'share' });
    const current = await trx
      .selectFrom('document_versions')
      .select(['id', 'number'])
      .where('id', '=', doc.current_version_id ?? 0)
      .executeTakeFirst();
    if (!current) throw notFound();
    if (body.version !== current.number) throw conflict(M.newerVersion);
    const opened = await trx
      .selectFrom('document_views')
      .select('user_id')
      .where('version_id', '=', current.id)
      .where('user_id', '=', actor.userId)
      .executeTakeFirst();
    if (!opened) throw conflict(M.openFirst);
    const question = doc.check_question;
    if (question && body.answer !== question.correct)
      throw invalidField(
        'answer',
        body.answer === null || body.answer === undefined ? M.chooseAnswer : M.wrongAnswer,
      );
    if (!sameName(body.typed_name, actor.name)) throw invalidField('typed_name', M.nameMismatch);
    const ack = await trx
      .insertInto('document_acknowledgements')
      .values({
        document_id: doc.id,
        version_id: current.id,
        user_id: actor.userId,
        typed_name: body.typed_name,
        acknowledged_at: now,
      })
      .onConflict((oc) => oc.columns(['version_id', 'user_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!ack) throw conflict(M.alreadyAcknowledged);
    const user = await trx
      .selectFrom('users')
      .select('primary_entity_id')
      .where('id', '=', actor.userId)
      .executeTakeFirstOrThrow();
    const result = await recordResult(
      trx,
      {
        userId: actor.userId,
        entityId: user.primary_entity_id,
        courseId: doc.course_id,
        contentId: null,
        type: 'document',
        passed: true,
        score: null,
        completedAt: now,
        expiresAt: null,
        attemptId: null,
        createdBy: actor.userId,
      },
      now,
    );
    // The audit trail (issue 35 §3): the reader earned it by acknowledging this version of the document.
    await auditEarnedResult(
      trx,
      ctx,
      result.id,
      auditVia({
        how: 'document',
        label: doc.title,
        ref: String(doc.id),
        detail: `version ${current.number}`,
      }),
    );
    await trx
      .updateTable('document_acknowledgements')
      .set({ result_id: result.id })
      .where('id', '=', ack.id)
      .execute();
    const acknowledged = {
      user_id: actor.userId,
      user_uuid: actor.uuid,
      document_id: doc.id,
      version: current.number,
    };
    await emitWebhookEvent(
      trx,
      {
        entityId: user.primary_entity_id,
        type: 'document.acknowledged',
        data: { ...acknowledged, acknowledged_at: now.toISOString() },
      },
      now,
    );
  });
  return presentDocument(ctx, id);
}

/**
 * GET /documents/{id}/acknowledgements (136): the people in the actor's scope who must read the document (its
 * user_requirements rows), with their latest acknowledged version; `status` keeps those who acknowledged the current
 * version, or those who have not.
 */
export async function listAcknowledgements(
  ctx: Ctx,
  id: number,
  query: z.infer<typeof AcknowledgementListQuery>,
): Promise<{ data: AcknowledgementRow[]; total: number }> {
  const doc = await documentFor(ctx, id);
  requirePerm(ctx, [P.acknowledgements]);
  const scope = await entityScope(ctx);
  let entityIds: number[] | null = scope.accessible === 'all' ? null : [...scope.accessible];
  if (query.entity) {
    const entity = await findEntityByRef(ctx.db, query.entity);
    if (!entity || !inScope(scope, entity.id)) throw notFound();
    entityIds = [entity.id];
  }
  const currentNumber = sql<number>`(SELECT number FROM document_versions WHERE id = ${doc.current_version_id ?? 0})`;
  let base = ctx.db
    .selectFrom('user_requirements as ur')
    .innerJoin('users as u', 'u.id', 'ur.user_id')
    .innerJoin('entities as e', 'e.id', 'ur.entity_id')
    .leftJoin('entity_roles as r', 'r.id', 'ur.role_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('document_acknowledgements as a')
          .innerJoin('document_versions as v', 'v.id', 'a.version_id')
          .select(['v.number', 'a.acknowledged_at'])
          .whereRef('a.user_id', '=', 'ur.user_id')
          .where('a.document_id', '=', doc.id)
          .orderBy('v.number', 'desc')
          .limit(1)
          .as('ack'),
      (j) => j.onTrue(),
    )
    .where('ur.course_id', '=', doc.course_id);
  if (entityIds !== null) base = base.where('ur.entity_id', 'in', entityIds.length ? entityIds : [0]);
  if (query.status === 'acknowledged') base = base.where(sql<boolean>`ack.number = ${currentNumber}`);
  if (query.status === 'outstanding')
    base = base.where(sql<boolean>`(ack.number IS NULL OR ack.number < ${currentNumber})`);
  if (query.search) base = base.where('u.name', 'ilike', `%${query.search.replace(/[\\%_]/g, '\\$&')}%`);
  const { rows, total } = await pageWithTotal(
    base,
    (filtered) =>
      filtered
        .select([
          'u.id',
          'u.uuid',
          'u.name',
          'e.id as entity_id',
          'e.slug',
          'e.name as entity_name',
          'r.name as role_name',
          'ack.number as ack_version',
          'ack.acknowledged_at',
          currentNumber.as('current_number'),
        ])
        .orderBy('u.name')
        .orderBy('u.id'),
    { page: query.page, perPage: query.per_page },
  );
  return {
    data: rows.map((r) => ({
      user: { id: r.id, uuid: r.uuid, name: r.name },
      entity: { id: r.entity_id, slug: r.slug, name: r.entity_name },
      role: r.role_name,
      acknowledged_version: r.ack_version ?? null,
      acknowledged_at: r.acknowledged_at ? new Date(r.acknowledged_at).toISOString() : null,
      current: r.ack_version !== null && r.ack_version === Number(r.current_number),
    })),
    total,
  };
}

/**
 * POST /documents/{id}/remind (136, issue 33 §4): "Remind those who have not read it". Everyone in the actor's scope
 * who must read the document (its user_requirements rows) and has not acknowledged its current version gets an in-app
 * notification and an e-mail through the delivery ledger (notifications/jobs.ts recordAndQueue: the mail queue,
 * quiet hours, push first). The ledger's key (kind, document@version, the day, person, channel) sends it once a day
 * per person, so a second press, or two managers at once, remind nobody twice. Out of scope: 404.
 */
export async function remindUnread(ctx: Ctx, id: number): Promise<{ reminded: number }> {
  const doc = await documentFor(ctx, id);
  requirePerm(ctx, [P.acknowledgements]);
  const scope = await entityScope(ctx);
  const entityIds = scope.accessible === 'all' ? null : [...scope.accessible];
  if (doc.current_version_id === null) return { reminded: 0 };
  const current = await ctx.db
    .selectFrom('document_versions')
    .select('number')
    .where('id', '=', doc.current_version_id)
    .executeTakeFirstOrThrow();
  let q = ctx.db
    .selectFrom('user_requirements as ur')
    .innerJoin('users as u', 'u.id', 'ur.user_id')
    .select(['ur.user_id', 'u.primary_entity_id as entity_id'])
    .where('ur.course_id', '=', doc.course_id)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('document_acknowledgements as a')
            .select('a.user_id')
            .whereRef('a.user_id', '=', 'ur.user_id')
            .where('a.version_id', '=', doc.current_version_id as number),
        ),
      ),
    );
  if (entityIds !== null) q = q.where('ur.entity_id', 'in', entityIds.length ? entityIds : [0]);
  const people = await q.execute();
  const now = ctx.clock();
  const { title, body } = documentReminderText(doc.title, current.number);
  const rows = people.flatMap((p) =>
    bothChannels(
      {
        kind: 'document_reminder',
        subject_key: `document:${doc.id}@${current.number}`,
        occasion: now.toISOString().slice(0, 10),
        user_id: p.user_id,
        entity_id: p.entity_id,
        course_id: doc.course_id,
        expires_at: null,
        title,
        body,
        link: `/document/${doc.id}`,
        created_at: now,
      },
      now,
    ),
  );
  const inserted = await ctx.db.transaction().execute((trx) => recordAndQueue(trx, rows, now));
  return { reminded: inserted.filter((r) => r.channel === 'in_app').length };
}

/** GET /documents/mine: the documents the caller must read (their user_requirements on document courses). */
export async function myDocuments(ctx: Ctx): Promise<MyDocument[]> {
  const actor = actorOf(ctx);
  const rows = await ctx.db
    .selectFrom('user_requirements as ur')
    .innerJoin('documents as d', 'd.course_id', 'ur.course_id')
    .innerJoin('libraries as l', 'l.id', 'd.library_id')
    .innerJoin('document_versions as cv', 'cv.id', 'd.current_version_id')
    .select([
      'd.id',
      'd.title',
      'cv.number as version',
      'cv.change_note',
      'ur.type',
      sql<number | null>`(SELECT max(v.number) FROM document_acknowledgements a
          JOIN document_versions v ON v.id = a.version_id
         WHERE a.document_id = d.id AND a.user_id = ${actor.userId})`.as('my_version'),
    ])
    .where('ur.user_id', '=', actor.userId)
    .where('d.deleted_at', 'is', null)
    .where('l.deleted_at', 'is', null)
    .orderBy('ur.type')
    .orderBy('d.title')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    version: r.version,
    status: statusOf({ version: r.version, my_version: r.my_version, required: true }),
    change_note: r.change_note,
    type: r.type as 'primary' | 'secondary',
  }));
}

/**
 * PUT /documents/{id}/requirements (135): the job roles of one organisation in scope that must read the document,
 * as that organisation's own compliance rules on the backing course (no validity: an acknowledgement lasts until a
 * new version). Roles left out lose their rule. Roles must be the organisation's own or its parent's (422). The
 * document row is locked, so two saves at once apply one after the other.
 */
export async function setRequirements(
  ctx: Ctx,
  id: number,
  body: z.infer<typeof DocumentRequirementsBody>,
): Promise<AnyDocumentView> {
  const doc = await documentFor(ctx, id);
  await requireManage(ctx, doc.entity_id);
  const scope = await entityScope(ctx);
  const entity = await findEntityByRef(ctx.db, body.entity);
  if (!entity || !inScope(scope, entity.id)) throw notFound();
  const roleIds = [...new Set(body.role_ids)];
  if (roleIds.length) {
    const owners = await ancestorIds(ctx.db, entity.id);
    const usable = await ctx.db
      .selectFrom('entity_roles')
      .select('id')
      .where('id', 'in', roleIds)
      .where('entity_id', 'in', owners)
      .execute();
    if (usable.length !== roleIds.length)
      throw invalidField('role_ids', 'Choose job roles of this organisation.');
  }
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await documentFor(ctx, id, { db: trx, lock: 'update' });
    const existing = await trx
      .selectFrom('compliance_rules')
      .select(['id', 'role_id', 'type'])
      .where('entity_id', '=', entity.id)
      .where('course_id', '=', locked.course_id)
      .execute();
    for (const rule of existing) {
      if (!roleIds.includes(rule.role_id)) await deleteRule(trx, rule.id);
      else if (rule.type !== body.type) await updateRule(trx, rule.id, { type: body.type }, now);
    }
    const have = new Set(existing.map((r) => r.role_id));
    // A role newly required to read it has the grace period to do so (issue 33 §4).
    const dueAt = await newRuleDueAt(trx, entity.id, now, body.grace_days);
    for (const roleId of roleIds.filter((r) => !have.has(r)))
      await insertRule(
        trx,
        {
          entity_id: entity.id,
          role_id: roleId,
          course_id: locked.course_id,
          type: body.type,
          validity_months: null,
          due_at: dueAt,
        },
        now,
      );
  });
  markScoresStale();
  return presentDocument(ctx, doc.id);
}
