import {
  AuthUser,
  DocumentSummary,
  LibraryView,
  OfflineDownload,
  OfflineSyncOutcome,
  PageLinks,
  PageMeta,
  PathwaySummary,
  PushDevice,
  ResultView,
  TaskView,
  UserDetail,
  UserSummary,
  WebhookEndpointView,
} from '@cc/contracts';
import { z } from 'zod';

/**
 * Hand-written documentation for the routes an integrator calls first, keyed by "METHOD /api/path" as the OpenAPI
 * document writes it ({id}, not :id). Everything here only changes the document: the route's own validation and
 * serialisation are untouched. Each example is checked against its schema by openapi.test.ts, so an example that
 * drifts from the contract fails the suite instead of misleading an integrator.
 *
 * To document another route: add its key with a summary, and a `response` schema plus `responseExample` when the
 * route declares no response schema itself. Routes without an entry get a generated summary and examples.
 */
export interface OperationDoc {
  summary?: string;
  description?: string;
  /** The success status; needed with `response` (the route declares none, so the document cannot know). */
  status?: number;
  /** The success answer's schema, documented for a route that declares none. */
  response?: z.ZodType;
  responseExample?: unknown;
  bodyExample?: unknown;
}

const paged = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: PageMeta, links: PageLinks });
const one = <T extends z.ZodType>(item: T) => z.object({ data: item, message: z.string().optional() });

const PHONE = {
  id: 12,
  platform: 'android',
  device_name: 'Google Pixel 8',
  current: true,
  created_at: '2026-03-02T08:15:00.000Z',
  updated_at: '2026-03-02T08:15:00.000Z',
};

const links = (path: string) => ({ first: `${path}?page=1`, last: `${path}?page=1`, prev: null, next: null });
const meta = (total: number) => ({ current_page: 1, last_page: 1, per_page: 15, total, from: 1, to: total });

const GROUP = { id: 1, slug: 'rosewood-care-group', name: 'Rosewood Care Group' };
const HOME = { id: 2, slug: 'rosewood-care-home', name: 'Rosewood Care Home' };
const CARE_ASSISTANT = { id: 3, name: 'Care assistant' };
const STAFF = { id: 4, name: 'Staff' };

const amara = {
  id: 12,
  uuid: '3f2c9a1e-7b4d-4c8e-9a21-5d6e7f809a1b',
  name: 'Amara Okafor',
  email: 'amara.okafor@example.org',
  is_trainer: false,
  start_date: '2025-09-01',
  primary_entity: HOME,
  role: CARE_ASSISTANT,
  type: STAFF,
};
const amaraDetail = {
  ...amara,
  primary_entity: { ...HOME, level: 'B' },
  super_admin: false,
  a_entity: GROUP,
  email_verified: true,
  pending_email: null,
  last_login_at: '2026-03-02T08:14:09.000Z',
  created_at: '2025-08-20T10:02:44.000Z',
};

const authUser = {
  id: 12,
  uuid: amara.uuid,
  name: 'Amara Okafor',
  email: 'amara.okafor@example.org',
  emailVerified: true,
  super_admin: false,
  is_trainer: false,
  primary_entity: { ...HOME, level: 'B' },
  a_entity: {
    ...GROUP,
    can_view_internal_bookings: true,
    can_view_external_bookings: false,
    can_manage_bookings: false,
    can_see_new_dashboards: true,
  },
  user_preferences: {},
  role: CARE_ASSISTANT,
  type: STAFF,
  permissions: [{ id: 6, slug: 'own certificates' }],
  password_change_required: false,
};

const historicalResult = {
  id: 481,
  uuid: '9b1e4c2d-5f6a-4b7c-8d9e-0a1b2c3d4e5f',
  type: 'historical',
  status: 'approved',
  passed: true,
  score: null,
  completed_at: '2026-01-15T00:00:00.000Z',
  expires_at: '2027-01-15T00:00:00.000Z',
  notes: 'Practical session with the moving and handling trainer.',
  certificate_suppressed: false,
  admin_only: false,
  user: { id: 12, uuid: amara.uuid, name: 'Amara Okafor' },
  course: { id: 7, title: 'Moving and handling' },
  content: null,
  entity: { id: 2, name: 'Rosewood Care Home' },
  evidence: null,
  created_by: { id: 3, name: 'Grace Mensah' },
  approved_by: null,
  approved_at: null,
  bulk_operation_id: null,
  created_at: '2026-03-02T09:30:00.000Z',
  updated_at: '2026-03-02T09:30:00.000Z',
};
const elearningResult = {
  ...historicalResult,
  id: 377,
  uuid: '1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5',
  type: 'elearning',
  score: 90,
  completed_at: '2025-10-06T14:12:00.000Z',
  expires_at: '2026-10-06T14:12:00.000Z',
  notes: null,
  course: { id: 9, title: 'Safeguarding adults' },
  content: { id: 21, title: 'Safeguarding adults e-learning' },
  created_by: null,
};

