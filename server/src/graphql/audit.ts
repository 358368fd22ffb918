import {
  AUDIT_ACTIONS,
  AUDIT_KINDS,
  AUDIT_VIA,
  AuditEntityQuery,
  type AuditEntryView,
  AuditPageQuery,
} from '@cc/contracts';
import { entityHistory, resultHistory, userHistory } from '../audit/service';
import { builder } from './builder';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * The audit trail (issue 35 §3) over GraphQL: queries `userHistory`, `resultHistory`, `entityHistory`, the same
 * services as GET /audit/users/{id}, /audit/results/{id}, /audit/entities/{id} (permission 24, the subject in scope,
 * 404 otherwise). Read-only: there is no mutation of the trail.
 */

const Actor = builder.objectRef<AuditEntryView['actor']>('AuditActor').implement({
  fields: (t) => ({
    id: t.exposeInt('id', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
  }),
});
const ActingAs = builder.objectRef<NonNullable<AuditEntryView['acting_as']>>('AuditActingAs').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name', { nullable: true }),
  }),
});
const Subject = builder.objectRef<AuditEntryView['subject']>('AuditSubject').implement({
  fields: (t) => ({
    id: t.exposeInt('id', { nullable: true }),
    entity_id: t.exposeInt('entity_id', { nullable: true }),
    user_id: t.exposeInt('user_id', { nullable: true }),
    label: t.exposeString('label'),
  }),
});

const Via = builder.objectRef<NonNullable<AuditEntryView['via']>>('AuditVia').implement({
  description:
    'How a change came about when not by hand: training taken, attendance marked, an import applied or undone.',
  fields: (t) => ({
    how: t.exposeString('how', { description: AUDIT_VIA.join(', ') }),
    label: t.exposeString('label', { nullable: true }),
    ref: t.exposeString('ref', { nullable: true }),
    detail: t.exposeString('detail', { nullable: true }),
  }),
});

const AuditEntryObject = builder.objectRef<AuditEntryView>('AuditEntry').implement({
  description:
    'One change in the audit trail: who, acting as whom, when, from where, what, before and after.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    occurred_at: t.exposeString('occurred_at'),
    actor: t.field({ type: Actor, resolve: (e) => e.actor }),
    acting_as: t.field({ type: ActingAs, nullable: true, resolve: (e) => e.acting_as }),
    ip: t.exposeString('ip', { nullable: true }),
    action: t.exposeString('action', { description: AUDIT_ACTIONS.join(', ') }),
    kind: t.exposeString('kind', { description: AUDIT_KINDS.join(', ') }),
    subject: t.field({ type: Subject, resolve: (e) => e.subject }),
    before: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.before }),
    after: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.after }),
    via: t.field({ type: Via, nullable: true, resolve: (e) => e.via }),
  }),
});

const AuditPaginator = paginatorOf(AuditEntryObject, 'AuditEntry');

builder.queryField('userHistory', (t) =>
  t.field({
    type: AuditPaginator,
    description: "GET /api/audit/users/{id}: a person's history (id or uuid), newest first.",
    args: { id: t.arg.string({ required: true }), ...pageArgs(t.arg) },
    resolve: (_root, args, ctx) =>
      pageOf(AuditPageQuery, { page: args.page, first: args.first }, (q) => userHistory(ctx, args.id, q)),
  }),
);

builder.queryField('resultHistory', (t) =>
  t.field({
    type: AuditPaginator,
    description: "GET /api/audit/results/{id}: a result's or exemption's history, deleted ones included.",
    args: { id: t.arg.int({ required: true }), ...pageArgs(t.arg) },
    resolve: (_root, args, ctx) =>
      pageOf(AuditPageQuery, { page: args.page, first: args.first }, (q) => resultHistory(ctx, args.id, q)),
  }),
);

builder.queryField('entityHistory', (t) =>
  t.field({
    type: AuditPaginator,
    description:
      "GET /api/audit/entities/{id}: an organisation's history (id or slug), with its sites' unless deep is false.",
    args: {
      id: t.arg.string({ required: true }),
      ...pageArgs(t.arg),
      from: t.arg.string({ description: 'YYYY-MM-DD, included.' }),
      to: t.arg.string({ description: 'YYYY-MM-DD, included.' }),
      action: t.arg.string({ description: AUDIT_ACTIONS.join(', ') }),
      kind: t.arg.string({ description: AUDIT_KINDS.join(', ') }),
      deep: t.arg.boolean(),
    },
    resolve: (_root, { id, ...args }, ctx) =>
      pageOf(AuditEntityQuery, args, (q) => entityHistory(ctx, id, q)),
  }),
);
