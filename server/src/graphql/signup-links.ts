import {
  CERTIFICATE_WHEN,
  type CreatedSignupLink,
  CreateSignupLinkBody,
  SIGNUP_LINK_STATUSES,
  SIGNUP_STATUSES,
  SignupLinkListQuery,
  SignupLinkParams,
  type SignupLinkView,
  SignupListQuery,
  type SignupView,
} from '@cc/contracts';
import { actorOf } from '../http/context';
import {
  approveSignup,
  createSignupLink,
  listSignupLinks,
  listSignupsOf,
  rejectSignup,
  revokeSignupLink,
} from '../signup-links/service';
import { EntityRefRef, NamedRef } from './auth';
import { PersonObject } from './bookings-sessions';
import { builder } from './builder';
import { defined, parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * Sign-up links (issue 18; contracts signup-links.ts), the manager's operations: query `signUpLinks` (and
 * `signUps`, the sign-ups waiting for approval), mutations `createSignUpLink`, `revokeSignUpLink`, `approveSignUp`,
 * `rejectSignUp`. Each parses its input with the REST route's schema and calls the same service: no rule lives here.
 * The public page (open a link, sign up) is REST only: it sets the session cookie.
 */

const CertificateVersionObject = builder
  .objectRef<NonNullable<SignupLinkView['care_certificate']>['version']>('SignUpLinkCertificateVersion')
  .implement({
    fields: (t) => ({ id: t.exposeID('id'), code: t.exposeString('code'), title: t.exposeString('title') }),
  });

const CertificateObject = builder
  .objectRef<NonNullable<SignupLinkView['care_certificate']>>('SignUpLinkCertificate')
  .implement({
    fields: (t) => ({
      version: t.field({ type: CertificateVersionObject, resolve: (c) => c.version }),
      when: t.exposeString('when', { description: CERTIFICATE_WHEN.join(', ') }),
    }),
  });

const linkFields = (
  t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<object>, SignupLinkView>,
) => ({
  id: t.exposeID('id'),
  uuid: t.exposeString('uuid'),
  entity: t.field({ type: EntityRefRef, resolve: (l: SignupLinkView) => l.entity }),
  role: t.field({ type: NamedRef, resolve: (l: SignupLinkView) => l.role }),
  type: t.field({ type: NamedRef, nullable: true, resolve: (l: SignupLinkView) => l.type }),
  start_date: t.exposeString('start_date'),
  expires_at: t.exposeString('expires_at'),
  max_uses: t.exposeInt('max_uses', { nullable: true }),
  uses: t.exposeInt('uses'),
  pending: t.exposeInt('pending', { description: 'Sign-ups waiting for approval.' }),
  status: t.exposeString('status', { description: SIGNUP_LINK_STATUSES.join(', ') }),
  care_certificate: t.field({
    type: CertificateObject,
    nullable: true,
    resolve: (l: SignupLinkView) => l.care_certificate,
  }),
  created_by: t.field({ type: PersonObject, nullable: true, resolve: (l: SignupLinkView) => l.created_by }),
  created_at: t.exposeString('created_at'),
  revoked_at: t.exposeString('revoked_at', { nullable: true }),
});

const SignUpLinkObject = builder.objectRef<SignupLinkView>('SignUpLink').implement({
  description: 'A sign-up link of a home for new starters (its address is shown once, at creation).',
  // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the link's shape.
  fields: (t) => linkFields(t as any),
});

const CreatedSignUpLinkObject = builder.objectRef<CreatedSignupLink>('CreatedSignUpLink').implement({
  description: 'A new sign-up link with its address: copy it now, it is not shown again.',
  fields: (t) => ({
    // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the link's shape.
    ...linkFields(t as any),
    url: t.exposeString('url'),
    token: t.exposeString('token'),
  }),
});

const UserRefObject = builder.objectRef<NonNullable<SignupView['user']>>('SignUpUser').implement({
  fields: (t) => ({ id: t.exposeID('id'), uuid: t.exposeString('uuid') }),
});

const SignUpLinkRefObject = builder.objectRef<SignupView['link']>('SignUpLinkRef').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    entity: t.field({ type: EntityRefRef, resolve: (l) => l.entity }),
    role: t.field({ type: NamedRef, resolve: (l) => l.role }),
    start_date: t.exposeString('start_date'),
  }),
});