const Tally = z.object({
  users: z.number(),
  required: z.number(),
  in_date: z.number(),
  expiring: z.number(),
  expired: z.number(),
  missing: z.number(),
  exempt: z.number(),
});
const Figures = Tally.extend({ score: z.number() });
const tally = { users: 2, required: 4, in_date: 2, expiring: 1, expired: 0, missing: 1, exempt: 0 };

const ComplianceReport = z.object({
  months: z.array(Figures.extend({ month: z.string() })),
  courses: z.array(Figures.extend({ id: z.number(), title: z.string() })),
  entities: z.array(
    Figures.extend({
      id: z.number(),
      name: z.string(),
      slug: z.string(),
      level: z.enum(['A', 'B']),
      parent_id: z.number().nullable(),
      own: Figures,
    }),
  ),
  totals: Figures,
  generated_at: z.string(),
});

const CELL_STATUS = z.enum(['in_date', 'expiring', 'expired', 'missing', 'exempt']);
const MatrixData = z.object({
  breakdown: z.object({ top_level: Figures.extend({ total_users: z.number() }).passthrough() }).passthrough(),
  cells: z.array(
    z.object({
      course_id: z.number(),
      in_date_passed: z.boolean(),
      in_expiry_warning_period: z.boolean(),
      latest_result_completed: z.string().nullable(),
      latest_result_expires: z.string().nullable(),
      latest_result_id: z.number().nullable(),
      primary_entity_id: z.number(),
      result_count: z.number(),
      role_id: z.number().nullable(),
      type: z.enum(['primary', 'secondary', 'other']),
      user_id: z.number(),
      status: CELL_STATUS,
    }),
  ),
  users: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      primary_entity_id: z.number(),
      role_id: z.number().nullable(),
      new_starter: z.boolean(),
    }),
  ),
  courses: z.array(z.object({ id: z.number(), title: z.string() })),
  roles: z.array(z.object({ id: z.number(), name: z.string(), entity_id: z.number() })),
  results: z.array(
    z.object({
      id: z.number(),
      user_id: z.number(),
      course_id: z.number(),
      completed: z.string(),
      expires: z.string().nullable(),
    }),
  ),
  primary_scores: z.array(z.object({ user_id: z.number(), score: z.number() })),
  pathway_allocations: z.array(z.unknown()),
});

const CourseItem = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  short_title: z.string().nullable(),
  published: z.boolean(),
  kind: z.enum(['course', 'document', 'pathway']),
  document_id: z.number().nullable(),
  pathway_id: z.number().nullable(),
  entity_id: z.number().nullable(),
  platform: z.boolean(),
  category: z.object({ id: z.number(), name: z.string() }).nullable(),
  contents_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

const course = (id: number, title: string) => ({
  id,
  uuid: `0c4f6a2e-1b3d-4e5f-8a9b-${String(id).padStart(12, '0')}`,
  title,
  short_title: null,
  published: true,
  kind: 'course',
  document_id: null,
  pathway_id: null,
  entity_id: 1,
  platform: false,
  category: { id: 2, name: 'Mandatory training' },
  contents_count: 1,
  created_at: '2025-06-01T09:00:00.000Z',
  updated_at: '2026-02-11T16:45:00.000Z',
});

