import {
  AscWdsCategoryBody,
  AscWdsCategoryParams,
  type AscWdsPreview,
  AscWdsQuery,
  AscWdsSettingsBody,
  SlugParams,
} from '@cc/contracts';
import { actorOf } from '../http/context';
import { ascWdsPreview, saveAscWdsCategory, saveAscWdsSettings } from '../reports/asc-wds-export';
import { builder } from './builder';
import { parseInput } from './input';

/**
 * The ASC-WDS training export (issue 37 §1) over GraphQL: query `ascWdsExport` (what the file will hold and what is
 * missing, as GET /api/entities/{slug}/asc-wds/training), mutations `setAscWdsWorkplaceId` and `setAscWdsCategory`.
 * The same services as REST (reports/asc-wds-export.ts): NOT_FOUND outside scope, the same permissions. The file
 * itself is REST only (POST /api/entities/{slug}/asc-wds/exports), as the other report files.
 */
const Settings = builder.objectRef<{ local_establishment_id: string | null }>('AscWdsSettings').implement({
  fields: (t) => ({ local_establishment_id: t.exposeString('local_establishment_id', { nullable: true }) }),
});
const Category = builder
  .objectRef<{ course_id: number; category: number | null; suggestion: number | null }>('AscWdsCategory')
  .implement({
    fields: (t) => ({
      course_id: t.exposeInt('course_id'),
      category: t.exposeInt('category', { nullable: true }),
      suggestion: t.exposeInt('suggestion', { nullable: true }),
    }),
  });

const slugOf = (slug: string) => parseInput(SlugParams, { slug }).slug;

builder.queryField('ascWdsExport', (t) =>
  t.field({
    type: 'JSON',
    description:
      'GET /api/entities/{slug}/asc-wds/training: the rows of the ASC-WDS training file, the courses with their category and suggestion, people missing an employee number, rows the import rules refuse. since: last (default) or all.',
    args: { slug: t.arg.string({ required: true }), since: t.arg.string() },
    resolve: async (_root, args, ctx): Promise<AscWdsPreview> => {
      actorOf(ctx);
      const { since } = parseInput(AscWdsQuery, { since: args.since ?? undefined });
      return ascWdsPreview(ctx, slugOf(args.slug), since);
    },
  }),
);

builder.mutationField('setAscWdsWorkplaceId', (t) =>
  t.field({
    type: Settings,
    description: 'PUT /api/entities/{slug}/asc-wds: the home’s ASC-WDS workplace ID (LOCALESTID), or null.',
    args: { slug: t.arg.string({ required: true }), local_establishment_id: t.arg.string() },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return saveAscWdsSettings(
        ctx,
        slugOf(args.slug),
        parseInput(AscWdsSettingsBody, { local_establishment_id: args.local_establishment_id ?? null }),
      );
    },
  }),
);

builder.mutationField('setAscWdsCategory', (t) =>
  t.field({
    type: Category,
    description:
      'PUT /api/entities/{slug}/asc-wds/categories/{courseId}: the course’s ASC-WDS category (bulk upload code), or null.',
    args: {
      slug: t.arg.string({ required: true }),
      course_id: t.arg.int({ required: true }),
      category: t.arg.int(),
    },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      const params = parseInput(AscWdsCategoryParams, { slug: args.slug, courseId: args.course_id });
      return saveAscWdsCategory(
        ctx,
        params.slug,
        params.courseId,
        parseInput(AscWdsCategoryBody, { category: args.category ?? null }),
      );
    },
  }),
);
