import {
  EraseBody,
  LeavingDateBody,
  type PersonalDataExport,
  type UserDataProtection,
  UserRefParams,
} from '@cc/contracts';
import {
  erasePerson,
  exportPersonalData,
  saveLeavingDate,
  userDataProtection,
} from '../data-protection/service';
import { actorOf } from '../http/context';
import { builder } from './builder';
import { parseInput } from './input';

/**
 * Data protection (issue 35 §4) over GraphQL: queries `userDataProtection` and `personalData` (the subject access
 * export, as JSON; its request is audited), mutations `setLeavingDate` and `erasePersonalDetails`. The same services
 * as the REST routes (docs/data-protection.md): self or a manager with 18 over the person, NOT_FOUND outside scope.
 */
const State = builder.objectRef<UserDataProtection>('UserDataProtection').implement({
  fields: (t) => ({
    left_on: t.exposeString('left_on', { nullable: true }),
    erased_at: t.exposeString('erased_at', { nullable: true }),
    retention_years: t.exposeInt('retention_years'),
    records_removed_on: t.exposeString('records_removed_on', { nullable: true }),
    may_export: t.exposeBoolean('may_export'),
    may_set_leaving_date: t.exposeBoolean('may_set_leaving_date'),
    may_erase: t.exposeBoolean('may_erase'),
  }),
});

const ref = (id: string | number) => parseInput(UserRefParams, { id: String(id) }).id;

builder.queryFields((t) => ({
  userDataProtection: t.field({
    type: State,
    description:
      'GET /api/users/{id}/data-protection: leaving date, erasure, retention and what the caller may do.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return userDataProtection(ctx, ref(args.id));
    },
  }),
  personalData: t.field({
    type: 'JSON',
    description: 'GET /api/users/{id}/personal-data: everything held about the person (audited).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx): Promise<PersonalDataExport> => {
      actorOf(ctx);
      return (await exportPersonalData(ctx, ref(args.id))).data;
    },
  }),
}));

builder.mutationField('setLeavingDate', (t) =>
  t.field({
    type: State,
    description: 'PUT /api/users/{id}/leaving-date: YYYY-MM-DD, or null when they have not left.',
    args: { id: t.arg.id({ required: true }), left_on: t.arg.string() },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return saveLeavingDate(
        ctx,
        ref(args.id),
        parseInput(LeavingDateBody, { left_on: args.left_on ?? null }),
      );
    },
  }),
);

builder.mutationField('erasePersonalDetails', (t) =>
  t.field({
    type: State,
    description: 'POST /api/users/{id}/erase: a leaver’s personal details erased; the training record kept.',
    args: { id: t.arg.id({ required: true }), confirm_name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return erasePerson(ctx, ref(args.id), parseInput(EraseBody, { confirm_name: args.confirm_name }));
    },
  }),
);
