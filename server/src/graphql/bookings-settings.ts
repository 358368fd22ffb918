import {
  type DelegateSettings,
  DelegateSettingsUpdate,
  SlugParams,
  type TrainingProviderSettings,
  TrainingProviderSettingsUpdate,
  UNDER_MINIMUM_ACTIONS,
} from '@cc/contracts';
import {
  getDelegateSettings,
  getTrainingProviderSettings,
  updateDelegateSettings,
  updateTrainingProviderSettings,
} from '../bookings/settings';
import { actorOf } from '../http/context';
import { builder } from './builder';
import { defined, parseInput } from './input';

/**
 * Training provider and delegate settings over GraphQL (issue 15): the same services as
 * /api/entities/{slug}/training-provider-settings and /api/entities/{slug}/delegate-settings.
 */
const UnderMinimumAction = builder.enumType('UnderMinimumAction', { values: UNDER_MINIMUM_ACTIONS });

const TrainingProviderSettingsRef = builder
  .objectRef<TrainingProviderSettings>('TrainingProviderSettings')
  .implement({
    description: 'A training company\'s rules for its sessions (spec 2 §3 "Training company settings").',
    fields: (t) => ({
      entity_id: t.exposeInt('entity_id'),
      delegate_auto_accept_period: t.exposeInt('delegate_auto_accept_period'),
      delegate_removal_cutoff_hours: t.exposeInt('delegate_removal_cutoff_hours'),
      practical_min_delegates: t.exposeInt('practical_min_delegates'),
      practical_max_delegates: t.exposeInt('practical_max_delegates'),
      theory_min_delegates: t.exposeInt('theory_min_delegates'),
      theory_max_delegates: t.exposeInt('theory_max_delegates'),
      waitlist_claim_hours: t.exposeInt('waitlist_claim_hours'),
      waitlist_cutoff_hours: t.exposeInt('waitlist_cutoff_hours'),
      minimum_decision_hours: t.exposeInt('minimum_decision_hours'),
      under_minimum_action: t.field({ type: UnderMinimumAction, resolve: (s) => s.under_minimum_action }),
    }),
  });

const DelegateSettingsRef = builder.objectRef<DelegateSettings>('DelegateSettings').implement({
  description: "How an organisation's staff are booked on training sessions.",
  fields: (t) => ({
    entity_id: t.exposeInt('entity_id'),
    require_approval: t.exposeBoolean('require_approval'),
    allow_self_cancel: t.exposeBoolean('allow_self_cancel'),
    send_calendar_invites: t.exposeBoolean('send_calendar_invites'),
    notify_managers: t.exposeBoolean('notify_managers'),
  }),
});

const TrainingProviderSettingsInput = builder.inputType('TrainingProviderSettingsInput', {
  description: 'Only the fields sent change.',
  fields: (t) => ({
    delegate_auto_accept_period: t.int(),
    delegate_removal_cutoff_hours: t.int(),
    practical_min_delegates: t.int(),
    practical_max_delegates: t.int(),
    theory_min_delegates: t.int(),
    theory_max_delegates: t.int(),
    waitlist_claim_hours: t.int(),
    waitlist_cutoff_hours: t.int(),
    minimum_decision_hours: t.int(),
    under_minimum_action: t.field({ type: UnderMinimumAction }),
  }),
});

const DelegateSettingsInput = builder.inputType('DelegateSettingsInput', {
  description: 'Only the fields sent change.',
  fields: (t) => ({
    require_approval: t.boolean(),
    allow_self_cancel: t.boolean(),
    send_calendar_invites: t.boolean(),
    notify_managers: t.boolean(),
  }),
});

const slugOf = (slug: string) => parseInput(SlugParams, { slug }).slug;

builder.queryField('trainingProviderSettings', (t) =>
  t.field({
    type: TrainingProviderSettingsRef,
    description: 'GET /api/entities/{slug}/training-provider-settings (110; a training company in scope).',
    args: { slug: t.arg.string({ required: true }) },
    resolve: async (_root, { slug }, ctx) => {
      actorOf(ctx);
      return getTrainingProviderSettings(ctx, slugOf(slug));
    },
  }),
);

builder.queryField('delegateSettings', (t) =>
  t.field({
    type: DelegateSettingsRef,
    description: 'GET /api/entities/{slug}/delegate-settings (9 or 11 on the organisation in scope).',
    args: { slug: t.arg.string({ required: true }) },
    resolve: async (_root, { slug }, ctx) => {
      actorOf(ctx);
      return getDelegateSettings(ctx, slugOf(slug));
    },
  }),
);

builder.mutationField('updateTrainingProviderSettings', (t) =>
  t.field({
    type: TrainingProviderSettingsRef,
    description:
      'PATCH /api/entities/{slug}/training-provider-settings over GraphQL: only the fields sent change.',
    args: {
      slug: t.arg.string({ required: true }),
      input: t.arg({ type: TrainingProviderSettingsInput, required: true }),
    },
    resolve: async (_root, { slug, input }, ctx) => {
      actorOf(ctx);
      const body = parseInput(TrainingProviderSettingsUpdate, defined({ ...input }));
      return updateTrainingProviderSettings(ctx, slugOf(slug), body);
    },
  }),
);

builder.mutationField('updateDelegateSettings', (t) =>
  t.field({
    type: DelegateSettingsRef,
    description: 'PATCH /api/entities/{slug}/delegate-settings over GraphQL: only the fields sent change.',
    args: {
      slug: t.arg.string({ required: true }),
      input: t.arg({ type: DelegateSettingsInput, required: true }),
    },
    resolve: async (_root, { slug, input }, ctx) => {
      actorOf(ctx);
      return updateDelegateSettings(
        ctx,
        slugOf(slug),
        parseInput(DelegateSettingsUpdate, defined({ ...input })),
      );
    },
  }),
);
