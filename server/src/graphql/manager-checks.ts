import {
  BEHIND_FILTERS,
  BEHIND_KINDS,
  type BehindItem,
  BehindPeopleQuery,
  type BehindPerson,
  BehindQuery,
  BehindRemindBody,
  type BehindSummary,
} from '@cc/contracts';
import { behindPeople, behindSummary, remindBehind } from '../dashboards/behind';
import { actorOf } from '../http/context';
import { builder } from './builder';
import { nullless, parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * Who is behind (issue 33 §7) over GraphQL: queries `behind` and `behindPeople`, mutation `remindBehind`. All three
 * call the REST routes' service (dashboards/behind.ts): the same scope, permissions, definitions and answers.
 */
const BehindEntityObject = builder.objectRef<BehindSummary['entity']>('BehindEntity').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    level: t.exposeString('level'),
  }),
});

const BehindCountsObject = builder.objectRef<BehindSummary['counts']>('BehindCounts').implement({
  description: 'People behind per kind; null when the caller may not see the kind.',
  fields: (t) => ({
    care_certificate: t.exposeInt('care_certificate', { nullable: true }),
    pathway: t.exposeInt('pathway', { nullable: true }),
    document: t.exposeInt('document', { nullable: true }),
  }),
});

const BehindSummaryObject = builder.objectRef<BehindSummary>('BehindSummary').implement({
  description: 'GET /api/dashboards/manager/behind: how many people of a home are behind, per kind.',
  fields: (t) => ({
    entity: t.field({ type: BehindEntityObject, resolve: (s) => s.entity }),
    people: t.exposeInt('people'),
    counts: t.field({ type: BehindCountsObject, resolve: (s) => s.counts }),
    generated_at: t.exposeString('generated_at'),
  }),
});

const BehindItemObject = builder.objectRef<BehindItem>('BehindItem').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: BEHIND_KINDS.join(', ') }),
    title: t.exposeString('title'),
    due: t.exposeString('due', { nullable: true }),
    detail: t.exposeString('detail'),
    href: t.exposeString('href'),
  }),
});

const BehindPersonRef = builder.objectRef<BehindPerson>('BehindPerson');
const BehindPersonEntityObject = builder
  .objectRef<BehindPerson['entity']>('BehindPersonEntity')
  .implement({ fields: (t) => ({ id: t.exposeInt('id'), name: t.exposeString('name') }) });
BehindPersonRef.implement({
  description: 'A person behind on something, with each thing (longest overdue first).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    uuid: t.exposeString('uuid'),
    name: t.exposeString('name'),
    role: t.exposeString('role', { nullable: true }),
    entity: t.field({ type: BehindPersonEntityObject, resolve: (p) => p.entity }),
    items: t.field({ type: [BehindItemObject], resolve: (p) => p.items }),
  }),
});
const BehindPeoplePaginator = paginatorOf(BehindPersonRef, 'BehindPeople');

const RemindBehindResult = builder
  .objectRef<{ reminded: number }>('RemindBehindResult')
  .implement({ fields: (t) => ({ reminded: t.exposeInt('reminded') }) });

builder.queryFields((t) => ({
  behind: t.field({
    type: BehindSummaryObject,
    description: 'Who is behind at a home (105): people per kind (Care Certificate, pathways, documents).',
    args: { entity: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      return behindSummary(ctx, parseInput(BehindQuery, nullless(args)));
    },
  }),
  behindPeople: t.field({
    type: BehindPeoplePaginator,
    description: `The people behind at a home (105), longest overdue first. kind: ${BEHIND_FILTERS.join(', ')}.`,
    args: { entity: t.arg.string(), kind: t.arg.string(), ...pageArgs(t.arg) },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(BehindPeopleQuery, args, (q) => behindPeople(ctx, q));
    },
  }),
}));

builder.mutationField('remindBehind', (t) =>
  t.field({
    type: RemindBehindResult,
    description:
      'POST /api/dashboards/manager/behind/remind: reminds everyone behind at a home, once per person, thing and day.',
    args: { entity: t.arg.string(), kind: t.arg.string() },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      return remindBehind(ctx, parseInput(BehindRemindBody, nullless(args)));
    },
  }),
);
