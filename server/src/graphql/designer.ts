import {
  ContentIdParams,
  CreateDesignBody,
  DesignListQuery,
  type DesignSummary,
  type DesignView,
  PublishDesignBody,
  UpdateDesignBody,
} from '@cc/contracts';
import { publishDesign } from '../designer/publish';
import { createDesign, getDesign, listDesigns, updateDesign } from '../designer/service';
import { actorOf } from '../http/context';
import { builder } from './builder';
import { defined, parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/** The content designer (issue 17; contracts designer.ts) over GraphQL: each resolver calls the REST route's service. */

const idOf = (id: string | number) => parseInput(ContentIdParams, { id }).id;

const EntityRefObject = builder.objectRef<DesignSummary['entity']>('DesignOrganisation').implement({
  fields: (t) => ({ id: t.exposeID('id'), slug: t.exposeString('slug'), name: t.exposeString('name') }),
});
const PublishedContentObject = builder
  .objectRef<NonNullable<DesignSummary['content']>>('DesignPublishedContent')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      title: t.exposeString('title'),
      course_id: t.exposeInt('course_id'),
    }),
  });

type DesignShape = DesignSummary & { pages?: DesignView['pages'] };
const DesignObject = builder.objectRef<DesignShape>('Design').implement({
  description: 'A content design: pages of blocks, published as an e-learning content item.',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    title: t.exposeString('title'),
    entity: t.field({ type: EntityRefObject, resolve: (d) => d.entity }),
    page_count: t.exposeInt('page_count'),
    revision: t.exposeInt('revision', {
      description: 'Send it back with saveDesign: a stale one is refused.',
    }),
    state: t.exposeString('state', { description: 'draft, published or changed (saved since publishing).' }),
    published_at: t.exposeString('published_at', { nullable: true }),
    content: t.field({ type: PublishedContentObject, nullable: true, resolve: (d) => d.content }),
    updated_at: t.exposeString('updated_at'),
    pages: t.field({
      type: 'JSON',
      description: 'The pages and their blocks (contracts designer.ts DesignPage[]).',
      resolve: async (d, _a, ctx) => d.pages ?? (await getDesign(ctx, d.id)).pages,
    }),
  }),
});
const DesignPaginator = paginatorOf(DesignObject, 'Design');

builder.queryField('designs', (t) =>
  t.field({
    type: DesignPaginator,
    description: 'GET /api/designs: designs of the organisations in scope (29 or 63).',
    args: { ...pageArgs(t.arg), search: t.arg.string() },
    resolve: (_r, args, ctx) => {
      actorOf(ctx);
      return pageOf(DesignListQuery, args, (query) => listDesigns(ctx, query));
    },
  }),
);
builder.queryField('design', (t) =>
  t.field({
    type: DesignObject,
    description: 'GET /api/designs/{id}.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => {
      actorOf(ctx);
      return getDesign(ctx, idOf(id));
    },
  }),
);

const SaveDesignInput = builder.inputType('SaveDesignInput', {
  description:
    'Without id: a new design (entity, title, pages). With id: only the fields sent change, and revision (the one loaded) is required.',
  fields: (t) => ({
    id: t.id(),
    entity: t.string({ description: "The organisation's slug (new designs; default: the author's)." }),
    title: t.string(),
    pages: t.field({ type: 'JSON', description: 'contracts designer.ts DesignPage[].' }),
    revision: t.int(),
  }),
});

builder.mutationField('saveDesign', (t) =>
  t.field({
    type: DesignObject,
    description: 'POST /api/designs (no id) or PATCH /api/designs/{id} (a stale revision is refused).',
    args: { input: t.arg({ type: SaveDesignInput, required: true }) },
    resolve: (_r, { input }, ctx) => {
      actorOf(ctx);
      const { id, entity, ...rest } = input;
      if (id === undefined || id === null)
        return createDesign(ctx, parseInput(CreateDesignBody, defined({ entity, ...rest })));
      return updateDesign(ctx, idOf(id), parseInput(UpdateDesignBody, defined({ ...rest })));
    },
  }),
);

const PublishDesignInput = builder.inputType('PublishDesignInput', {
  fields: (t) => ({
    course_id: t.int({ description: 'First publish: the course the content joins.' }),
    new_course_title: t.string({ description: 'First publish: or a new course of this title.' }),
    pass_mark: t.int({
      description: 'Pass mark of the quiz made from question blocks (percent, default 80).',
    }),
  }),
});

builder.mutationField('publishDesign', (t) =>
  t.field({
    type: DesignObject,
    description: 'POST /api/designs/{id}/publish: makes or updates its e-learning content.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: PublishDesignInput }) },
    resolve: (_r, { id, input }, ctx) => {
      actorOf(ctx);
      return publishDesign(ctx, idOf(id), parseInput(PublishDesignBody, defined({ ...(input ?? {}) })));
    },
  }),
);
