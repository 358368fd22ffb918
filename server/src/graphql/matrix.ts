import {
  type MatrixCell,
  type MatrixCourse,
  MatrixPageQuery,
  type MatrixRole,
  type MatrixUser,
} from '@cc/contracts';
import { actorOf } from '../http/context';
import type { MatrixPage } from '../matrix/service';
import { matrixPage } from '../matrix/service';
import { builder } from './builder';
import { nullless, parseInput } from './input';
import { type PaginatorInfo, PaginatorInfoRef, pageArgs, restPage, toPaginator } from './paging';

/**
 * GraphQL `matrix` (spec 2 §7 "Queries cover ... matrix"; paged as every list: first, page, data, paginatorInfo).
 * It reads the same service as POST /api/reports/matrix (matrix/service.ts): the same filters, scope (acting-as,
 * deep, 404 for an entity outside it) and permission 12. A page is a page of USERS (id order), each with its cells;
 * the cells carry the spec's "Matrix cell" names (spec 2 §3).
 */

const MatrixCellRef = builder.objectRef<MatrixCell>('MatrixCell').implement({
  description: 'spec 2 §3 "Matrix cell": one person × course. Dates are YYYY-MM-DD (UTC day) or null.',
  fields: (t) => ({
    course_id: t.exposeInt('course_id'),
    in_date_passed: t.exposeBoolean('in_date_passed', {
      description: 'The cell counts as compliant (in date, expiring or exempt).',
    }),
    in_expiry_warning_period: t.exposeBoolean('in_expiry_warning_period'),
    latest_result_completed: t.exposeString('latest_result_completed', { nullable: true }),
    latest_result_expires: t.exposeString('latest_result_expires', { nullable: true }),
    latest_result_id: t.exposeInt('latest_result_id', { nullable: true }),
    primary_entity_id: t.exposeInt('primary_entity_id'),
    result_count: t.exposeInt('result_count'),
    role_id: t.exposeInt('role_id', { nullable: true }),
    type: t.exposeString('type', { description: 'primary (Mandatory), secondary (Required) or none.' }),
    user_id: t.exposeInt('user_id'),
    status: t.exposeString('status', {
      description: 'Ours: in_date, expiring, expired, missing or exempt (packages/contracts course-status).',
    }),
    due_by: t.exposeString('due_by', {
      nullable: true,
      description:
        'Ours (issue 33 §4): never done and due by this date, still ahead ("Due by <date>"; status stays missing).',
    }),
    counted: t.exposeBoolean('counted', {
      description:
        "Ours: false for a new requirement's cell inside its grace period, left out of every score.",
    }),
  }),
});

type MatrixRow = MatrixUser & { score: number; cells: MatrixCell[] };

const MatrixRowRef = builder.objectRef<MatrixRow>('MatrixRow').implement({
  description: 'A person of the matrix with their cells.',
  fields: (t) => ({
    id: t.exposeID('id'),
    user_id: t.int({ resolve: (r) => r.id }),
    name: t.exposeString('name'),
    primary_entity_id: t.exposeInt('primary_entity_id'),
    role_id: t.exposeInt('role_id', { nullable: true }),
    new_starter: t.exposeBoolean('new_starter'),
    score: t.exposeInt('score', { description: 'Mandatory score, 0-100 (primary_scores in REST).' }),
    cells: t.field({ type: [MatrixCellRef], resolve: (r) => r.cells }),
  }),
});

const MatrixCourseRef = builder.objectRef<MatrixCourse>('MatrixCourse').implement({
  fields: (t) => ({ id: t.exposeID('id'), title: t.exposeString('title') }),
});
const MatrixRoleRef = builder.objectRef<MatrixRole>('MatrixRole').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    entity_id: t.exposeInt('entity_id'),
  }),
});

interface MatrixPaginator {
  data: MatrixRow[];
  paginatorInfo: PaginatorInfo;
  courses: MatrixCourse[];
  roles: MatrixRole[];
}

const MatrixPaginatorRef = builder.objectRef<MatrixPaginator>('MatrixPaginator').implement({
  description:
    'A page of the matrix’s people; courses and roles are the columns and roles of the whole matrix.',
  fields: (t) => ({
    data: t.field({ type: [MatrixRowRef], resolve: (p) => p.data }),
    paginatorInfo: t.field({ type: PaginatorInfoRef, resolve: (p) => p.paginatorInfo }),
    courses: t.field({ type: [MatrixCourseRef], resolve: (p) => p.courses }),
    roles: t.field({ type: [MatrixRoleRef], resolve: (p) => p.roles }),
  }),
});

builder.queryField('matrix', (t) =>
  t.field({
    type: MatrixPaginatorRef,
    description:
      'POST /api/reports/matrix (directFormat json) paged by people: permission 12, the caller’s scope (acting-as).',
    args: {
      ...pageArgs(t.arg),
      entities: t.arg.intList(),
      roles: t.arg.intList(),
      courses: t.arg.intList(),
      users: t.arg.intList(),
      pathways: t.arg.intList(),
      compliance_type: t.arg.string({ description: 'primary (default), secondary or all.' }),
      new_starters_filter: t.arg.string({
        description: 'include_new_starters (default), exclude_new_starters or new_starters_only.',
      }),
      includeStatusTypes: t.arg.stringList({ description: 'Only cells with these statuses.' }),
      deep: t.arg.boolean({ description: 'With descendants (default true).' }),
    },
    resolve: async (_root, { first, page, ...filters }, ctx) => {
      actorOf(ctx); // as the REST route: 401 before 422
      const query = parseInput(MatrixPageQuery, { ...restPage({ first, page }), ...nullless(filters) });
      const { page: p, per_page, ...matrixFilters } = query;
      const result: MatrixPage = await matrixPage(ctx, matrixFilters, p, per_page);
      const byUser = new Map<number, MatrixCell[]>();
      for (const c of result.cells) {
        const list = byUser.get(c.user_id);
        if (list) list.push(c);
        else byUser.set(c.user_id, [c]);
      }
      const rows = result.users.map((u) => ({ ...u, cells: byUser.get(u.id) ?? [] }));
      return {
        ...toPaginator(rows, result.total, p, per_page),
        courses: result.courses,
        roles: result.roles,
      };
    },
  }),
);