/** A webhook endpoint as reads show it: never its signing secret (issue 29 §14). */
const HR_ENDPOINT = {
  id: 5,
  uuid: '6d1f0c3a-2b4e-4f5a-9c8d-7e6f5a4b3c2d',
  entity: GROUP,
  url: 'https://hr.example.com/webhooks/carecompliance',
  description: 'HR system',
  event_types: ['user.created', 'user.updated'],
  enabled: true,
  created_at: '2026-03-02T10:00:00.000Z',
  updated_at: '2026-03-02T10:00:00.000Z',
  last_delivery: { status: 'succeeded', at: '2026-03-02T10:15:02.000Z', response_code: 204 },
  previous_secret_expires_at: null,
};
const WEBHOOK_SECRET_ONCE =
  'The answer holds the signing secret (`secret`, whsec_…) this once: it is stored sealed and no read shows it ' +
  'again. Keep it in the receiving system; if it is lost, rotate it.';

export const OPERATIONS: Record<string, OperationDoc> = {
  'POST /api/login': {
    summary: 'Sign in (browser session)',
    description:
      'spec 1 §7: GET /sanctum/csrf-cookie first, then send its XSRF-TOKEN cookie back as the X-XSRF-TOKEN header. ' +
      'Answers the signed-in user and sets the session cookie. Integrations use a personal access token instead.',
    bodyExample: { email: 'amara.okafor@example.org', password: 'Correct-Horse-Battery-9', remember: true },
    responseExample: { data: authUser },
  },
  'POST /api/auth/login': {
    summary: 'Sign in from a device (bearer token)',
    description:
      'For the mobile app: answers a bearer token for the Authorization header, and the signed-in user.',
    status: 200,
    response: one(z.object({ token: z.string(), device_token: z.string().nullable(), user: AuthUser })),
    bodyExample: {
      email: 'amara.okafor@example.org',
      password: 'Correct-Horse-Battery-9',
      device_name: "Amara's phone",
    },
    responseExample: {
      data: {
        token: '14|Jm3kQ8rV2xN7pL5tW9yB4cD6fH1gK0sA',
        device_token: 'dvc_7Yp2Lq9Rz4Xw',
        user: authUser,
      },
    },
  },
  // issue 29 §13: the spec's GET stays, but only reads; sending is a POST, so no page can make the server send mail.
  'GET /api/auth/{uuid}/verification-send': {
    summary: 'Read whether an address is verified',
    description:
      'Sends nothing. Whether the user\'s e-mail address is verified, and how many seconds until a new verification link may be sent. Your own account, or a user of your organisations with permission 18 who holds no access you do not hold; anyone else is "not found".',
    responseExample: { data: { email_verified: false, send_in_seconds: 0 } },
  },
  'POST /api/auth/{uuid}/verification-send': {
    summary: 'Send a new verification link',
    description:
      'E-mails a new verification link (at most one a minute per account; 429 sooner). Your own account, or a user of your organisations with permission 18 who holds no access you do not hold; anyone else is "not found".',
  },
  // issue 29 §8: the way in for the owner while failed sign-ins elsewhere hold the account's new devices back.
  'POST /api/auth/unlock-sign-in': {
    summary: 'Follow a mailed sign-in unlock link',
    description:
      'Spends the one-time link mailed to an account while failed sign-ins hold back its new devices (429 at sign-in), and makes this browser (its cc_device cookie) a known device of the account: its next sign-in with the right password is not held back by failures elsewhere. Needs no sign-in; a used, expired or unknown link is 422.',
    bodyExample: { token: 'Xq3nV8kR1tB6yL0pW4sD9fH2jM7cZ5aE' },
  },
  // issue 38: the spec lists restricted_access_password among the entity's settings; it is write-only here.
  'GET /api/entities/{id}': {
    summary: 'Get an entity',
    description:
      'One organisation or site by id or slug, with its direct children and white-label settings. Write-only: the restricted-access password is never returned; has_restricted_access_password says whether one is set.',
  },
  'POST /api/entities': {
    summary: 'Create an entity',
    description:
      'A level A organisation or a level B site under one in your scope. Write-only: the restricted-access password is never returned; reads answer has_restricted_access_password.',
  },
  'PATCH /api/entities/{id}': {
    summary: 'Update an entity',
    description:
      'Changes only the fields sent. Write-only: the restricted-access password is never returned (it is stored hashed); reads answer has_restricted_access_password.',
  },
  'GET /api/users': {
    summary: 'List users',
    description:
      "People of the caller's organisation (the acting-as one when set), 15 a page by default; deep=1 adds its sub-organisations (spec 1 §7: deep is a filter the caller sends, as on GET /auth-events/active).",
    status: 200,
    response: paged(UserSummary),
    responseExample: {
      data: [
        amara,
        {
          ...amara,
          id: 14,
          uuid: '7d8e9f0a-1b2c-4d3e-8f4a-5b6c7d8e9f0a',
          name: 'Daniel Hughes',
          email: 'daniel.hughes@example.org',
          start_date: '2026-03-02',
        },
      ],
      meta: meta(2),
      links: links('/api/users'),
    },
  },
  'POST /api/users': {
    summary: 'Create a user',
    description:
      'A new member of staff in one of your organisations; send_welcome_email mails them a link to set a password.',
    status: 201,
    response: one(UserDetail),
    bodyExample: {
      name: 'Daniel Hughes',
      email: 'daniel.hughes@example.org',
      primary_entity_id: 2,
      role_id: 3,
      type_id: 4,
      start_date: '2026-03-02',
      send_welcome_email: true,
    },
    responseExample: {
      data: {
        ...amaraDetail,
        id: 14,
        uuid: '7d8e9f0a-1b2c-4d3e-8f4a-5b6c7d8e9f0a',
        name: 'Daniel Hughes',
        email: 'daniel.hughes@example.org',
        start_date: '2026-03-02',
        email_verified: false,
        last_login_at: null,
        created_at: '2026-03-02T09:30:00.000Z',
      },
      message: 'User has been created.',
    },
  },
  'GET /api/users/{id}': {
    summary: 'Get one user',
    description: '{id} is the numeric id or the uuid.',
    status: 200,
    response: one(UserDetail),
    responseExample: { data: amaraDetail },
  },
  'GET /api/users/{id}/results': {
    summary: "List a user's results",
    description: 'Every result of one person (e-learning, face-to-face, historical, exempt), newest first.',
    status: 200,
    response: paged(ResultView),
    responseExample: {
      data: [historicalResult, elearningResult],
      meta: meta(2),
      links: links('/api/users/12/results'),
    },
  },
  'GET /api/results/{id}': {
    summary: 'Get one result',
    status: 200,
    response: one(ResultView),
    responseExample: { data: historicalResult },
  },
  'POST /api/results/historical/create': {
    summary: 'Record a historical result',
    description:
      'Training done elsewhere or before the platform: JSON, or multipart with the same fields and an `evidence` ' +
      'file. A learner recording their own waits for approval (status "pending").',
    status: 201,
    response: one(ResultView),
    bodyExample: {
      user_id: 12,
      course_id: 7,
      completed_at: '2026-01-15',
      passed: true,
      notes: 'Practical session with the moving and handling trainer.',
    },
    responseExample: { data: historicalResult, message: 'Historical result has been created.' },
  },
  'POST /api/reports/matrix': {
    summary: 'Training matrix',
    description:
      'People × courses, each cell in date / expiring / expired / missing / exempt. directFormat "json" answers ' +
      'the matrix below; "file" with format pdf or xlsx answers the file; emailFormat queues an e-mail (202).',
    status: 200,
    response: one(MatrixData),
    bodyExample: { directFormat: 'json', entities: [2], compliance_type: 'primary', deep: true },
    responseExample: {
      data: {
        breakdown: { top_level: { ...tally, total_users: 2, score: 75 } },
        cells: [
          {
            course_id: 7,
            in_date_passed: true,
            in_expiry_warning_period: false,
            latest_result_completed: '2026-01-15',
            latest_result_expires: '2027-01-15',
            latest_result_id: 481,
            primary_entity_id: 2,
            result_count: 2,
            role_id: 3,
            type: 'primary',
            user_id: 12,
            status: 'in_date',
          },
          {
            course_id: 9,
            in_date_passed: false,
            in_expiry_warning_period: false,
            latest_result_completed: null,
            latest_result_expires: null,
            latest_result_id: null,
            primary_entity_id: 2,
            result_count: 0,
            role_id: 3,
            type: 'primary',
            user_id: 14,
            status: 'missing',
          },
        ],
        users: [
          { id: 12, name: 'Amara Okafor', primary_entity_id: 2, role_id: 3, new_starter: false },
          { id: 14, name: 'Daniel Hughes', primary_entity_id: 2, role_id: 3, new_starter: true },
        ],
        courses: [
          { id: 7, title: 'Moving and handling' },
          { id: 9, title: 'Safeguarding adults' },
        ],
        roles: [{ id: 3, name: 'Care assistant', entity_id: 1 }],
        results: [{ id: 481, user_id: 12, course_id: 7, completed: '2026-01-15', expires: '2027-01-15' }],
        primary_scores: [
          { user_id: 12, score: 100 },
          { user_id: 14, score: 50 },
        ],
        pathway_allocations: [],
      },
    },
  },
  'POST /api/reports/compliance': {
    summary: 'Compliance report',
    description:
      'Figures per course, per organisation and for the last months. 300 when it would take too long to answer ' +
      'at once (expected_time says how long); emailFormat queues it by e-mail instead.',
    status: 200,
    response: one(ComplianceReport),
    bodyExample: {
      entities: [1],
      deep: true,
      compliance_type: 'primary',
      new_starters_filter: 'include_new_starters',
      previousMonths: 3,
    },
    responseExample: {
      data: {
        months: [{ month: '2026-02', ...tally, score: 75 }],
        courses: [
          { id: 7, title: 'Moving and handling', ...tally, score: 75 },
          { id: 9, title: 'Safeguarding adults', ...tally, score: 75 },
        ],
        entities: [
          {
            ...GROUP,
            level: 'A',
            parent_id: null,
            ...tally,
            score: 75,
            own: { ...tally, users: 0, required: 0, in_date: 0, expiring: 0, missing: 0, score: 100 },
          },
          { ...HOME, level: 'B', parent_id: 1, ...tally, score: 75, own: { ...tally, score: 75 } },
        ],
        totals: { ...tally, score: 75 },
        generated_at: '2026-03-02T09:30:00.000Z',
      },
    },
  },
  'GET /api/courses': {
    summary: 'List courses',
    description: "Courses the caller may see: their organisations' own and the platform library.",
    status: 200,
    response: paged(CourseItem).extend({ message: z.string().optional() }),
    responseExample: {
      data: [course(7, 'Moving and handling'), course(9, 'Safeguarding adults')],
      meta: { ...meta(2), per_page: 10 },
      links: links('/api/courses'),
      message: 'Courses have been fetched.',
    },
  },
  'GET /api/pathways': {
    summary: 'List pathways',
    description:
      'Learning pathways (induction programmes) with how many people are in progress, awaiting sign-off or done.',
    status: 200,
    response: paged(PathwaySummary),
    responseExample: {
      data: [
        {
          id: 5,
          uuid: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
          title: 'Care assistant induction',
          description: 'The first twelve weeks: Care Certificate standards, shadow shifts and sign-off.',
          entity: GROUP,
          course_id: 31,
          sequential: true,
          requires_final_sign_off: true,
          version: 2,
          step_count: 6,
          counts: { in_progress: 4, awaiting_sign_off: 1, completed: 9 },
          updated_at: '2026-02-20T11:00:00.000Z',
        },
      ],
      meta: meta(1),
      links: links('/api/pathways'),
    },
  },
  'GET /api/libraries': {
    summary: 'List document libraries',
    description: 'Policy libraries of your organisations, with how many documents each holds.',
    status: 200,
    response: paged(LibraryView),
    responseExample: {
      data: [
        {
          id: 2,
          uuid: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
          name: 'Policies and procedures',
          description: 'Policies every member of staff reads and acknowledges.',
          entity: GROUP,
          document_count: 14,
          updated_at: '2026-02-27T15:20:00.000Z',
          can: { manage: true },
        },
      ],
      meta: meta(1),
      links: links('/api/libraries'),
    },
  },
  'GET /api/libraries/{id}/documents': {
    summary: 'List the documents of a library',
    description:
      "Each document with its current version and the caller's own status (to read, acknowledged...).",
    status: 200,
    response: paged(DocumentSummary),
    responseExample: {
      data: [
        {
          id: 8,
          uuid: '8c9d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0e1f',
          title: 'Safeguarding adults policy',
          description: 'How we recognise, report and record concerns.',
          library: { id: 2, name: 'Policies and procedures' },
          entity: GROUP,
          course_id: 44,
          version: 3,
          updated_at: '2026-02-27T15:20:00.000Z',
          my_status: 'to_read',
        },
      ],
      meta: meta(1),
      links: links('/api/libraries/2/documents'),
    },
  },
  'GET /api/tasks': {
    summary: 'List my tasks in progress',
    description:
      "The caller's own long jobs (exports, e-mailed reports, imports, bulk attempts): progress, result, error.",
    status: 200,
    // The example is generated from the contract's TaskView.
    response: paged(TaskView),
  },
  'POST /api/offline/downloads': {
    summary: 'Download a content to take offline',
    description:
      "For the caller's own learning: lessons, topics, quiz questions without their answers' correctness, and the " +
      'package files as signed, short-lived URLs. Quote download_id in every attempt synced from this copy.',
    status: 201,
    response: one(OfflineDownload),
    bodyExample: { content_id: 12 },
  },
  'POST /api/offline/attempts': {
    summary: 'Sync an attempt taken offline',
    description:
      'Idempotent by client_uuid: 201 the first time, 200 with the same outcome for a resend. The server grades ' +
      'the answers (or reads the SCORM data), keeps the attempt beside any online one and says which rule decided ' +
      'whether it counts for the result.',
    status: 201,
    response: one(OfflineSyncOutcome),
    bodyExample: {
      client_uuid: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      download_id: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
      content_id: 12,
      started_at: '2026-03-02T09:15:00.000Z',
      completed_at: '2026-03-02T09:41:00.000Z',
      completed_topic_ids: [31, 32],
      quiz_responses: { '7': { '70': [701], '71': [705, 707] } },
    },
  },
  'GET /api/push-devices': {
    summary: 'List my phones registered for push notifications',
    description: 'current marks the phone registered with the token making the call. Tokens are never shown.',
    status: 200,
    response: z.object({ data: z.array(PushDevice) }),
    responseExample: { data: [PHONE] },
  },
  'POST /api/push-devices': {
    summary: 'Register this phone for push notifications',
    description:
      "The token is the platform's (FCM on Android, APNs on iOS). A token already registered moves to the caller. " +
      'Registered with a mobile login token, the phone is removed when that token logs out.',
    status: 201,
    response: one(PushDevice),
    bodyExample: {
      token: 'fcm-registration-token-from-the-phone',
      platform: 'android',
      device_name: 'Google Pixel 8',
    },
    responseExample: { data: PHONE, message: 'This device will receive notifications.' },
  },
  'DELETE /api/push-devices/{id}': {
    summary: 'Stop push notifications to one of my phones',
    description: "Another user's phone answers 404, like a missing one.",
  },
  // Issue 29 §14: a webhook's signing secret is shown once, in the answer that made it.
  'POST /api/webhooks': {
    summary: 'Add a webhook endpoint',
    description: `For the named organisation (its slug) or your own. ${WEBHOOK_SECRET_ONCE}`,
    status: 201,
    response: one(WebhookEndpointView),
    bodyExample: {
      url: 'https://hr.example.com/webhooks/carecompliance',
      description: 'HR system',
      event_types: ['user.created', 'user.updated'],
    },
    responseExample: {
      data: {
        ...HR_ENDPOINT,
        last_delivery: null,
        secret: 'whsec_ZXhhbXBsZSBzaWduaW5nIGtleSBvbmUh',
      },
      message: 'Webhook endpoint added.',
    },
  },
  'GET /api/webhooks/{id}': {
    summary: 'Get a webhook endpoint',
    description:
      'Its events, status, last delivery and, after a rotation, until when the previous secret signs too. Never the signing secret: it is shown once, when created or rotated.',
    status: 200,
    response: one(WebhookEndpointView),
    responseExample: { data: HR_ENDPOINT },
  },
  'POST /api/webhooks/{id}/rotate-secret': {
    summary: 'Rotate the signing secret of a webhook endpoint',
    description: `A new secret signs from now on; the previous one signs too for 24 hours (two signatures in webhook-signature), so the receiver can switch without losing an event. ${WEBHOOK_SECRET_ONCE}`,
    status: 200,
    response: one(WebhookEndpointView),
    responseExample: {
      data: {
        ...HR_ENDPOINT,
        updated_at: '2026-03-09T09:00:00.000Z',
        previous_secret_expires_at: '2026-03-10T09:00:00.000Z',
        secret: 'whsec_ZXhhbXBsZSBzaWduaW5nIGtleSB0d28h',
      },
      message: 'New signing secret created: the old one keeps working for 24 hours.',
    },
  },
};
