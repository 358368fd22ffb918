import { type Role, RoleListQuery, SlugParams } from '@cc/contracts';
import { actorOf } from '../http/context';
import { listRoles } from '../roles/service';
import { EntityRefRef } from './auth';
import { builder } from './builder';
import { defined, parseInput } from './input';
import { pageArgs, paginatorOf, restPage, toPaginator } from './paging';

export const RoleRef = builder.objectRef<Role>('Role').implement({
  description: 'A job role of an entity (or inherited from its level A parent).',
  fields: (t) => ({
    id: t.exposeID('id'),
    entity_id: t.exposeInt('entity_id'),
    entity: t.field({ type: EntityRefRef, nullable: true, resolve: (r) => r.entity ?? null }),
    name: t.exposeString('name'),
    inspectable: t.exposeBoolean('inspectable'),
    inherited: t.boolean({ nullable: true, resolve: (r) => r.inherited ?? null }),
    users_count: t.int({ nullable: true, resolve: (r) => r.users_count ?? null }),
  }),
});

const RolePaginator = paginatorOf(RoleRef, 'Role');

builder.queryField('roles', (t) =>
  t.field({
    type: RolePaginator,
    description: 'GET /api/entities/{slug}/roles: the entity’s job roles and those it inherits.',
    args: {
      entity: t.arg.string({ required: true, description: 'The entity’s slug.' }),
      ...pageArgs(t.arg),
      search: t.arg.string(),
      inspectable: t.arg.boolean({
        description: 'Only inspectable (true) or only not (false); all when absent.',
      }),
    },
    resolve: async (_root, { entity, first, page, search, inspectable }, ctx) => {
      actorOf(ctx); // as the REST route: 401 before 422
      const { slug } = parseInput(SlugParams, { slug: entity });
      const query = parseInput(
        RoleListQuery,
        defined({
          ...restPage({ first, page }),
          search: search ?? undefined,
          inspectable: inspectable === true ? '1' : inspectable === false ? '0' : undefined,
        }),
      );
      const { data, total } = await listRoles(ctx, slug, query);
      return toPaginator(data, total, query.page, query.per_page);
    },
  }),
);
