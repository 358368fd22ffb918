import { z } from 'zod';
import { EntityRef } from './bookings';
import { PageQuery } from './common';

/**
 * Webhooks (issue 18; permission 112; route /webhooks). Deliveries follow the Standard Webhooks convention
 * (webhook-id, webhook-timestamp, webhook-signature `v1,<base64 HMAC-SHA256>`; two signatures during a secret
 * rotation). The events an organisation can subscribe to (payloads documented in the OpenAPI document, GET
 * /webhooks/event-types):
 */
export const WEBHOOK_EVENT_TYPES = [
  'result.recorded',
  'compliance.status_changed',
  'user.created',
  'user.updated',
  'booking.changed',
  'care_certificate.approved',
  'pathway.completed',
  'document.acknowledged',
  'import.completed',
  'webhook.test',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const WebhookPerm = { manage: 112 } as const;

/** The events an endpoint can subscribe to (webhook.test is sent on request only, to one endpoint). */
export const SUBSCRIBABLE_WEBHOOK_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'webhook.test');

const person = { user_id: 1042, user_uuid: '6f1c2a3e-0b7d-4b8e-9a51-2d3c4e5f6a7b' };
/** What each event means and an example of its `data` (the body is `{type, timestamp, data}`). */
export const WEBHOOK_EVENT_DOCS: Record<
  WebhookEventType,
  { description: string; example: Record<string, unknown> }
> = {
  'result.recorded': {
    description: 'A training result was recorded for a person (a course completed, attended or imported).',
    example: {
      ...person,
      course_id: 17,
      course_uuid: '0d8e7f6a-5b4c-4d3e-8f2a-1b0c9d8e7f6a',
      type: 'elearning',
      status: 'passed',
      completed_at: '2026-03-02T10:15:00.000Z',
      expires_at: '2027-03-02T10:15:00.000Z',
    },
  },
  'compliance.status_changed': {
    description:
      "A recorded result changed a person's status for a course their job role requires (before and after).",
    example: {
      ...person,
      course_id: 17,
      course_uuid: '0d8e7f6a-5b4c-4d3e-8f2a-1b0c9d8e7f6a',
      before: 'expired',
      after: 'compliant',
      expires_at: '2027-03-02T10:15:00.000Z',
    },
  },
  'user.created': {
    description: 'A person was added to the organisation.',
    example: {
      ...person,
      entity_id: 12,
      role_id: 4,
      type_id: 2,
      start_date: '2026-03-09',
      created_at: '2026-03-02T10:15:00.000Z',
    },
  },
  'user.updated': {
    description: "A person's details changed: the names of the fields that changed (never their password).",
    example: { ...person, entity_id: 12, changed: ['name', 'role_id'] },
  },
  'booking.changed': {
    description:
      'A place on a training session changed: change is what happened (requested, booked, waitlisted, offered, accepted, declined, removed, restored, approved, marked for attendance, session_cancelled), status the place after it (accepted, attended, absent...).',
    example: {
      user_id: 1042,
      delegate_id: 503,
      session_id: 88,
      session_uuid: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      course_id: 17,
      change: 'booked',
      status: 'accepted',
    },
  },
  'care_certificate.approved': {
    description: "A standard of a person's Care Certificate, or the whole certificate, was approved.",
    example: {
      user_id: 1042,
      care_certificate_uuid: '3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b',
      standard_id: 5,
      certificate_completed: false,
    },
  },
  'pathway.completed': {
    description: 'A person completed a learning pathway.',
    example: {
      user_id: 1042,
      allocation_id: 211,
      pathway_course_id: 58,
      result_id: 9120,
      signed_off: false,
      completed_at: '2026-03-02T10:15:00.000Z',
    },
  },
  'document.acknowledged': {
    description: 'A person read and acknowledged a version of a policy document.',
    example: { ...person, document_id: 14, version: 3, acknowledged_at: '2026-03-02T10:15:00.000Z' },
  },
  'import.completed': {
    description:
      'A CSV import finished applying: the import (its uuid, as in the importer logs), what it created and updated, the rows it left unchanged and the rows with errors.',
    example: {
      uuid: '5c4b3a29-1807-4f6e-9d5c-4b3a29180706',
      kind: 'users',
      counts: { created: 120, updated: 4, unchanged: 30, errors: 1 },
    },
  },
  'webhook.test': {
    description: 'A test event sent from the webhooks page to check that the endpoint receives and verifies.',
    example: { endpoint_id: 3, message: 'This is a test event from CareCompliance.' },
  },
};