const SignUpObject = builder.objectRef<SignupView>('SignUp').implement({
  description: 'An account made through a sign-up link, and its approval.',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    name: t.exposeString('name'),
    email: t.exposeString('email'),
    status: t.exposeString('status', { description: SIGNUP_STATUSES.join(', ') }),
    account: t.exposeString('account', {
      nullable: true,
      description: 'After a rejection: removed or deactivated.',
    }),
    user: t.field({ type: UserRefObject, nullable: true, resolve: (s) => s.user }),
    link: t.field({ type: SignUpLinkRefObject, resolve: (s) => s.link }),
    created_at: t.exposeString('created_at'),
    decided_at: t.exposeString('decided_at', { nullable: true }),
    decided_by: t.field({ type: PersonObject, nullable: true, resolve: (s) => s.decided_by }),
  }),
});

const SignUpLinkPaginator = paginatorOf(SignUpLinkObject, 'SignUpLink');
const SignUpPaginator = paginatorOf(SignUpObject, 'SignUp');

const idOf = (id: string | number) => parseInput(SignupLinkParams, { id }).id;

builder.queryField('signUpLinks', (t) =>
  t.field({
    type: SignUpLinkPaginator,
    description: 'GET /api/signup-links (3): links of homes in scope, newest first.',
    args: {
      ...pageArgs(t.arg),
      entity_id: t.arg.int(),
      show: t.arg.string({ description: 'active (default) or all.' }),
    },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(SignupLinkListQuery, args, (q) => listSignupLinks(ctx, q));
    },
  }),
);

builder.queryField('signUps', (t) =>
  t.field({
    type: SignUpPaginator,
    description: 'GET /api/signup-links/signups (3): sign-ups through links of homes in scope.',
    args: {
      ...pageArgs(t.arg),
      status: t.arg.string({ description: 'pending (default), approved or rejected.' }),
      link_id: t.arg.int(),
      search: t.arg.string(),
    },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(SignupListQuery, args, (q) => listSignupsOf(ctx, q));
    },
  }),
);

const CreateSignUpLinkInput = builder.inputType('CreateSignUpLinkInput', {
  fields: (t) => ({
    entity_id: t.int({ required: true }),
    role_id: t.int({ required: true }),
    type_id: t.int(),
    start_date: t.string({ required: true, description: 'YYYY-MM-DD.' }),
    expires_in_days: t.int({ description: 'Default 14, at most 90.' }),
    max_uses: t.int(),
    care_certificate_version_id: t.int(),
    care_certificate_when: t.string({ description: CERTIFICATE_WHEN.join(', ') }),
  }),
});

builder.mutationField('createSignUpLink', (t) =>
  t.field({
    type: CreatedSignUpLinkObject,
    description: 'POST /api/signup-links (3; 86 too with a certificate).',
    args: { input: t.arg({ type: CreateSignUpLinkInput, required: true }) },
    resolve: (_root, { input }, ctx) => {
      actorOf(ctx);
      const sent = defined({ ...input });
      if (sent.expires_in_days === null) delete sent.expires_in_days;
      return createSignupLink(ctx, parseInput(CreateSignupLinkBody, sent));
    },
  }),
);

builder.mutationField('revokeSignUpLink', (t) =>
  t.field({
    type: SignUpLinkObject,
    description: 'POST /api/signup-links/{id}/revoke (3): works at once.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => {
      actorOf(ctx);
      return revokeSignupLink(ctx, idOf(id));
    },
  }),
);

builder.mutationField('approveSignUp', (t) =>
  t.field({
    type: SignUpObject,
    description: 'POST /api/signup-links/signups/{id}/approve (3).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => {
      actorOf(ctx);
      return approveSignup(ctx, idOf(id));
    },
  }),
);

builder.mutationField('rejectSignUp', (t) =>
  t.field({
    type: SignUpObject,
    description:
      'POST /api/signup-links/signups/{id}/reject (3): the account is removed, or kept and deactivated when it has training records.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      actorOf(ctx);
      return (await rejectSignup(ctx, idOf(id))).view;
    },
  }),
);