export const WebhookMessages = {
  created: 'Webhook endpoint added.',
  updated: 'Webhook endpoint updated.',
  deleted: 'Webhook endpoint deleted.',
  rotated: 'New signing secret created: the old one keeps working for 24 hours.',
  testSent: 'Test event sent.',
  resent: 'Delivery sent again.',
  // Refusals (shown by the URL field).
  urlInvalid: 'Enter a full web address starting with https://.',
  urlHttps: 'The address must start with https://.',
  urlCredentials: 'Leave the user name and password out of the address.',
  urlNotFound: 'This address could not be found: check the host name.',
  urlPrivate:
    'This address points to a private or local network, which webhooks cannot reach. Use a public address.',
  chooseEvents: 'Choose at least one event.',
} as const;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

const url = z
  .string({ error: WebhookMessages.urlInvalid })
  .trim()
  .min(1, WebhookMessages.urlInvalid)
  .max(2000, 'The address is too long (2,000 characters at most).');
const eventTypes = z
  .array(
    z.enum(SUBSCRIBABLE_WEBHOOK_EVENT_TYPES as [string, ...string[]], {
      error: 'Choose events from the list.',
    }),
  )
  .min(1, WebhookMessages.chooseEvents)
  .max(WEBHOOK_EVENT_TYPES.length);
const description = z.string().trim().max(500, 'Keep the description under 500 characters.').nullish();

export const CreateWebhookBody = z.object({
  /** The organisation's slug (default: the actor's, or the acting-as one). */
  entity: z.string().max(120).optional(),
  url,
  description,
  event_types: eventTypes,
  enabled: z.boolean().optional(),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;
export const UpdateWebhookBody = z.object({
  url: url.optional(),
  description,
  event_types: eventTypes.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WebhookListQuery = PageQuery;
export const WebhookDeliveriesQuery = PageQuery.pick({ page: true, per_page: true }).extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { error: 'Choose pending, succeeded or failed.' }).optional(),
});

export const WebhookLastDelivery = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  at: z.string(),
  response_code: z.number().nullable(),
});
export const WebhookEndpointView = z.object({
  id: z.number(),
  uuid: z.string(),
  entity: EntityRef,
  url: z.string(),
  description: z.string().nullable(),
  event_types: z.array(WebhookEventType),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  last_delivery: WebhookLastDelivery.nullable(),
  /**
   * The signing secret (whsec_…), only in the answers of create and rotate: it is shown that once and never again
   * (stored sealed, issue 29 §14). Lost, it is replaced by a rotation.
   */
  secret: z.string().optional(),
  /** GET /webhooks/{id}, create and rotate: until when the secret before the last rotation signs too, or null. */
  previous_secret_expires_at: z.string().nullable().optional(),
});
export type WebhookEndpointView = z.infer<typeof WebhookEndpointView>;

export const WebhookAttemptView = z.object({
  id: z.number(),
  attempted_at: z.string(),
  response_code: z.number().nullable(),
  duration_ms: z.number(),
  response_body: z.string().nullable(),
  error: z.string().nullable(),
  succeeded: z.boolean(),
});
export type WebhookAttemptView = z.infer<typeof WebhookAttemptView>;

export const WebhookDeliveryView = z.object({
  id: z.number(),
  event_id: z.string(),
  event_type: WebhookEventType,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  last_attempt: WebhookAttemptView.nullable(),
  payload: z.record(z.string(), z.unknown()),
});
export type WebhookDeliveryView = z.infer<typeof WebhookDeliveryView>;

export const WebhookEventTypeDoc = z.object({
  type: WebhookEventType,
  description: z.string(),
  example: z.object({
    type: WebhookEventType,
    timestamp: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
});
export type WebhookEventTypeDoc = z.infer<typeof WebhookEventTypeDoc>;
export const WebhookEventTypesResponse = z.object({ data: z.array(WebhookEventTypeDoc) });
