/**
 * Tenant isolation (issue 2 §7, STYLE.md "Outsider tests for every endpoint"): every route is called as a user of
 * another organisation who holds every permission (expects the same 404 as a missing id) and as an insider who holds
 * none (expects 403), and the database must be unchanged afterwards. A coverage check fails when a new /api route is
 * added without being listed here.
 */
import { PERMISSIONS, SESSION_COOKIE } from '@cc/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import yauzl from 'yauzl';
import { createSession } from '../src/auth/queries';
import {
  DELEGATE_EXEMPT,
  DELEGATE_TABLES,
  type DelegateFixture,
  delegateCases,
  delegateFixture,
  delegateLists,
} from '../src/bookings/delegate-tenancy';
import { insertSession } from '../src/bookings/sessions-world';
import {
  CORE_EXEMPT,
  CORE_TABLES,
  type CoreFixture,
  coreCases,
  coreFixture,
  coreLists,
} from '../src/care-certificate/tenancy-core';
import {
  CARE_CERTIFICATE_REPORT_EXEMPT,
  type CareCertificateReportFixture,
  careCertificateReportCases,
  careCertificateReportFixture,
  careCertificateReportLists,
} from '../src/care-certificate/tenancy-report';
import {
  WORKFLOW_TABLES,
  type WorkflowFixture,
  workflowCases,
  workflowFixture,
  workflowLists,
} from '../src/care-certificate/tenancy-workflow';
import {
  DESIGNER_TABLES,
  type DesignerFixture,
  designerCases,
  designerFixture,
  designerLists,
} from '../src/designer/tenancy-designer';
import {
  DOCUMENTS_EXEMPT,
  DOCUMENTS_TABLES,
  type DocumentsFixture,
  documentsCases,
  documentsFixture,
  documentsLists,
} from '../src/documents/tenancy-documents';
import { openApiPath } from '../src/http/openapi/transform';
import {
  IMPORTER_EXEMPT,
  IMPORTER_TABLES,
  type ImporterFixture,
  importerCases,
  importerFixture,
  importerLists,
} from '../src/importer/tenancy-importer';
import {
  PATHWAY_EXEMPT,
  PATHWAY_TABLES,
  type PathwayFixture,
  pathwayCases,
  pathwayFixture,
  pathwayLists,
} from '../src/pathways/tenancy-pathways';
import { PUSH_EXEMPT, type PushFixture, pushCases, pushFixture, pushLists } from '../src/push/tenancy-push';
import { recordResult } from '../src/results/service';
import {
  SIGNUP_LINK_EXEMPT,
  SIGNUP_LINK_TABLES,
  type SignupLinkFixture,
  signupLinkCases,
  signupLinkFixture,
  signupLinkGraphql,
  signupLinkLists,
} from '../src/signup-links/tenancy-signup-links';
import { TASK_EXEMPT, type TaskFixture, taskCases, taskFixture, taskLists } from '../src/tasks/tenancy-tasks';
import {
  personalTokenHeaders,
  TOKEN_EXEMPT,
  type TokensFixture,
  tokenCases,
  tokenLists,
  tokensFixture,
} from '../src/tokens/tenancy-tokens';
import {
  WEBHOOKS_TABLES,
  type WebhooksFixture,
  webhooksCases,
  webhooksFixture,
  webhooksLists,
} from '../src/webhooks/tenancy-webhooks';
import {
  buildCategory,
  buildContent,
  buildContentImage,
  buildCourse,
  buildH5p,
  buildLesson,
  buildQuiz,
  buildTopic,
} from './content-factories';
import { bearer, buildEntity, buildRole, buildType, buildUser, TEST_PASSWORD } from './factories';
import { createHarness, type Harness, webLogin } from './harness';
import { multipart, scorm12Package } from './package-factories';
import { pdfText } from './pdf-text';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
/**
 * Planted in the target organisation's names (organisation, site, role, user, course, tag): no answer another
 * organisation can get (lists, searches, reports, exports in any format, GraphQL, the websocket) may contain it.
 */
const CANARY = 'Qx7Canary';
/** What searches look for: it finds the canary by prefix, and echoing it back is not the canary. */
const CANARY_PREFIX = CANARY.slice(0, 6);
interface Fixture {
  org: { id: number; slug: string };
  site: { id: number; slug: string };
  victim: { id: number; uuid: string; email: string };
  role: { id: number };
  type: { id: number };
  grant: { id: number };
  victimSession: string;
  // Authoring (issue 4): items owned by the target organisation; titles are the secrets lists must not show.
  category: { id: number; name: string };
  course: { id: number; title: string };
  content: { id: number; title: string };
  lesson: { id: number; title: string };
  topic: { id: number; title: string };
  quiz: { id: number; title: string; questionIds: number[] };
  h5p: { id: number; title: string };
  image: { id: number };
  // Learning (issue 4): the victim's attempt and passed result.
  attempt: { id: number };
  result: { id: number };
  // Report presets and schedules (issue 5 item 5): the victim's own.
  presets: { presetId: number; presetName: string; scheduleId: number };
  // Results (issue 5 item 1): the victim's exemption, a pending historical result, and a bulk add.
  results: { exemptId: number; pendingId: number; bulkId: number };
  // Compliance (issue 5 items 2, 3): a role-course row of the target organisation.
  compliance: { ruleId: number };
  // Tags: a tag of the target's site with the victim linked.
  tag: { id: number; name: string };
  // Inspection pack (issue 13): a pack of the target's site.
  pack: { uuid: string };
  // Messaging (issue 14): a message to the victim from a colleague, its text carrying the canary.
  message: { id: number };
  // Notifications (issue 14): an in-app reminder of the victim's.
  notification: { id: number };
  // Delegates (issue 15): the target's session, the victim's booking on it, an order of the target's.
  delegates: DelegateFixture;
  // Face-to-face training (issue 15): a session of the target's site; a trainer of it (issue 33 §3: the picker).
  trainingSession: { id: number };
  trainer: { id: number };
  // Care Certificate report (issue 16): a certificate of the victim's.
  careCertificateReport: CareCertificateReportFixture;
  // The Care Certificate (issue 16): the victim's certificate with an evidence file.
  careCertificate: CoreFixture;
  // The content designer (issue 17): a design of the target's site.
  designer: DesignerFixture;
  // Pathways (issue 17): the target's pathway, allocated to the victim and to the victim's role.
  pathway: PathwayFixture;
  // Care Certificate workflow (issue 16): the victim's certificate with an observation, a historical one.
  workflow: WorkflowFixture;
  // Documents and libraries (issue 17): a library of the target's site with a document.
  documents: DocumentsFixture;
  // Tasks in progress (issue 18): a finished task of the victim's, with a file.
  task: TaskFixture;
  push: PushFixture;
  // Personal access tokens (issue 18): the victim's token.
  tokens: TokensFixture;
  // Webhooks (issue 18): an endpoint of the target's site with a delivery.
  webhooks: WebhooksFixture;
  // Sign-up links (issue 18): a link of the target's site and a new starter's pending sign-up.
  signupLinks: SignupLinkFixture;
  // Importer (issue 18): a planned import of the target's home with an error row.
  importer: ImporterFixture;
}
interface Case {
  method: Method;
  route: string;
  url: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /** 'scoped': outsider 404, insider without permission 403. 'own': only the owner may (404 for everyone else). */
  kind: 'scoped' | 'own';
}

/** A builder of cases of one kind: (method, route, url, body?) → Case. */
const caseOf =
  (kind: Case['kind']) =>
  (method: Method, route: string, url: (f: Fixture) => string, body?: (f: Fixture) => unknown): Case => ({
    method,
    route,
    url,
    ...(body ? { body } : {}),
    kind,
  });

/** Data protection (issue 35 §4): a person's export, leaving date and erasure, an organisation's retention period. */
function dataProtectionCases(): Case[] {
  const s = caseOf('scoped');
  return [
    s('GET', '/api/users/:id/data-protection', (f) => `/api/users/${f.victim.id}/data-protection`),
    s('GET', '/api/users/:id/personal-data', (f) => `/api/users/${f.victim.id}/personal-data`),
    s('GET', '/api/users/:id/personal-data.pdf', (f) => `/api/users/${f.victim.id}/personal-data.pdf`),
    s(
      'PUT',
      '/api/users/:id/leaving-date',
      (f) => `/api/users/${f.victim.id}/leaving-date`,
      () => ({ left_on: '2026-01-31' }),
    ),
    s(
      'POST',
      '/api/users/:id/erase',
      (f) => `/api/users/${f.victim.id}/erase`,
      () => ({ confirm_name: 'Anyone' }),
    ),
    s('GET', '/api/entities/:slug/data-protection', (f) => `/api/entities/${f.site.slug}/data-protection`),
    s(
      'PUT',
      '/api/entities/:slug/data-protection',
      (f) => `/api/entities/${f.site.slug}/data-protection`,
      () => ({ retention_years: 2 }),
    ),
  ];
}

/** The ASC-WDS training export (issue 37 §1): a home's workplace ID, a course's category, the preview, the file. */
function ascWdsCases(): Case[] {
  const s = caseOf('scoped');
  const base = (f: Fixture) => `/api/entities/${f.site.slug}/asc-wds`;
  return [
    s('GET', '/api/entities/:slug/asc-wds', base),
    s('PUT', '/api/entities/:slug/asc-wds', base, () => ({ local_establishment_id: 'TAKEN1' })),
    s(
      'PUT',
      '/api/entities/:slug/asc-wds/categories/:courseId',
      (f) => `${base(f)}/categories/${f.course.id}`,
      () => ({ category: 6 }),
    ),
    s('GET', '/api/entities/:slug/asc-wds/training', (f) => `${base(f)}/training?since=all`),
    s('POST', '/api/entities/:slug/asc-wds/exports', (f) => `${base(f)}/exports?since=all`),
  ];
}

interface ListCase {
  method: Method;
  route: string;
  url: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /** Strings from the target organisation that must not appear in the outsider's answer. */
  secrets: (f: Fixture) => string[];
  /** Insider without permissions: 403, or 200 when the route is open to every member. */
  insider: 403 | 200;
}

const SCOPED: Case[] = [
  { method: 'GET', route: '/api/entities/:id', url: (f) => `/api/entities/${f.site.slug}`, kind: 'scoped' },
  // Matrix (issue 5 item 4): another organisation's entity answers 404; without permission 12, 403.
  {
    method: 'POST',
    route: '/api/reports/matrix',
    url: () => '/api/reports/matrix',
    body: (f) => ({ entities: [f.org.id], directFormat: 'json' }),
    kind: 'scoped',
  },
  {
    method: 'PATCH',
    route: '/api/entities/:id',
    url: (f) => `/api/entities/${f.site.id}`,
    body: () => ({ name: 'Taken over' }),
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/entities/:id/send-welcome-email',
    url: (f) => `/api/entities/${f.site.id}/send-welcome-email`,
    kind: 'scoped',
  },
  {
    // Issue 29 §7: the organisation asks to be listed as a training company.
    method: 'POST',
    route: '/api/entities/:id/training-company/request',
    url: (f) => `/api/entities/${f.org.slug}/training-company/request`,
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/entities/:id/children',
    url: (f) => `/api/entities/${f.org.slug}/children`,
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/entities/:id/whitelabel',
    url: (f) => `/api/entities/${f.site.slug}/whitelabel`,
    body: () => ({ primaryColour: '#000000' }),
    kind: 'scoped',
  },
  {
    method: 'PATCH',
    route: '/api/entities/:id/whitelabel',
    url: (f) => `/api/entities/${f.site.slug}/whitelabel`,
    body: () => ({ primaryColour: '#000000' }),
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/auth/:uuid/verification-send',
    url: (f) => `/api/auth/${f.victim.uuid}/verification-send`,
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/auth/:uuid/verification-send',
    url: (f) => `/api/auth/${f.victim.uuid}/verification-send`,
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/auth/logout/:id',
    url: (f) => `/api/auth/logout/${f.victimSession}`,
    kind: 'own',
  },
  { method: 'GET', route: '/api/users/:id', url: (f) => `/api/users/${f.victim.uuid}`, kind: 'scoped' },
  {
    method: 'PATCH',
    route: '/api/users/:id',
    url: (f) => `/api/users/${f.victim.id}`,
    body: () => ({ name: 'Taken over' }),
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/users/:id/send-welcome-email',
    url: (f) => `/api/users/${f.victim.id}/send-welcome-email`,
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/users/:id/permissions',
    url: (f) => `/api/users/${f.victim.id}/permissions`,
    kind: 'scoped',
  },
  // Account activity and sign-in metrics (issue 13).
  {
    method: 'GET',
    route: '/api/users/:id/auth-events',
    url: (f) => `/api/users/${f.victim.uuid}/auth-events`,
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/auth-events/:entity/metrics',
    url: (f) => `/api/auth-events/${f.org.slug}/metrics`,
    body: () => ({ fromDate: '2026-01-01', toDate: '2026-01-01', period: 'h', deep: true }),
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/users',
    url: () => '/api/users',
    body: (f) => ({
      name: 'Planted',
      email: 'planted@example.test',
      primary_entity_id: f.site.id,
      send_welcome_email: false,
    }),
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/entities/:slug/roles',
    url: (f) => `/api/entities/${f.org.slug}/roles`,
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/entities/:slug/roles',
    url: (f) => `/api/entities/${f.org.slug}/roles`,
    body: () => ({ name: 'Planted' }),
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/entities/:slug/roles/:id',
    url: (f) => `/api/entities/${f.org.slug}/roles/${f.role.id}`,
    kind: 'scoped',
  },
  {
    method: 'PATCH',
    route: '/api/entities/:slug/roles/:id',
    url: (f) => `/api/entities/${f.org.slug}/roles/${f.role.id}`,
    body: () => ({ name: 'Taken over' }),
    kind: 'scoped',
  },
  {
    method: 'DELETE',
    route: '/api/entities/:slug/roles/:id',
    url: (f) => `/api/entities/${f.org.slug}/roles/${f.role.id}`,
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/roles/:id/details',
    url: (f) => `/api/roles/${f.role.id}/details`,
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/entities/:slug/types',
    url: (f) => `/api/entities/${f.org.slug}/types`,
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/entities/:slug/types',
    url: (f) => `/api/entities/${f.org.slug}/types`,
    body: () => ({ name: 'Planted' }),
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/entities/:slug/types/:id',
    url: (f) => `/api/entities/${f.org.slug}/types/${f.type.id}`,
    kind: 'scoped',
  },
  {
    method: 'PATCH',
    route: '/api/entities/:slug/types/:id',
    url: (f) => `/api/entities/${f.org.slug}/types/${f.type.id}`,
    body: () => ({ name: 'Taken over' }),
    kind: 'scoped',
  },
  {
    method: 'DELETE',
    route: '/api/entities/:slug/types/:id',
    url: (f) => `/api/entities/${f.org.slug}/types/${f.type.id}`,
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/types/:id/details',
    url: (f) => `/api/types/${f.type.id}/details`,
    kind: 'scoped',
  },
  // The spec's addresses of the same figures, seen from an organisation (issue 38): another's slug is a 404.
  ...(['roles', 'types'] as const).flatMap((kind): Case[] => [
    {
      method: 'GET',
      route: `/api/entities/:slug/${kind}/stats`,
      url: (f) => `/api/entities/${f.org.slug}/${kind}/stats`,
      kind: 'scoped',
    },
    {
      method: 'GET',
      route: `/api/entities/:slug/${kind}/:id/details`,
      url: (f) => `/api/entities/${f.org.slug}/${kind}/${kind === 'roles' ? f.role.id : f.type.id}/details`,
      kind: 'scoped',
    },
  ]),
  {
    method: 'GET',
    route: '/api/entity-permissions/:slug/permissions',
    url: (f) => `/api/entity-permissions/${f.site.slug}/permissions`,
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/entity-permissions',
    url: () => '/api/entity-permissions',
    body: (f) => ({ entity: f.site.slug, permission_ids: [21] }),
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/entity-permissions/:slug/delete',
    url: (f) => `/api/entity-permissions/${f.site.slug}/delete`,
    body: () => ({ permission_ids: [21] }),
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/type-permissions/type/:typeId',
    url: (f) => `/api/type-permissions/type/${f.type.id}`,
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/type-permissions/:typeId',
    url: (f) => `/api/type-permissions/${f.type.id}`,
    body: () => ({ permission_ids: [21] }),
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/type-permissions/:typeId/delete',
    url: (f) => `/api/type-permissions/${f.type.id}/delete`,
    body: () => ({ permission_ids: [21] }),
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/permissions',
    url: (f) => `/api/permissions?user_id=${f.victim.id}`,
    kind: 'scoped',
  },
  {
    method: 'POST',
    route: '/api/permissions',
    url: () => '/api/permissions',
    body: (f) => ({ user_id: f.victim.id, permission_id: 22 }),
    kind: 'scoped',
  },
  {
    method: 'GET',
    route: '/api/permissions/:id',
    url: (f) => `/api/permissions/${f.grant.id}`,
    kind: 'scoped',
  },
  {
    method: 'PATCH',
    route: '/api/permissions/:id',
    url: (f) => `/api/permissions/${f.grant.id}`,
    body: () => ({ permission_id: 22 }),
    kind: 'scoped',
  },
  {
    method: 'DELETE',
    route: '/api/permissions/:id',
    url: (f) => `/api/permissions/${f.grant.id}`,
    kind: 'scoped',
  },
  // Authoring (issue 4). Creates name the target organisation as acting-as entity: 404 outside it.
  ...authoringCases(),
  // Learning (issue 4).
  ...learningCases(),
  ...packageCases(),
  ...presetCases(),
  ...resultCases(),
  ...complianceCases(),
  ...reportCases(),
  ...tagCases(),
  ...messagingCases(),
  ...notificationCases(),
  ...delegateCases(),
  ...coreCases(),
  ...pathwayCases(),
  ...tokenCases(),
  ...workflowCases(),
  ...bookingExtrasCases(),
  ...trainingSessionCases(),
  ...careCertificateReportCases(),
  ...designerCases(),
  ...documentsCases(),
  ...taskCases(),
  ...pushCases(),
  ...webhooksCases(),
  ...signupLinkCases(),
  ...importerCases(),
  ...dataProtectionCases(),
  ...ascWdsCases(),
];

/** Messaging (issue 14): the victim's mailbox and message, and sends to the target's site, role, tag, org. */
function messagingCases(): Case[] {
  const s = caseOf('scoped');
  const mailbox = (f: Fixture) => `/api/users/${f.victim.id}`;
  const planted = () => ({ message: 'Planted' });
  return [
    s('GET', '/api/users/:id/sent/messages', (f) => `${mailbox(f)}/sent/messages`),
    s(
      'GET',
      '/api/users/:id/sent/:recipient/messages',
      (f) => `${mailbox(f)}/sent/${f.victim.uuid}/messages`,
    ),
    s('GET', '/api/users/:id/received/messages', (f) => `${mailbox(f)}/received/messages`),
    s(
      'GET',
      '/api/users/:id/received/:sender/messages',
      (f) => `${mailbox(f)}/received/${f.victim.id}/messages`,
    ),
    s('DELETE', '/api/users/:id/messages/:messageId', (f) => `${mailbox(f)}/messages/${f.message.id}`),
    s(
      'PATCH',
      '/api/users/:id/received/messages/:messageId',
      (f) => `${mailbox(f)}/received/messages/${f.message.id}`,
      () => ({ read: true }),
    ),
    s(
      'POST',
      '/api/users/:id/message',
      (f) => `${mailbox(f)}/message`,
      (f) => ({ message: 'Planted', recipient: f.victim.id }),
    ),
    s(
      'POST',
      '/api/entities/:slug/roles/:roleId/message',
      (f) => `/api/entities/${f.site.slug}/roles/${f.role.id}/message`,
      planted,
    ),
    s('POST', '/api/entities/:slug/message', (f) => `/api/entities/${f.site.slug}/message`, planted),
    s('POST', '/api/tags/:id/message', (f) => `/api/tags/${f.tag.id}/message`, planted),
    s('POST', '/api/system/message/:id', (f) => `/api/system/message/${f.org.id}`, planted),
  ];
}

/** Tags: the target site's tag and its users; the drill-down by tags names the target site. */
function tagCases(): Case[] {
  const s = caseOf('scoped');
  return [
    s('GET', '/api/entities/:slug/tags', (f) => `/api/entities/${f.site.slug}/tags`),
    s(
      'POST',
      '/api/entities/:slug/tags',
      (f) => `/api/entities/${f.site.slug}/tags`,
      () => ({ name: 'Planted' }),
    ),
    s(
      'PATCH',
      '/api/tags/:id',
      (f) => `/api/tags/${f.tag.id}`,
      () => ({ name: 'Taken over' }),
    ),
    s('DELETE', '/api/tags/:id', (f) => `/api/tags/${f.tag.id}`),
    s('GET', '/api/tags/:id/users', (f) => `/api/tags/${f.tag.id}/users`),
    s(
      'POST',
      '/api/tags/:id/users',
      (f) => `/api/tags/${f.tag.id}/users`,
      (f) => ({ users: [f.victim.id] }),
    ),
    s('DELETE', '/api/tags/:id/users/:userId', (f) => `/api/tags/${f.tag.id}/users/${f.victim.id}`),
    s('GET', '/api/reports/drill-down/tags', (f) => `/api/reports/drill-down/tags?entity=${f.site.id}`),
    s(
      'GET',
      '/api/reports/drill-down/tags/:id/users',
      (f) => `/api/reports/drill-down/tags/${f.tag.id}/users?entity=${f.site.id}`,
    ),
  ];
}

/** Reports (issue 5 item 5): every report names the target's site (or its result); outsiders get 404. */
function reportCases(): Case[] {
  const site = (f: Fixture) => ({ entities: [f.site.id] });
  const c = caseOf('scoped');
  return [
    c('POST', '/api/reports/compliance', () => '/api/reports/compliance', site),
    c(
      'GET',
      '/api/reports/compliance/courses',
      (f) => `/api/reports/compliance/courses?entities=${f.site.id}`,
    ),
    c(
      'GET',
      '/api/reports/compliance/export/:format',
      (f) => `/api/reports/compliance/export/xlsx?entities=${f.site.id}`,
    ),
    c('GET', '/api/dashboards/manager', (f) => `/api/dashboards/manager?entity=${f.site.id}`),
    c(
      'GET',
      '/api/dashboards/manager/people',
      (f) => `/api/dashboards/manager/people?list=out_of_date&entity=${f.site.id}`,
    ),
    c('GET', '/api/dashboards/management', (f) => `/api/dashboards/management?entity=${f.site.id}`),
    // Who is behind (issue 33 §7): the target's home by id or slug.
    c('GET', '/api/dashboards/manager/behind', (f) => `/api/dashboards/manager/behind?entity=${f.site.id}`),
    c(
      'GET',
      '/api/dashboards/manager/behind/people',
      (f) => `/api/dashboards/manager/behind/people?entity=${f.site.slug}`,
    ),
    c(
      'POST',
      '/api/dashboards/manager/behind/remind',
      () => '/api/dashboards/manager/behind/remind',
      (f) => ({ entity: f.site.slug }),
    ),
    c('POST', '/api/entities/:slug/inspection-pack', (f) => `/api/entities/${f.site.slug}/inspection-pack`),
    c('GET', '/api/inspection-packs/:uuid', (f) => `/api/inspection-packs/${f.pack.uuid}`),
    c('GET', '/api/inspection-packs/:uuid/:kind', (f) => `/api/inspection-packs/${f.pack.uuid}/pdf`),
    c('POST', '/api/reports/role', () => '/api/reports/role', site),
    c('POST', '/api/reports/certificate', () => '/api/reports/certificate', site),
    c('POST', '/api/reports/results', () => '/api/reports/results', site),
    c('POST', '/api/reports/staff', () => '/api/reports/staff', site),
    c(
      'POST',
      '/api/report',
      () => '/api/report',
      (f) => ({ report_type: 'certificate', entities: [f.site.id] }),
    ),
    c(
      'POST',
      '/api/results/certificate/download-multiple',
      () => '/api/results/certificate/download-multiple',
      (f) => ({
        result_ids: [f.result.id],
      }),
    ),
    c(
      'GET',
      '/api/reports/drill-down/entities',
      (f) => `/api/reports/drill-down/entities?entity=${f.site.id}`,
    ),
    c('GET', '/api/reports/drill-down/:id/roles', (f) => `/api/reports/drill-down/${f.site.id}/roles`),
    c(
      'GET',
      '/api/reports/drill-down/:a/:b/users',
      (f) => `/api/reports/drill-down/${f.site.id}/${f.role.id}/users`,
    ),
  ];
}

function authoringCases(): Case[] {
  const s = caseOf('scoped');
  const acting = (path: string) => (f: Fixture) => `${path}?actingAs=${f.org.slug}`;
  const rename = () => ({ title: 'Taken over' });
  const cases: Case[] = [
    s('POST', '/api/courses', acting('/api/courses'), () => ({ title: 'Planted' })),
    s('GET', '/api/courses/:id', (f) => `/api/courses/${f.course.id}`),
    s('PATCH', '/api/courses/:id', (f) => `/api/courses/${f.course.id}`, rename),
    s('DELETE', '/api/courses/:id', (f) => `/api/courses/${f.course.id}`),
    s('POST', '/api/course-categories', acting('/api/course-categories'), () => ({ name: 'Planted' })),
    s(
      'PATCH',
      '/api/course-categories/:id',
      (f) => `/api/course-categories/${f.category.id}`,
      () => ({ name: 'Taken' }),
    ),
    s('DELETE', '/api/course-categories/:id', (f) => `/api/course-categories/${f.category.id}`),
    s('POST', '/api/content', acting('/api/content'), (f) => ({
      course_id: f.course.id,
      type: 'elearning',
      title: 'Planted',
    })),
    s('GET', '/api/content/:id', (f) => `/api/content/${f.content.id}`),
    s('PATCH', '/api/content/:id', (f) => `/api/content/${f.content.id}`, rename),
    s('DELETE', '/api/content/:id', (f) => `/api/content/${f.content.id}`),
    s('POST', '/api/content/images', acting('/api/content/images')),
    s(
      'POST',
      '/api/content/images/delete',
      () => '/api/content/images/delete',
      (f) => ({ id: f.image.id }),
    ),
    s(
      'POST',
      '/api/content/:contentId/lessons',
      (f) => `/api/content/${f.content.id}/lessons`,
      (f) => ({
        action: 'add',
        lesson_id: f.lesson.id,
      }),
    ),
    s(
      'POST',
      '/api/content/:contentId/quizzes',
      (f) => `/api/content/${f.content.id}/quizzes`,
      (f) => ({
        action: 'add',
        quiz_id: f.quiz.id,
      }),
    ),
    s(
      'POST',
      '/api/entity-content',
      () => '/api/entity-content',
      (f) => ({
        entity: f.site.slug,
        content_ids: [f.content.id],
      }),
    ),
    s('GET', '/api/entity-courses', (f) => `/api/entity-courses?entityIds=${f.site.id}`),
    s('POST', '/api/lessons', acting('/api/lessons'), () => ({ title: 'Planted' })),
    s('GET', '/api/lessons/:id', (f) => `/api/lessons/${f.lesson.id}`),
    s('PATCH', '/api/lessons/:id', (f) => `/api/lessons/${f.lesson.id}`, rename),
    s('DELETE', '/api/lessons/:id', (f) => `/api/lessons/${f.lesson.id}`),
    s(
      'POST',
      '/api/lessons/:lessonId/topics',
      (f) => `/api/lessons/${f.lesson.id}/topics`,
      (f) => ({
        action: 'add',
        topic_id: f.topic.id,
      }),
    ),
    s('POST', '/api/topics', acting('/api/topics'), () => ({ title: 'Planted' })),
    s('GET', '/api/topics/:id', (f) => `/api/topics/${f.topic.id}`),
    s(
      'PATCH',
      '/api/topics/:id',
      (f) => `/api/topics/${f.topic.id}`,
      (f) => ({ h5p_id: f.h5p.id }),
    ),
    s('DELETE', '/api/topics/:id', (f) => `/api/topics/${f.topic.id}`),
    s('POST', '/api/quizzes', acting('/api/quizzes'), () => ({ title: 'Planted' })),
    s('GET', '/api/quizzes/:id', (f) => `/api/quizzes/${f.quiz.id}`),
    s('PATCH', '/api/quizzes/:id', (f) => `/api/quizzes/${f.quiz.id}`, rename),
    s('DELETE', '/api/quizzes/:id', (f) => `/api/quizzes/${f.quiz.id}`),
    s(
      'POST',
      '/api/quizzes/:quizId/content/:contentId',
      (f) => `/api/quizzes/${f.quiz.id}/content/${f.content.id}`,
    ),
    s(
      'POST',
      '/api/questions/changeOrder',
      () => '/api/questions/changeOrder',
      (f) => ({
        quiz_id: f.quiz.id,
        ids: [...f.quiz.questionIds].reverse(),
      }),
    ),
    s('POST', '/api/h5ps', acting('/api/h5ps'), () => ({ title: 'Planted' })),
    s('GET', '/api/h5ps/:id', (f) => `/api/h5ps/${f.h5p.id}`),
    s('PATCH', '/api/h5ps/:id', (f) => `/api/h5ps/${f.h5p.id}`, rename),
    s('DELETE', '/api/h5ps/:id', (f) => `/api/h5ps/${f.h5p.id}`),
    // Feedback is open to learners who can see the content; the target's content is unpublished, so an insider
    // without the content creator permission cannot see it either (404, like 'own').
    {
      method: 'POST',
      route: '/api/feedback/:id',
      url: (f) => `/api/feedback/${f.content.id}`,
      body: () => ({ rating: 1 }),
      kind: 'own',
    },
  ];
  for (const kind of ['content', 'courses'] as const) {
    const item = (f: Fixture) => (kind === 'content' ? f.content.id : f.course.id);
    const key = kind === 'content' ? 'content_id' : 'course_id';
    const param = kind === 'content' ? ':contentId' : ':courseId';
    const base = (f: Fixture) => `/api/entities/${f.site.slug}/${kind}`;
    cases.push(
      s('GET', `/api/entities/:slug/${kind}`, base),
      s('POST', `/api/entities/:slug/${kind}`, base, (f) => ({ [key]: item(f) })),
      s(
        'PATCH',
        `/api/entities/:slug/${kind}/updateMultiple`,
        (f) => `${base(f)}/updateMultiple`,
        (f) => ({
          items: [{ [key]: item(f), enabled: false }],
        }),
      ),
      s(
        'PATCH',
        `/api/entities/:slug/${kind}/${param}`,
        (f) => `${base(f)}/${item(f)}`,
        () => ({ enabled: false }),
      ),
      s('DELETE', `/api/entities/:slug/${kind}/${param}`, (f) => `${base(f)}/${item(f)}`),
    );
  }
  return cases;
}

const LISTS: ListCase[] = [
  {
    method: 'GET',
    route: '/api/entities',
    url: () => '/api/entities?deep=1&per_page=100',
    secrets: (f) => [f.org.slug, f.site.slug],
    insider: 403,
  },
  {
    method: 'GET',
    route: '/api/entities/organisation',
    url: () => '/api/entities/organisation',
    secrets: (f) => [f.org.slug, f.site.slug],
    insider: 200,
  },
  {
    method: 'GET',
    route: '/api/users',
    url: () => '/api/users?deep=1&per_page=100',
    secrets: (f) => [f.victim.uuid],
    insider: 403,
  },
  // Active users and the system search (issue 13).
  {
    method: 'GET',
    route: '/api/auth-events/active',
    url: () => '/api/auth-events/active?deep=1&per_page=100',
    secrets: (f) => [f.victim.uuid],
    insider: 403,
  },
  {
    method: 'GET',
    route: '/api/system/search',
    url: () => `/api/system/search?q=${CANARY_PREFIX}&limit=50`,
    secrets: (f) => [f.victim.uuid, f.org.slug, f.site.slug, CANARY],
    insider: 200,
  },
  {
    method: 'GET',
    route: '/api/roles/stats',
    url: () => '/api/roles/stats',
    secrets: (f) => [`"id":${f.role.id},`],
    insider: 403,
  },
  {
    method: 'GET',
    route: '/api/types/stats',
    url: () => '/api/types/stats',
    secrets: (f) => [`"id":${f.type.id},`],
    insider: 403,
  },
  // Authoring (issue 4): the target's titles never appear.
  ...(
    [
      ['/api/courses', (f: Fixture) => [f.course.title]],
      ['/api/course-categories', (f: Fixture) => [f.category.name]],
      ['/api/content', (f: Fixture) => [f.content.title]],
      ['/api/lessons', (f: Fixture) => [f.lesson.title]],
      ['/api/topics', (f: Fixture) => [f.topic.title]],
      ['/api/quizzes', (f: Fixture) => [f.quiz.title]],
      ['/api/h5ps', (f: Fixture) => [f.h5p.title]],
    ] as const
  ).map(
    ([route, secrets]): ListCase => ({
      method: 'GET',
      route,
      url: () => `${route}?per_page=100`,
      secrets,
      insider: 403,
    }),
  ),
  ...resultLists(),
  ...presetLists(),
  ...delegateLists(),
  ...careCertificateReportLists(),
  ...designerLists(),
  ...coreLists(),
  ...pathwayLists(),
  ...tokenLists(),
  ...workflowLists(),
  ...documentsLists(),
  ...taskLists(),
  ...pushLists(),
  ...webhooksLists(),
  ...signupLinkLists(CANARY),
  ...importerLists(),
  {
    // Issue 33 §3: the trainers a session may name; another organisation's trainers never.
    method: 'GET',
    route: '/api/training-sessions/trainers',
    url: () => `/api/training-sessions/trainers?per_page=100&search=${CANARY_PREFIX}`,
    secrets: (f) => [CANARY, `"id":${f.trainer.id},`],
    insider: 403,
  },
  {
    method: 'GET',
    route: '/api/training-sessions',
    url: () => '/api/training-sessions?per_page=100',
    secrets: (f) => [CANARY, `"id":${f.trainingSession.id},`],
    insider: 403,
  },
];

/** Open to anyone, or only about the caller themself: nothing of another organisation to reach. */
const EXEMPT: Record<string, string> = {
  ...DELEGATE_EXEMPT,
  ...CARE_CERTIFICATE_REPORT_EXEMPT,
  ...CORE_EXEMPT,
  ...PATHWAY_EXEMPT,
  ...DOCUMENTS_EXEMPT,
  ...TASK_EXEMPT,
  ...PUSH_EXEMPT,
  ...TOKEN_EXEMPT,
  ...SIGNUP_LINK_EXEMPT,
  ...IMPORTER_EXEMPT,
  'GET /api/version': 'public',
  'POST /api/offline/downloads':
    "the caller's own learning only: another organisation's content is 404 (src/offline/offline.test.ts)",
  'POST /api/offline/attempts':
    "the caller's own downloads only: another user's download is 404 (src/offline/offline.test.ts)",
  'GET /api/client-config': 'public (the browser error-reporting DSN and analytics id, no tenant data)',
  'GET /api/webhooks/event-types':
    'the same catalogue of event types and example payloads for everyone holding 112',
  'GET /api/time': 'public',
  'GET /api/check': 'public',
  'GET /api/whitelabel': 'public branding, by slug or sub-domain',
  'GET /api/files/:uuid': 'public logos only',
  'GET /api/sanctum/csrf-cookie': 'public',
  'POST /api/login': 'public',
  'POST /api/logout': 'the caller only',
  'POST /api/register/:plan': 'public: creates a new organisation',
  'POST /api/auth/login': 'public',
  'POST /api/auth/logout': 'the caller only',
  'GET /api/auth/user': 'the caller only',
  'GET /api/auth/permissions': 'the caller only',
  'POST /api/auth/permission-check': 'the caller only',
  'GET /api/auth/sessions': 'the caller only',
  'POST /api/auth/confirm-password': 'the caller only (src/auth/sessions.test.ts)',
  'POST /api/auth/logout-others': 'the caller only (src/auth/sessions.test.ts)',
  'POST /api/auth/forgot-password': 'public, same answer for every address',
  'POST /api/auth/reset-password': 'public, needs the token',
  'POST /api/auth/verify-email': 'public, needs the token',
  'POST /api/auth/unlock-sign-in': 'public, needs the token (src/auth/throttle.test.ts)',
  'POST /api/auth/update-email': 'the caller only',
  'POST /api/auth/update-password': 'the caller only',
  'GET /api/mail/outbox': 'super admins only',
  'GET /api/training-company-requests':
    'super admins only: 403 for everyone else (src/entities/training-company.test.ts)',
  'POST /api/entities/:id/training-company/approve':
    'super admins only: 403 for everyone else, before any lookup (src/entities/training-company.test.ts)',
  'POST /api/entities/:id/training-company/refuse':
    'super admins only: 403 for everyone else, before any lookup (src/entities/training-company.test.ts)',
  'GET /api/mail/outbox/:id/attachments/:attachmentId': 'super admins only',
  'POST /api/entities': 'creates under a parent: covered by the parent test below',
  'GET /api/graphql': 'GraphQL resolvers call the same services (src/graphql/graphql.test.ts)',
  'POST /api/graphql': 'GraphQL resolvers call the same services (src/graphql/graphql.test.ts)',
  'GET /api/attempts/current-attempt': 'the caller only',
  'GET /api/notifications': "the caller's own notifications only (src/notifications/notifications.test.ts)",
  'POST /api/notifications/read-all': "the caller's own notifications only",
  'GET /api/help-articles':
    'public: global platform help written by super admins, the same for every organisation and for signed-out people (src/help/help.test.ts)',
  'POST /api/help-articles': 'super admins only: global platform help (src/help/help.test.ts)',
  'PATCH /api/help-articles/:id': 'super admins only: global platform help (src/help/help.test.ts)',
  'DELETE /api/help-articles/:id': 'super admins only: global platform help (src/help/help.test.ts)',
  'POST /api/help/contact':
    "the caller only: goes to the caller's own organisation's support (src/help/help.test.ts)",
  'GET /api/help/customers': 'super admins only (src/help/help.test.ts)',
  'GET /api/calendar/:token.ics': 'public: the token is the secret (src/bookings/calendar.test.ts)',
  'GET /api/cancellation-reasons': 'one global list of reasons, the same for every organisation',
  'GET /api/ws': 'websocket; subscribe is scoped like POST /api/reports/matrix (src/matrix/routes.test.ts)',
};

const TENANT_TABLES = [
  'entities',
  'users',
  'entity_roles',
  'entity_types',
  'entity_permissions',
  'type_permissions',
  'user_permissions',
  'user_tokens',
  'mail_outbox',
  'sessions',
  'files',
  'course_categories',
  'courses',
  'contents',
  'lessons',
  'content_lessons',
  'topics',
  'lesson_topics',
  'quizzes',
  'questions',
  'answers',
  'content_quizzes',
  'h5ps',
  'entity_content',
  'entity_courses',
  'feedback',
  'attempts',
  'quiz_attempts',
  'results',
  'latest_results',
  'certificate_branding',
  'scorm_packages',
  'h5p_packages',
  'report_presets',
  'report_schedules',
  'jobs',
  'mail_attachments',
  'bulk_event_operations',
  'compliance_rules',
  'tags',
  'tag_users',
  'messages',
  'message_recipients',
  'notifications',
  // Bookings settings, calendar feeds and invites (issue 15).
  'training_provider_settings',
  'delegate_settings',
  'calendar_feeds',
  'booking_invites',
  'training_sessions',
  'session_delegates',
  ...DELEGATE_TABLES,
  ...CORE_TABLES,
  ...PATHWAY_TABLES,
  ...WORKFLOW_TABLES,
  ...DESIGNER_TABLES,
  ...DOCUMENTS_TABLES,
  ...WEBHOOKS_TABLES,
  ...SIGNUP_LINK_TABLES,
  ...IMPORTER_TABLES,
  'asc_wds_settings',
  'asc_wds_course_categories',
  'asc_wds_exports',
] as const;

let h: Harness;
let f: Fixture;
/** The outsider's own organisation (issue 11: ids in bodies, and what its reports may show). */
let mine: Own;
let outsider: Record<string, string>;
let outsiderLogin: { id: number; email: string };
let insider: Record<string, string>;
/** An insider holding every permission, calling with a personal access token without abilities (issue 18). */
let tokenInsider: Record<string, string>;

/**
 * What has been written to the tenant tables so far: a count of rows inserted, updated or deleted per table, kept by
 * a trigger on each (installed before the cases run). A thousand cases each read it twice, so it is one small query;
 * a table whose count moved names itself in a failing comparison. Of sessions only a new, removed or re-owned one
 * counts: the callers' own sessions are touched on use.
 */
async function databaseState(): Promise<string> {
  const { rows } = await sql<{ table_name: string; writes: string }>`
    SELECT table_name, writes FROM test_tenant_writes ORDER BY table_name`.execute(h.db);
  return rows.map((r) => `${r.table_name} ${r.writes}`).join('\n');
}

async function countTenantWrites(): Promise<void> {
  await sql`CREATE TABLE test_tenant_writes (table_name text PRIMARY KEY, writes bigint NOT NULL)`.execute(
    h.db,
  );
  await sql
    .raw(`CREATE FUNCTION test_count_tenant_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO test_tenant_writes VALUES (TG_TABLE_NAME, 1)
          ON CONFLICT (table_name) DO UPDATE SET writes = test_tenant_writes.writes + 1;
        RETURN NULL;
      END $$`)
    .execute(h.db);
  for (const table of new Set(TENANT_TABLES)) {
    const events =
      table === 'sessions'
        ? 'INSERT OR DELETE OR UPDATE OF public_id, user_id'
        : 'INSERT OR UPDATE OR DELETE';
    await sql
      .raw(`CREATE TRIGGER test_count_tenant_write AFTER ${events} ON ${table}
        FOR EACH ROW EXECUTE FUNCTION test_count_tenant_write()`)
      .execute(h.db);
  }
}

beforeAll(async () => {
  h = await createHarness();
  // The target's names carry the CANARY, which nothing another organisation can get may ever contain.
  const org = await buildEntity(h.db, { level: 'A', name: `${CANARY} Group` });
  const site = await buildEntity(h.db, { level: 'B', parentId: org.id, name: `${CANARY} Home` });
  const role = await buildRole(h.db, org.id, { name: `${CANARY} Role` });
  const type = await buildType(h.db, org.id, { permissions: [21] });
  const victim = await buildUser(h.db, {
    entityId: site.id,
    permissions: [21, 44],
    name: `${CANARY} Victim`,
    roleId: role.id,
  });
  const grant = await h.db
    .insertInto('user_permissions')
    .values({ user_id: victim.id, permission_id: 21 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const session = await createSession(h.db, {
    userId: victim.id,
    ip: null,
    userAgent: null,
    lifetime: { idleMinutes: 60, absoluteHours: 12 },
    now: new Date(),
    passwordConfirmed: true,
  });
  const category = await buildCategory(h.db, org.id);
  const course = await buildCourse(h.db, org.id, { categoryId: category.id, title: `${CANARY} Course` });
  const content = await buildContent(h.db, { entityId: site.id, courseId: course.id });
  const lesson = await buildLesson(h.db, org.id);
  const h5p = await buildH5p(h.db, site.id);
  const topic = await buildTopic(h.db, org.id);
  const quiz = await buildQuiz(h.db, site.id, { questions: 2 });
  const image = await buildContentImage(h.db, org.id);
  await h.db.insertInto('entity_content').values({ entity_id: site.id, content_id: content.id }).execute();
  await h.db.insertInto('entity_courses').values({ entity_id: site.id, course_id: course.id }).execute();
  const attempt = await h.db
    .insertInto('attempts')
    .values({ user_id: victim.id, content_id: content.id, course_id: course.id, progress: '{}', cmi: '{}' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const result = await h.db.transaction().execute((trx) =>
    recordResult(trx, {
      userId: victim.id,
      entityId: site.id,
      courseId: course.id,
      contentId: content.id,
      type: 'elearning',
      passed: true,
      score: 100,
      completedAt: new Date(),
      attemptId: null,
      createdBy: null,
    }),
  );
  f = {
    org: { id: org.id, slug: org.slug },
    site: { id: site.id, slug: site.slug },
    victim: { id: victim.id, uuid: victim.uuid, email: victim.email },
    role: { id: role.id },
    type: { id: type.id },
    grant: { id: grant.id },
    victimSession: session.record.public_id,
    category: { id: category.id, name: category.name },
    course: { id: course.id, title: course.title },
    content: { id: content.id, title: content.title },
    lesson: { id: lesson.id, title: lesson.title },
    topic: { id: topic.id, title: topic.title },
    quiz: { id: quiz.id, title: quiz.title, questionIds: quiz.questions.map((q) => q.id) },
    h5p: { id: h5p.id, title: h5p.title },
    image: { id: image.id },
    attempt: { id: attempt.id },
    result: { id: result.id },
    presets: await presetFixtures(victim.id, site.id),
    tag: await tagFixture(site.id, victim.id),
    message: await messageFixture(site.id, victim.id),
    trainingSession: await insertSession(h, {
      entityId: site.id,
      contentId: content.id,
      courseId: course.id,
    }),
    trainer: await buildUser(h.db, { entityId: site.id, isTrainer: true, name: `${CANARY} Trainer` }),
    pack: await h.db
      .insertInto('inspection_packs')
      .values({ entity_id: site.id, requested_by: victim.id })
      .returning('uuid')
      .executeTakeFirstOrThrow(),
    results: await resultFixtures(victim.id, site.id, course.id),
    notification: await h.db
      .insertInto('notifications')
      .values({
        kind: 'expiry_reminder',
        subject_key: `course:${course.id}@2030-01-01T00:00:00.000Z`,
        occasion: '30',
        user_id: victim.id,
        entity_id: site.id,
        channel: 'in_app',
        state: 'sent',
        course_id: course.id,
        title: `${CANARY} course expires in 30 days`,
        body: 'Renew it.',
        link: '/learner-dashboard',
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
    careCertificateReport: await careCertificateReportFixture(h.db, { victimId: victim.id }),
    careCertificate: await coreFixture(h.db, { victimId: victim.id, siteId: site.id, canary: CANARY }),
    designer: await designerFixture(h.db, { siteId: site.id, canary: CANARY }),
    pathway: await pathwayFixture(h.db, {
      orgId: org.id,
      victimId: victim.id,
      roleId: role.id,
      courseId: course.id,
      canary: CANARY,
    }),
    workflow: await workflowFixture(h.db, { victimId: victim.id, canary: CANARY }),
    documents: await documentsFixture(h.db, { siteId: site.id, victimId: victim.id, canary: CANARY }),
    task: await taskFixture(h.db, { victimId: victim.id, canary: CANARY }),
    push: await pushFixture(h.db, { victimId: victim.id, canary: CANARY }),
    tokens: await tokensFixture(h.db, { victimId: victim.id }),
    webhooks: await webhooksFixture(h.deps, { siteId: site.id, canary: CANARY }),
    signupLinks: await signupLinkFixture(h.db, { siteId: site.id, roleId: role.id, canary: CANARY }),
    importer: await importerFixture(h.db, { siteId: site.id, victimId: victim.id, canary: CANARY }),
    delegates: await delegateFixture(h.db, {
      orgId: org.id,
      siteId: site.id,
      victimId: victim.id,
      canary: CANARY,
    }),
    compliance: {
      ruleId: (
        await h.db
          .insertInto('compliance_rules')
          .values({
            entity_id: org.id,
            role_id: role.id,
            course_id: course.id,
            type: 'primary',
            validity_months: 12,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    },
  };
  mine = await ownFixture();
  // The outsider's organisation has the bookings area on, so its sessions list answers (and must show none of ours).
  await h.db
    .updateTable('entities')
    .set({ can_view_internal_bookings: true })
    .where('id', '=', mine.org.id)
    .execute();
  const outsiderUser = await buildUser(h.db, {
    entityId: mine.org.id,
    permissions: PERMISSIONS.map((p) => p.id),
  });
  outsider = await bearer(h.db, outsiderUser.id);
  outsiderLogin = { id: outsiderUser.id, email: outsiderUser.email };
  const insiderUser = await buildUser(h.db, { entityId: org.id, permissions: [] });
  insider = await bearer(h.db, insiderUser.id);
  const tokenInsiderUser = await buildUser(h.db, {
    entityId: org.id,
    permissions: PERMISSIONS.map((p) => p.id),
  });
  tokenInsider = await personalTokenHeaders(h.db, tokenInsiderUser.id, []);
  await countTenantWrites();
});
afterAll(async () => h?.close());

const call = (
  c: { method: Method; url: (f: Fixture) => string; body?: (f: Fixture) => unknown },
  headers: Record<string, string>,
) =>
  h.app.inject({
    method: c.method,
    url: c.url(f),
    headers,
    ...(c.body ? { payload: c.body(f) as object } : {}),
  });

describe('the write counter the cases rely on', () => {
  it('sees a write to a tenant table, and a session touched on use does not count', async () => {
    const before = await databaseState();
    await sql`UPDATE sessions SET last_activity_at = last_activity_at`.execute(h.db);
    expect(await databaseState()).toBe(before);
    await sql`UPDATE courses SET title = title WHERE id = ${f.course.id}`.execute(h.db);
    expect(await databaseState()).not.toBe(before);
  });
});

describe('every route is covered', () => {
  it('lists each /api route as scoped, list or exempt', () => {
    const known = new Set([...SCOPED, ...LISTS].map((c) => `${c.method} ${c.route}`));
    const missing = h.app.routeList
      .filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'))
      .map((r) => `${r.method} ${r.url}`)
      .filter((key) => !known.has(key) && !(key in EXEMPT));
    expect(missing).toEqual([]);
  });

  it('covers every operation of the OpenAPI document too (issue 29 "Also")', async () => {
    const known = new Set(
      [...[...SCOPED, ...LISTS].map((c) => `${c.method} ${c.route}`), ...Object.keys(EXEMPT)].map((key) => {
        const [method, route] = key.split(' ') as [string, string];
        return `${method} ${openApiPath(route)}`;
      }),
    );
    const doc = (await h.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const missing = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/') && !path.startsWith('/api/docs'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .filter((key) => !known.has(key));
    expect(missing).toEqual([]);
  });
});

describe.each(SCOPED)('$method $route', (c) => {
  it('answers 404 to another organisation holding every permission, and changes nothing', async () => {
    const before = await databaseState();
    const res = await call(c, outsider);
    expect(res.statusCode, res.body).toBe(404);
    expect(await databaseState()).toBe(before);
  });

  it(`answers ${c.kind === 'own' ? 404 : 403} to an insider without the permission, and changes nothing`, async () => {
    const before = await databaseState();
    const res = await call(c, insider);
    expect(res.statusCode, res.body).toBe(c.kind === 'own' ? 404 : 403);
    expect(await databaseState()).toBe(before);
  });

  it('answers the same to an insider holding every permission through a token without abilities', async () => {
    const before = await databaseState();
    const res = await call(c, tokenInsider);
    expect(res.statusCode, res.body).toBe(c.kind === 'own' ? 404 : 403);
    expect(await databaseState()).toBe(before);
  });
});

describe.each(LISTS)('$method $route', (c) => {
  it("shows another organisation nothing of the target's data", async () => {
    const res = await call(c, outsider);
    expect(res.statusCode, res.body).toBe(200);
    for (const secret of c.secrets(f)) expect(res.body).not.toContain(secret);
  });

  it(`answers ${c.insider} to an insider without permissions`, async () => {
    const res = await call(c, insider);
    expect(res.statusCode, res.body).toBe(c.insider);
  });

  it('answers the same to an insider holding every permission through a token without abilities', async () => {
    const res = await call(c, tokenInsider);
    expect(res.statusCode, res.body).toBe(c.insider);
  });
});

describe('acting as another organisation', () => {
  it('is refused with 404, as if the organisation did not exist', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/users?actingAs=${f.org.slug}`,
      headers: outsider,
    });
    expect(res.statusCode).toBe(404);
    const missing = await h.app.inject({
      method: 'GET',
      url: '/api/users?actingAs=no-such-organisation',
      headers: outsider,
    });
    expect(res.body).toBe(missing.body);
  });
});

describe('POST /api/entities under another organisation', () => {
  it('answers exactly as for a parent that does not exist, and creates nothing', async () => {
    const before = await databaseState();
    const theirs = await h.app.inject({
      method: 'POST',
      url: '/api/entities',
      headers: outsider,
      payload: { name: 'Planted', level: 'B', parent_id: f.org.id },
    });
    const none = await h.app.inject({
      method: 'POST',
      url: '/api/entities',
      headers: outsider,
      payload: { name: 'Planted', level: 'B', parent_id: 99_999_999 },
    });
    expect(theirs.statusCode).toBe(none.statusCode);
    expect(theirs.json()).toEqual(none.json());
    expect(await databaseState()).toBe(before);
  });
});

/** Learning (issue 4): attempts, quiz taking, the learner's lists and certificates of the target's user. */
function learningCases(): Case[] {
  const s = caseOf('scoped');
  return [
    s('GET', '/api/users/:id/attempts', (f) => `/api/users/${f.victim.id}/attempts`),
    s(
      'POST',
      '/api/users/:id/attempts',
      (f) => `/api/users/${f.victim.id}/attempts`,
      (f) => ({ content_id: f.content.id }),
    ),
    s('POST', '/api/retake_attempt/:id', (f) => `/api/retake_attempt/${f.attempt.id}`),
    s('GET', '/api/attempts/:id', (f) => `/api/attempts/${f.attempt.id}`),
    s('GET', '/api/attempts/:id/structure', (f) => `/api/attempts/${f.attempt.id}/structure`),
    s(
      'PATCH',
      '/api/attempts/:id',
      (f) => `/api/attempts/${f.attempt.id}`,
      () => ({ version: 1, progress: { current: null } }),
    ),
    s('DELETE', '/api/attempts/:id', (f) => `/api/attempts/${f.attempt.id}`),
    s(
      'POST',
      '/api/quizzes/take',
      () => '/api/quizzes/take',
      (f) => ({ attempt_id: f.attempt.id, quiz_id: f.quiz.id }),
    ),
    s('GET', '/api/users/:id/available-courses', (f) => `/api/users/${f.victim.id}/available-courses`),
    s('GET', '/api/users/:id/available-training', (f) => `/api/users/${f.victim.id}/available-training`),
    s('GET', '/api/users/:id/compliant-courses', (f) => `/api/users/${f.victim.id}/compliant-courses`),
    s(
      'GET',
      '/api/users/:id/personal-development-courses',
      (f) => `/api/users/${f.victim.id}/personal-development-courses`,
    ),
    s('GET', '/api/users/:id/events', (f) => `/api/users/${f.victim.id}/events`),
    s(
      'GET',
      '/api/users/:id/training-certificate',
      (f) => `/api/users/${f.victim.id}/training-certificate?result_id=${f.result.id}`,
    ),
    s(
      'GET',
      '/api/entities/:slug/certificate-branding',
      (f) => `/api/entities/${f.site.slug}/certificate-branding`,
    ),
    s(
      'PATCH',
      '/api/entities/:slug/certificate-branding',
      (f) => `/api/entities/${f.site.slug}/certificate-branding`,
      () => ({ title: 'Taken over' }),
    ),
  ];
}

/** Packages (issue 4 items 2 and 5): SCORM / H5P uploads and launch data. Files under /packages are in packages.test.ts. */
function packageCases(): Case[] {
  const s = (
    method: Method,
    route: string,
    url: (f: Fixture) => string,
    kind: Case['kind'] = 'scoped',
  ): Case => ({
    method,
    route,
    url,
    kind,
  });
  return [
    s('POST', '/api/content/:id/package', (f) => `/api/content/${f.content.id}/package`),
    s('GET', '/api/content/:id/package', (f) => `/api/content/${f.content.id}/package`),
    s('POST', '/api/h5ps/:id/package', (f) => `/api/h5ps/${f.h5p.id}/package`),
    s('GET', '/api/h5ps/:id/package', (f) => `/api/h5ps/${f.h5p.id}/package`),
    s('GET', '/api/attempts/:id/package', (f) => `/api/attempts/${f.attempt.id}/package`, 'own'),
    s(
      'GET',
      '/api/attempts/:id/h5ps/:h5pId/package',
      (f) => `/api/attempts/${f.attempt.id}/h5ps/${f.h5p.id}/package`,
      'own',
    ),
  ];
}

/** A message to the victim from a colleague at their site; its text carries the canary. */
async function messageFixture(siteId: number, victimId: number) {
  const colleague = await buildUser(h.db, { entityId: siteId, name: `${CANARY} Colleague` });
  const message = await h.db
    .insertInto('messages')
    .values({
      sender_id: colleague.id,
      entity_id: siteId,
      text: `${CANARY} message`,
      audience_kind: 'person',
      audience_name: `${CANARY} Victim`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await h.db
    .insertInto('message_recipients')
    .values({ message_id: message.id, recipient_id: victimId })
    .execute();
  return message;
}

/** Results (issue 5 item 1): the victim's exemption, a pending historical result and a bulk add in their org. */
async function tagFixture(siteId: number, victimId: number) {
  const tag = await h.db
    .insertInto('tags')
    .values({ entity_id: siteId, name: `${CANARY} tag` })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  await h.db.insertInto('tag_users').values({ tag_id: tag.id, user_id: victimId }).execute();
  return tag;
}

async function resultFixtures(userId: number, entityId: number, courseId: number) {
  const base = { userId, entityId, courseId, contentId: null, score: null, attemptId: null, createdBy: null };
  return h.db.transaction().execute(async (trx) => {
    const exempt = await recordResult(trx, {
      ...base,
      type: 'exempt',
      passed: true,
      completedAt: new Date(),
      expiresAt: null,
    });
    const pending = await recordResult(trx, {
      ...base,
      type: 'historical',
      status: 'pending',
      passed: true,
      completedAt: new Date(),
    });
    const bulk = await trx
      .insertInto('bulk_event_operations')
      .values({
        entity_id: entityId,
        course_id: courseId,
        type: 'face2face',
        completed_at: new Date(),
        passed: true,
        user_count: 1,
        created_by: userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { exemptId: exempt.id, pendingId: pending.id, bulkId: bulk.id };
  });
}

function resultCases(): Case[] {
  const s = caseOf('scoped');
  const day = '2024-03-01';
  return [
    s(
      'POST',
      '/api/results/historical/create',
      () => '/api/results/historical/create',
      (f) => ({ user_id: f.victim.id, course_id: f.course.id, completed_at: day }),
    ),
    s(
      'PATCH',
      '/api/results/historical/:id',
      (f) => `/api/results/historical/${f.results.pendingId}`,
      () => ({ notes: 'Taken over' }),
    ),
    s(
      'POST',
      '/api/results/exempt',
      () => '/api/results/exempt',
      (f) => ({ user_id: f.victim.id, course_id: f.course.id, notes: 'Taken over' }),
    ),
    s(
      'PATCH',
      '/api/results/exempt/:id',
      (f) => `/api/results/exempt/${f.results.exemptId}`,
      () => ({ notes: 'Taken over' }),
    ),
    s('DELETE', '/api/results/exempt/:id', (f) => `/api/results/exempt/${f.results.exemptId}`),
    // The audit trail (issue 35 §3): a person's, a result's and an organisation's history.
    s('GET', '/api/audit/users/:id', (f) => `/api/audit/users/${f.victim.uuid}`),
    s('GET', '/api/audit/results/:id', (f) => `/api/audit/results/${f.result.id}`),
    s('GET', '/api/audit/entities/:id', (f) => `/api/audit/entities/${f.site.slug}`),
    s(
      'POST',
      '/api/results/pending/:id/approve',
      (f) => `/api/results/pending/${f.results.pendingId}/approve`,
    ),
    s('DELETE', '/api/results/pending/:id', (f) => `/api/results/pending/${f.results.pendingId}`),
    s('GET', '/api/results/:id', (f) => `/api/results/${f.result.id}`),
    s('DELETE', '/api/results/:id', (f) => `/api/results/${f.result.id}`),
    s(
      'PATCH',
      '/api/results/:id/suppress-certificate',
      (f) => `/api/results/${f.result.id}/suppress-certificate`,
      () => ({ suppressed: true }),
    ),
    s('GET', '/api/results/:id/evidence', (f) => `/api/results/${f.result.id}/evidence`),
    s('GET', '/api/users/:id/results', (f) => `/api/users/${f.victim.uuid}/results`),
    s(
      'POST',
      '/api/users/bulk-add-events',
      () => '/api/users/bulk-add-events',
      (f) => ({ user_ids: [f.victim.id], course_id: f.course.id, completed_at: day, type: 'face2face' }),
    ),
    s('DELETE', '/api/users/bulk-add-events/:id', (f) => `/api/users/bulk-add-events/${f.results.bulkId}`),
  ];
}

function resultLists(): ListCase[] {
  const l = (route: string, url: string, secrets: (f: Fixture) => string[]): ListCase => ({
    method: 'GET',
    route,
    url: () => url,
    secrets,
    insider: 403,
  });
  return [
    l('/api/results/exempt', '/api/results/exempt?per_page=100', (f) => [f.victim.uuid]),
    l('/api/results/pending/:type', '/api/results/pending/historical?per_page=100', (f) => [f.victim.uuid]),
    l('/api/results/courses', '/api/results/courses?per_page=100', (f) => [f.course.title]),
    l('/api/users/bulk-add-events-history', '/api/users/bulk-add-events-history?per_page=100', (f) => [
      f.course.title,
    ]),
  ];
}

/**
 * Training sessions (issue 15): a create names the target as acting-as entity (404 outside it, 403 without 9); a
 * session is seen only by bookings staff in scope, its trainer and its delegates, so everyone else gets 404.
 */
function trainingSessionCases(): Case[] {
  const own = caseOf('own');
  const url =
    (tail = '') =>
    (f: Fixture) =>
      `/api/training-sessions/${f.trainingSession.id}${tail}`;
  return [
    caseOf('scoped')(
      'POST',
      '/api/training-sessions',
      (f) => `/api/training-sessions?actingAs=${f.org.slug}`,
      (f) => ({
        contentId: f.content.id,
        date: '2031-01-01',
        startTime: '09:00',
        endTime: '10:00',
        maxDelegates: 5,
      }),
    ),
    own('GET', '/api/training-sessions/:id', url()),
    own('PATCH', '/api/training-sessions/:id', url(), () => ({ venue: 'Taken' })),
    own('POST', '/api/training-sessions/:id/cancel', url('/cancel'), () => ({ cancellation_reason_id: 1 })),
    own('POST', '/api/training-sessions/:id/complete', url('/complete')),
    own('POST', '/api/training-sessions/:id/incomplete', url('/incomplete')),
    own('POST', '/api/training-sessions/:id/attendance', url('/attendance'), () => ({
      marks: [{ delegate_id: 1, attendance: 'attended' }],
    })),
    own('POST', '/api/training-sessions/:id/check-in', url('/check-in'), () => ({ code: 'ABCDEF' })),
  ];
}

/** Notifications (issue 14): a notification is its recipient's (404 for everyone else); the ledger is scoped. */
function notificationCases(): Case[] {
  const own = caseOf('own');
  return [
    own(
      'PATCH',
      '/api/notifications/:id',
      (f) => `/api/notifications/${f.notification.id}`,
      () => ({ read: true }),
    ),
    own('DELETE', '/api/notifications/:id', (f) => `/api/notifications/${f.notification.id}`),
    caseOf('scoped')(
      'GET',
      '/api/users/:id/notifications',
      (f) => `/api/users/${f.victim.uuid}/notifications`,
    ),
  ];
}

/** Bookings (issue 15): the settings of the target's site, the victim's calendar feed, the bookings dashboard. */
function bookingExtrasCases(): Case[] {
  const s = caseOf('scoped');
  const tp = '/api/entities/:slug/training-provider-settings';
  const ds = '/api/entities/:slug/delegate-settings';
  const feed = '/api/users/:id/calendar-feed';
  return [
    s('GET', tp, (f) => `/api/entities/${f.site.slug}/training-provider-settings`),
    s(
      'PATCH',
      tp,
      (f) => `/api/entities/${f.site.slug}/training-provider-settings`,
      () => ({ theory_max_delegates: 30 }),
    ),
    s('GET', ds, (f) => `/api/entities/${f.site.slug}/delegate-settings`),
    s(
      'PATCH',
      ds,
      (f) => `/api/entities/${f.site.slug}/delegate-settings`,
      () => ({ notify_managers: false }),
    ),
    s('GET', feed, (f) => `/api/users/${f.victim.uuid}/calendar-feed`),
    s('POST', feed, (f) => `/api/users/${f.victim.uuid}/calendar-feed`),
    s('DELETE', feed, (f) => `/api/users/${f.victim.uuid}/calendar-feed`),
    caseOf('own')(
      'GET',
      '/api/training-sessions/:id/calendar.ics',
      (f) => `/api/training-sessions/${f.trainingSession.id}/calendar.ics`,
    ),
    s('GET', '/api/dashboards/bookings', (f) => `/api/dashboards/bookings?deep=1&actingAs=${f.site.slug}`),
  ];
}

/** Report presets and schedules (issue 5 item 5): personal, so everyone but the owner gets 404. */
function presetCases(): Case[] {
  const own = caseOf('own');
  return [
    {
      method: 'POST',
      route: '/api/reports/presets',
      url: () => '/api/reports/presets',
      body: (f) => ({ name: 'Planted', report_type: 'matrix', acting_as_id: f.site.id }),
      kind: 'scoped',
    },
    {
      method: 'GET',
      route: '/api/reports/presets/options/:kind',
      url: (f) => `/api/reports/presets/options/courses?acting_as_id=${f.site.id}`,
      kind: 'scoped',
    },
    own('GET', '/api/reports/presets/:id', (f) => `/api/reports/presets/${f.presets.presetId}`),
    own(
      'PATCH',
      '/api/reports/presets/:id',
      (f) => `/api/reports/presets/${f.presets.presetId}`,
      () => ({ name: 'Taken over' }),
    ),
    own('DELETE', '/api/reports/presets/:id', (f) => `/api/reports/presets/${f.presets.presetId}`),
    own(
      'POST',
      '/api/reports/schedules',
      () => '/api/reports/schedules',
      (f) => ({
        preset_id: f.presets.presetId,
        frequency: 'daily',
        time: '07:00',
        recipients: ['planted@example.test'],
        format: 'PDF',
      }),
    ),
    own('GET', '/api/reports/schedules/:id', (f) => `/api/reports/schedules/${f.presets.scheduleId}`),
    own(
      'PATCH',
      '/api/reports/schedules/:id',
      (f) => `/api/reports/schedules/${f.presets.scheduleId}`,
      () => ({ recipients: ['planted@example.test'] }),
    ),
    own('DELETE', '/api/reports/schedules/:id', (f) => `/api/reports/schedules/${f.presets.scheduleId}`),
    own(
      'POST',
      '/api/reports/schedules/:id/run',
      (f) => `/api/reports/schedules/${f.presets.scheduleId}/run`,
    ),
  ];
}

function presetLists(): ListCase[] {
  return [
    {
      method: 'GET',
      route: '/api/reports/presets',
      url: () => '/api/reports/presets?per_page=100',
      secrets: (f) => [f.presets.presetName],
      insider: 403,
    },
    {
      method: 'GET',
      route: '/api/reports/schedules',
      url: () => '/api/reports/schedules?per_page=100',
      secrets: (f) => [f.presets.presetName, 'victim-reports@example.test'],
      insider: 403,
    },
    ...(
      [
        ['courses', (f: Fixture) => [f.course.title, `"id":${f.course.id},`]],
        ['entities', (f: Fixture) => [`"id":${f.org.id},`, `"id":${f.site.id},`]],
        ['users', (f: Fixture) => [`"id":${f.victim.id},`]],
        ['roles', (f: Fixture) => [`"id":${f.role.id},`]],
      ] as const
    ).map(
      ([kind, secrets]): ListCase => ({
        method: 'GET',
        route: '/api/reports/presets/options/:kind',
        url: () => `/api/reports/presets/options/${kind}`,
        secrets,
        insider: 403,
      }),
    ),
  ];
}

async function presetFixtures(userId: number, entityId: number) {
  const presetName = `Victim preset ${Math.random().toString(36).slice(2, 8)}`;
  const preset = await h.db
    .insertInto('report_presets')
    .values({ user_id: userId, entity_id: entityId, name: presetName, report_type: 'matrix' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const schedule = await h.db
    .insertInto('report_schedules')
    .values({
      user_id: userId,
      entity_id: entityId,
      preset_id: preset.id,
      frequency: 'daily',
      time_of_day: '07:00',
      timezone: 'Europe/London',
      cron: '0 7 * * *',
      recipients: JSON.stringify(['victim-reports@example.test']),
      format: 'XLSX',
      next_run_at: new Date(Date.now() + 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { presetId: preset.id, presetName, scheduleId: schedule.id };
}

function complianceCases(): Case[] {
  const s = caseOf('scoped');
  return [
    s(
      'POST',
      '/api/compliance',
      () => '/api/compliance',
      (f) => ({
        entity: f.org.slug,
        roleId: f.role.id,
        courseId: f.course.id,
        type: 'secondary',
        validity: 24,
      }),
    ),
    s(
      'GET',
      '/api/compliance/role/:roleId/course/:courseId',
      (f) => `/api/compliance/role/${f.role.id}/course/${f.course.id}?entity=${f.org.slug}`,
    ),
    s(
      'GET',
      '/api/compliance/:entity/role/:roleId',
      (f) => `/api/compliance/${f.site.slug}/role/${f.role.id}`,
    ),
    s('GET', '/api/compliance/:entity/courses', (f) => `/api/compliance/${f.org.slug}/courses`),
    s('GET', '/api/compliance/:id', (f) => `/api/compliance/${f.compliance.ruleId}`),
    s(
      'PATCH',
      '/api/compliance/:id',
      (f) => `/api/compliance/${f.compliance.ruleId}`,
      () => ({ validity: 36, update_previous_results: true }),
    ),
    s('DELETE', '/api/compliance/:id', (f) => `/api/compliance/${f.compliance.ruleId}`),
    s('GET', '/api/users/:id/compliance-courses', (f) => `/api/users/${f.victim.uuid}/compliance-courses`),
    s(
      'PATCH',
      '/api/users/:id/compliance-courses/:courseId',
      (f) => `/api/users/${f.victim.uuid}/compliance-courses/${f.course.id}`,
      () => ({ exempt: true, notes: 'Taken over' }),
    ),
    s('GET', '/api/entities/:id/score/:x', (f) => `/api/entities/${f.site.id}/score/all`),
    // The starter training matrix (issue 37 §2): the organisation's preview and apply.
    s('GET', '/api/entities/:slug/starter-matrix', (f) => `/api/entities/${f.org.slug}/starter-matrix`),
    s('POST', '/api/entities/:slug/starter-matrix', (f) => `/api/entities/${f.org.slug}/starter-matrix`),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Issue 11 "Tests that keep it true": ids inside bodies, GraphQL, the websocket, package files, and the canary.
// ---------------------------------------------------------------------------------------------------------------

/** The outsider's own organisation: the URLs of the body-id cases are theirs, only the ids in the body are not. */
interface Own {
  org: { id: number; slug: string };
  site: { id: number; slug: string };
  user: { id: number; uuid: string };
  role: { id: number };
  type: { id: number };
  course: { id: number };
  content: { id: number };
  lesson: { id: number };
  topic: { id: number };
  quiz: { id: number; questionIds: number[] };
  tag: { id: number };
  result: { id: number };
}

async function ownFixture(): Promise<Own> {
  const org = await buildEntity(h.db, { level: 'A' });
  const site = await buildEntity(h.db, { level: 'B', parentId: org.id });
  const role = await buildRole(h.db, org.id);
  const type = await buildType(h.db, org.id);
  const course = await buildCourse(h.db, org.id);
  const content = await buildContent(h.db, { entityId: site.id, courseId: course.id });
  await h.db.insertInto('entity_content').values({ entity_id: site.id, content_id: content.id }).execute();
  await h.db.insertInto('entity_courses').values({ entity_id: site.id, course_id: course.id }).execute();
  const lesson = await buildLesson(h.db, org.id);
  const topic = await buildTopic(h.db, org.id);
  const quiz = await buildQuiz(h.db, org.id, { questions: 2 });
  const user = await buildUser(h.db, { entityId: site.id, roleId: role.id });
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: org.id,
      role_id: role.id,
      course_id: course.id,
      type: 'primary',
      validity_months: 12,
    })
    .execute();
  const result = await h.db.transaction().execute((trx) =>
    recordResult(trx, {
      userId: user.id,
      entityId: site.id,
      courseId: course.id,
      contentId: content.id,
      type: 'elearning',
      passed: true,
      score: 100,
      completedAt: new Date(),
      attemptId: null,
      createdBy: null,
    }),
  );
  const tag = await h.db
    .insertInto('tags')
    .values({ entity_id: site.id, name: 'Own tag' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    org: { id: org.id, slug: org.slug },
    site: { id: site.id, slug: site.slug },
    user: { id: user.id, uuid: user.uuid },
    role: { id: role.id },
    type: { id: type.id },
    course: { id: course.id },
    content: { id: content.id },
    lesson: { id: lesson.id },
    topic: { id: topic.id },
    quiz: { id: quiz.id, questionIds: quiz.questions.map((q) => q.id) },
    tag: { id: tag.id },
    result: { id: result.id },
  };
}

interface BodyCase {
  name: string;
  method: Method;
  url: (o: Own, f: Fixture) => string;
  body: (o: Own, f: Fixture) => object;
}

/**
 * Writes to the outsider's own rows whose body names the target's rows (entity, user, course, role, type, content,
 * lesson, topic, quiz, H5P item): refused as not found (404) or invalid (422), and nothing is written.
 */
const BODY_IDS: BodyCase[] = [
  {
    name: "a user moved to the target's site",
    method: 'PATCH',
    url: (o) => `/api/users/${o.user.id}`,
    body: (_o, f) => ({ primary_entity_id: f.site.id }),
  },
  {
    name: "a user given the target's role",
    method: 'PATCH',
    url: (o) => `/api/users/${o.user.id}`,
    body: (_o, f) => ({ role_id: f.role.id }),
  },
  {
    name: "a user given the target's type",
    method: 'PATCH',
    url: (o) => `/api/users/${o.user.id}`,
    body: (_o, f) => ({ type_id: f.type.id }),
  },
  {
    name: "a new user with the target's role",
    method: 'POST',
    url: () => '/api/users',
    body: (o, f) => ({
      name: 'Planted',
      email: 'planted-role@example.test',
      primary_entity_id: o.site.id,
      role_id: f.role.id,
      send_welcome_email: false,
    }),
  },
  {
    name: "a new user with the target's type",
    method: 'POST',
    url: () => '/api/users',
    body: (o, f) => ({
      name: 'Planted',
      email: 'planted-type@example.test',
      primary_entity_id: o.site.id,
      type_id: f.type.id,
      send_welcome_email: false,
    }),
  },
  {
    name: "a site moved under the target's organisation",
    method: 'PATCH',
    url: (o) => `/api/entities/${o.site.id}`,
    body: (_o, f) => ({ parent_id: f.org.id }),
  },
  {
    name: "a message to the target's user",
    method: 'POST',
    url: () => `/api/users/${outsiderLogin.id}/message`,
    body: (_o, f) => ({ message: 'Planted', recipient: f.victim.uuid }),
  },
  {
    name: "a message to a list with the target's user",
    method: 'POST',
    url: () => `/api/users/${outsiderLogin.id}/message`,
    body: (o, f) => ({ message: 'Planted', recipient: [o.user.id, f.victim.id] }),
  },
  {
    name: "a message to the target's role at one's own site",
    method: 'POST',
    url: (o, f) => `/api/entities/${o.site.slug}/roles/${f.role.id}/message`,
    body: () => ({ message: 'Planted' }),
  },
  {
    name: "the target's user added to one's own tag",
    method: 'POST',
    url: (o) => `/api/tags/${o.tag.id}/users`,
    body: (_o, f) => ({ users: [f.victim.id] }),
  },
  {
    name: "an exemption from the target's course",
    method: 'POST',
    url: () => '/api/results/exempt',
    body: (o, f) => ({ user_id: o.user.id, course_id: f.course.id, notes: 'Taken over' }),
  },
  {
    name: "a historical result of the target's course",
    method: 'POST',
    url: () => '/api/results/historical/create',
    body: (o, f) => ({ user_id: o.user.id, course_id: f.course.id, completed_at: '2024-03-01' }),
  },
  {
    name: "a bulk event including the target's user",
    method: 'POST',
    url: () => '/api/users/bulk-add-events',
    body: (o, f) => ({
      user_ids: [o.user.id, f.victim.id],
      course_id: o.course.id,
      completed_at: '2024-03-01',
      type: 'face2face',
    }),
  },
  {
    name: "a compliance rule for the target's role",
    method: 'POST',
    url: () => '/api/compliance',
    body: (o, f) => ({
      entity: o.org.slug,
      roleId: f.role.id,
      courseId: o.course.id,
      type: 'secondary',
      validity: 12,
    }),
  },
  {
    name: "a compliance rule for the target's course",
    method: 'POST',
    url: () => '/api/compliance',
    body: (o, f) => ({
      entity: o.org.slug,
      roleId: o.role.id,
      courseId: f.course.id,
      type: 'secondary',
      validity: 12,
    }),
  },
  {
    name: "the target's course made available at one's own site",
    method: 'POST',
    url: (o) => `/api/entities/${o.site.slug}/courses`,
    body: (_o, f) => ({ course_id: f.course.id }),
  },
  {
    name: "the target's content made available at one's own site",
    method: 'POST',
    url: (o) => `/api/entities/${o.site.slug}/content`,
    body: (_o, f) => ({ content_id: f.content.id }),
  },
  {
    name: "the target's content assigned through entity-content",
    method: 'POST',
    url: () => '/api/entity-content',
    body: (o, f) => ({ entity: o.site.slug, content_ids: [f.content.id] }),
  },
  {
    name: "the target's courses switched off at one's own site",
    method: 'PATCH',
    url: (o) => `/api/entities/${o.site.slug}/courses/updateMultiple`,
    body: (_o, f) => ({ items: [{ course_id: f.course.id, enabled: false }] }),
  },
  {
    name: "the target's lesson added to one's own content",
    method: 'POST',
    url: (o) => `/api/content/${o.content.id}/lessons`,
    body: (_o, f) => ({ action: 'add', lesson_id: f.lesson.id }),
  },
  {
    name: "the target's quiz added to one's own content",
    method: 'POST',
    url: (o) => `/api/content/${o.content.id}/quizzes`,
    body: (_o, f) => ({ action: 'add', quiz_id: f.quiz.id }),
  },
  {
    name: "the target's topic added to one's own lesson",
    method: 'POST',
    url: (o) => `/api/lessons/${o.lesson.id}/topics`,
    body: (_o, f) => ({ action: 'add', topic_id: f.topic.id }),
  },
  {
    name: "the target's H5P item shown in one's own topic",
    method: 'PATCH',
    url: (o) => `/api/topics/${o.topic.id}`,
    body: (_o, f) => ({ h5p_id: f.h5p.id }),
  },
  {
    name: "one's own content moved to the target's course",
    method: 'PATCH',
    url: (o) => `/api/content/${o.content.id}`,
    body: (_o, f) => ({ course_id: f.course.id }),
  },
  {
    name: "new content in the target's course",
    method: 'POST',
    url: (o) => `/api/content?actingAs=${o.org.slug}`,
    body: (_o, f) => ({ course_id: f.course.id, type: 'elearning', title: 'Planted' }),
  },
  {
    name: "one's own user starting the target's content",
    method: 'POST',
    url: (o) => `/api/users/${o.user.id}/attempts`,
    body: (_o, f) => ({ content_id: f.content.id }),
  },
  {
    name: "the target's questions reordered through one's own quiz",
    method: 'POST',
    url: () => '/api/questions/changeOrder',
    body: (o, f) => ({ quiz_id: o.quiz.id, ids: [...f.quiz.questionIds, ...o.quiz.questionIds] }),
  },
  {
    name: "certificates of one's own and the target's results",
    method: 'POST',
    url: () => '/api/results/certificate/download-multiple',
    body: (o, f) => ({ result_ids: [o.result.id, f.result.id] }),
  },
];

describe.each(BODY_IDS)('ids in a body: $name', (c) => {
  it('is refused (404 or 422) and writes nothing', async () => {
    const before = await databaseState();
    const res = await h.app.inject({
      method: c.method,
      url: c.url(mine, f),
      headers: outsider,
      payload: c.body(mine, f),
    });
    expect([404, 422], `${res.statusCode} ${res.body.slice(0, 300)}`).toContain(res.statusCode);
    expect(res.body).not.toContain(CANARY);
    expect(await databaseState()).toBe(before);
  });
});

/** GraphQL (issue 11): the target's ids in queries and mutations get the answer a missing id gets. */
interface GraphqlCase {
  name: string;
  query: string;
  variables: (f: Fixture) => Record<string, unknown>;
  /** The same operation naming an id that does not exist. */
  missing: Record<string, unknown>;
}

const GRAPHQL: GraphqlCase[] = [
  {
    name: 'entity by id',
    query: 'query($id: ID!) { entity(id: $id) { id name } }',
    variables: (f) => ({ id: String(f.site.id) }),
    missing: { id: '99999999' },
  },
  {
    name: 'entity by slug',
    query: 'query($id: ID!) { entity(id: $id) { id name } }',
    variables: (f) => ({ id: f.org.slug }),
    missing: { id: 'no-such-organisation' },
  },
  {
    name: 'user by uuid',
    query: 'query($id: ID!) { user(id: $id) { id name } }',
    variables: (f) => ({ id: f.victim.uuid }),
    missing: { id: '00000000-0000-4000-8000-000000000000' },
  },
  {
    name: 'user by id',
    query: 'query($id: ID!) { user(id: $id) { id name } }',
    variables: (f) => ({ id: String(f.victim.id) }),
    missing: { id: '99999999' },
  },
  {
    name: 'roles of an entity',
    query: 'query($e: String!) { roles(entity: $e) { data { id name } } }',
    variables: (f) => ({ e: f.org.slug }),
    missing: { e: 'no-such-organisation' },
  },
  {
    name: 'course',
    query: 'query($id: ID!) { course(id: $id) { id title } }',
    variables: (f) => ({ id: String(f.course.id) }),
    missing: { id: '99999999' },
  },
  {
    name: 'content',
    query: 'query($id: ID!) { content(id: $id) { id title } }',
    variables: (f) => ({ id: String(f.content.id) }),
    missing: { id: '99999999' },
  },
  {
    name: "a user's results",
    query: 'query($u: String!) { results(user: $u) { data { id } } }',
    variables: (f) => ({ u: f.victim.uuid }),
    missing: { u: '00000000-0000-4000-8000-000000000000' },
  },
  {
    name: 'attempt',
    query: 'query($id: ID!) { attempt(id: $id) { id } }',
    variables: (f) => ({ id: String(f.attempt.id) }),
    missing: { id: '99999999' },
  },
  {
    name: 'upsertEntity (update)',
    query: 'mutation($input: EntityInput!) { upsertEntity(input: $input) { id name } }',
    variables: (f) => ({ input: { id: String(f.site.id), name: 'Taken over' } }),
    missing: { input: { id: '99999999', name: 'Taken over' } },
  },
  {
    name: 'upsertEntity (create under the target)',
    query: 'mutation($input: EntityInput!) { upsertEntity(input: $input) { id name } }',
    variables: (f) => ({ input: { name: 'Planted', level: 'B', parent_id: f.org.id } }),
    missing: { input: { name: 'Planted', level: 'B', parent_id: 99999999 } },
  },
  {
    name: 'upsertUser (update)',
    query: 'mutation($input: UserInput!) { upsertUser(input: $input) { id name } }',
    variables: (f) => ({ input: { id: f.victim.uuid, name: 'Taken over' } }),
    missing: { input: { id: '00000000-0000-4000-8000-000000000000', name: 'Taken over' } },
  },
  {
    name: 'upsertUser (create at the target)',
    query: 'mutation($input: UserInput!) { upsertUser(input: $input) { id name } }',
    variables: (f) => ({
      input: {
        name: 'Planted',
        email: 'planted-gql@example.test',
        primary_entity_id: f.site.id,
        send_welcome_email: false,
      },
    }),
    missing: {
      input: {
        name: 'Planted',
        email: 'planted-gql@example.test',
        primary_entity_id: 99999999,
        send_welcome_email: false,
      },
    },
  },
  {
    name: 'events',
    query:
      'query($u: String) { events(user: $u) { counts { current overdue completed } data { course_title } } }',
    variables: (f) => ({ u: f.victim.uuid }),
    missing: { u: '00000000-0000-4000-8000-000000000000' },
  },
  {
    name: 'createAttempt',
    query: 'mutation($u: String!, $c: Int!) { createAttempt(user: $u, content_id: $c) { id } }',
    variables: (f) => ({ u: f.victim.uuid, c: f.content.id }),
    missing: { u: '00000000-0000-4000-8000-000000000000', c: 99999999 },
  },
  {
    name: 'approvePendingResult',
    query: 'mutation($id: ID!) { approvePendingResult(id: $id) { id } }',
    variables: (f) => ({ id: String(f.results.pendingId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'deletePendingResult',
    query: 'mutation($id: ID!) { deletePendingResult(id: $id) }',
    variables: (f) => ({ id: String(f.results.pendingId) }),
    missing: { id: '99999999' },
  },
  // Documents and libraries (issue 17).
  {
    name: 'library',
    query: 'query($id: ID!) { library(id: $id) { id name } }',
    variables: (f) => ({ id: String(f.documents.libraryId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'documents of a library',
    query: 'query($id: ID!) { documents(libraryId: $id) { data { id title } } }',
    variables: (f) => ({ id: String(f.documents.libraryId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'document',
    query: 'query($id: ID!) { document(id: $id) { id title } }',
    variables: (f) => ({ id: String(f.documents.documentId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'documentAcknowledgements',
    query: 'query($id: ID!) { documentAcknowledgements(id: $id) { data { current } } }',
    variables: (f) => ({ id: String(f.documents.documentId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'updateLibrary',
    query: 'mutation($id: ID!) { updateLibrary(id: $id, input: { name: "Mine" }) { id } }',
    variables: (f) => ({ id: String(f.documents.libraryId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'acknowledgeDocument',
    query:
      'mutation($id: ID!) { acknowledgeDocument(id: $id, input: { typed_name: "Me", version: 1 }) { id } }',
    variables: (f) => ({ id: String(f.documents.documentId) }),
    missing: { id: '99999999' },
  },
  // Webhooks (issue 18).
  {
    name: 'webhook',
    query: 'query($id: ID!) { webhook(id: $id) { id url secret } }',
    variables: (f) => ({ id: String(f.webhooks.endpointId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'webhookDeliveries',
    query: 'query($id: ID!) { webhookDeliveries(webhookId: $id) { data { id event_id } } }',
    variables: (f) => ({ id: String(f.webhooks.endpointId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'upsertWebhook',
    query: 'mutation($id: ID!) { upsertWebhook(input: { id: $id, enabled: false }) { id } }',
    variables: (f) => ({ id: String(f.webhooks.endpointId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'rotateWebhookSecret',
    query: 'mutation($id: ID!) { rotateWebhookSecret(id: $id) { id } }',
    variables: (f) => ({ id: String(f.webhooks.endpointId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'testWebhook',
    query: 'mutation($id: ID!) { testWebhook(id: $id) { id } }',
    variables: (f) => ({ id: String(f.webhooks.endpointId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'resendWebhookDelivery',
    query: 'mutation($id: ID!) { resendWebhookDelivery(id: $id) { id } }',
    variables: (f) => ({ id: String(f.webhooks.deliveryId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'deleteWebhook',
    query: 'mutation($id: ID!) { deleteWebhook(id: $id) }',
    variables: (f) => ({ id: String(f.webhooks.endpointId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'updateWhitelabel',
    query: 'mutation($e: String!) { updateWhitelabel(entity: $e, settings: { primaryColour: "#000000" }) }',
    variables: (f) => ({ e: f.site.slug }),
    missing: { e: 'no-such-organisation' },
  },
  ...signupLinkGraphql(),
  {
    name: 'starter training matrix preview',
    query: 'query($e: String!) { starterMatrix(entity: $e) { fresh to_create { rules } } }',
    variables: (f) => ({ e: f.org.slug }),
    missing: { e: 'no-such-organisation' },
  },
  {
    name: 'starter training matrix apply',
    query: 'mutation($e: String!) { applyStarterMatrix(entity: $e) { created { rules } } }',
    variables: (f) => ({ e: f.org.slug }),
    missing: { e: 'no-such-organisation' },
  },
  // The ASC-WDS export (issue 37 §1): a home's preview, workplace ID and a course's category.
  {
    name: 'ascWdsExport',
    query: 'query($s: String!) { ascWdsExport(slug: $s, since: "all") }',
    variables: (f) => ({ s: f.site.slug }),
    missing: { s: 'no-such-organisation' },
  },
  {
    name: 'setAscWdsWorkplaceId',
    query:
      'mutation($s: String!) { setAscWdsWorkplaceId(slug: $s, local_establishment_id: "TAKEN1") { local_establishment_id } }',
    variables: (f) => ({ s: f.site.slug }),
    missing: { s: 'no-such-organisation' },
  },
  {
    name: 'setAscWdsCategory',
    query:
      'mutation($s: String!, $c: Int!) { setAscWdsCategory(slug: $s, course_id: $c, category: 6) { category } }',
    variables: (f) => ({ s: f.site.slug, c: f.course.id }),
    missing: { s: 'no-such-organisation', c: 99999999 },
  },
];

const graphql = (query: string, variables: Record<string, unknown>) =>
  h.app.inject({ method: 'POST', url: '/graphql', headers: outsider, payload: { query, variables } });

describe.each(GRAPHQL)('GraphQL $name with the target organisation’s id', (c) => {
  it('answers exactly as for a missing id, shows nothing and changes nothing', async () => {
    const before = await databaseState();
    const theirs = await graphql(c.query, c.variables(f));
    const none = await graphql(c.query, c.missing);
    const body = theirs.json();
    // NOT_FOUND, or for a parent named in an input the invalid-field answer a missing parent gets.
    expect(['NOT_FOUND', 'BAD_USER_INPUT'], theirs.body).toContain(body.errors?.[0]?.extensions?.code);
    expect(body).toEqual(none.json());
    expect(theirs.body).not.toContain(CANARY);
    expect(await databaseState()).toBe(before);
  });
});

describe('GraphQL lists and searches', () => {
  it.each([
    ['entities', `{ entities(deep: true, first: 100) { data { id name slug } } }`],
    ['entities by search', `{ entities(search: "${CANARY_PREFIX}", deep: true) { data { id name } } }`],
    ['users', `{ users(deep: true, first: 100) { data { id name uuid } } }`],
    ['users by search', `{ users(search: "${CANARY_PREFIX}", deep: true) { data { id name } } }`],
    ['courses', `{ courses(first: 100) { data { id title } } }`],
    ['courses by search', `{ courses(search: "${CANARY_PREFIX}") { data { id title } } }`],
    ['contents', `{ contents(first: 100) { data { id title } } }`],
    ['pending results', `{ pendingResults(type: "historical") { data { id } } }`],
    ['libraries', `{ libraries(first: 100) { data { id name } } }`],
    ['libraries by search', `{ libraries(search: "${CANARY_PREFIX}") { data { id name } } }`],
  ])('%s shows nothing of the target', async (_name, query) => {
    const res = await graphql(query, {});
    expect(res.json().errors, res.body).toBeUndefined();
    expect(res.body).not.toContain(CANARY);
    expect(res.body).not.toContain(f.victim.uuid);
  });
});

/** The matrix websocket (realtime/): a subscription naming the target's entity gets a 404 error and no data. */
async function matrixOverSocket(filters: unknown): Promise<Record<string, unknown>[]> {
  if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const messages: Record<string, unknown>[] = [];
  const done = new Promise<void>((resolve) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw));
      messages.push(m);
      if (m.type === 'authenticated')
        ws.send(JSON.stringify({ type: 'subscribe', channel: 'matrix', id: 's1', filters }));
      if ((m.type === 'progress' && m.progress >= 1) || m.type === 'error') resolve();
    });
  });
  ws.send(JSON.stringify({ type: 'auth', token: outsider.authorization?.slice(7) }));
  await done;
  ws.terminate();
  return messages;
}

describe('the matrix websocket', () => {
  it.each([
    ['organisation', () => ({ entities: [f.org.id] })],
    ['site', () => ({ entities: [f.site.id] })],
    ['organisation with its own site', () => ({ entities: [mine.org.id, f.site.id] })],
  ])("answers a subscription to the target's %s with a 404 error and no data", async (_name, filters) => {
    const m = await matrixOverSocket(filters());
    expect(m.find((x) => x.type === 'error')).toMatchObject({ status: 404 });
    expect(m.some((x) => x.type === 'fetch_data')).toBe(false);
    expect(JSON.stringify(m)).not.toContain(CANARY);
  });

  it("streams one's own matrix filtered by the target's role and course without a trace of the target", async () => {
    const m = await matrixOverSocket({ entities: [mine.org.id], roles: [f.role.id], courses: [f.course.id] });
    const text = JSON.stringify(m);
    expect(text).not.toContain(CANARY);
    expect(m.filter((x) => x.type === 'fetch_data').flatMap((x) => JSON.stringify(x.data))).not.toContain(
      String(f.victim.id),
    );
  });
});

/**
 * Package files (/packages/*): the target's package, whose address its own author gets from the launch endpoint,
 * cannot be fetched by another organisation with its session; its launch request is 404 too. The address scheme
 * may change (a separate package origin), so the test follows whatever address the launch endpoint gives.
 */
describe('package files', () => {
  it("cannot be fetched by another organisation's session, nor launched by it", async () => {
    const author = await buildUser(h.db, { entityId: f.org.id, permissions: PERMISSIONS.map((p) => p.id) });
    const authorHeaders = await bearer(h.db, author.id);
    const content = await buildContent(h.db, { entityId: f.org.id, courseId: f.course.id, type: 'scorm' });
    const upload = multipart('package', 'package.zip', scorm12Package());
    const uploaded = await h.app.inject({
      method: 'POST',
      url: `/api/content/${content.id}/package`,
      headers: { ...authorHeaders, ...upload.headers },
      payload: upload.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const launch = await h.app.inject({
      method: 'GET',
      url: `/api/content/${content.id}/package`,
      headers: authorHeaders,
    });
    expect(launch.statusCode, launch.body).toBe(200);
    // The launch URL (issue 11 finding 1) is signed for this package and this author, on the package origin when
    // there is one: the signature is the credential, not a session.
    const fileUrl = new URL(launch.json().data.launch_url, 'http://localhost');
    const path = `${fileUrl.pathname}${fileUrl.search}`;
    const get = (url: string, extra: Record<string, unknown> = {}) =>
      h.app.inject({ method: 'GET', url, headers: { host: fileUrl.host }, ...extra });
    expect((await get(path)).statusCode).toBe(200);

    // Without the author's signature, neither the outsider's session nor their token opens the file.
    const web = await webLogin(h.app, outsiderLogin.email, TEST_PASSWORD);
    const [, , , ...rest] = fileUrl.pathname.split('/');
    const unsigned = `/packages/${rest.join('/')}`;
    const forged = `/packages/${author.id}.${Math.floor(Date.now() / 1000) + 3600}.${'A'.repeat(43)}/${rest.join('/')}`;
    for (const url of [unsigned, forged]) {
      const cookies = { [SESSION_COOKIE]: web.jar[SESSION_COOKIE] as string };
      expect((await get(url, { cookies })).statusCode).toBe(404);
      expect((await get(url, { headers: { host: fileUrl.host, ...outsider } })).statusCode).toBe(404);
    }
    const theirLaunch = await h.app.inject({
      method: 'GET',
      url: `/api/content/${content.id}/package`,
      cookies: { [SESSION_COOKIE]: web.jar[SESSION_COOKIE] as string },
    });
    expect(theirLaunch.statusCode).toBe(404);
  });
});

/** Every entry of a zip (XLSX, a zip of certificates), as text; PDFs inside as their text. */
function zipEntries(buffer: Buffer): Promise<{ name: string; data: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const entries: { name: string; data: Buffer }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** What a reader of an answer sees: JSON or text as it is, XLSX and zip unpacked, PDF as its text. */
async function readableText(res: LightMyRequestResponse): Promise<string> {
  const type = String(res.headers['content-type'] ?? '');
  const bytes = res.rawPayload;
  const isPdf = (b: Buffer) => b.subarray(0, 4).toString() === '%PDF';
  const isZip = (b: Buffer) => b.length > 3 && b[0] === 0x50 && b[1] === 0x4b;
  if (isPdf(bytes)) return pdfText(bytes);
  if (isZip(bytes)) {
    const parts = await Promise.all(
      (await zipEntries(bytes)).map(async (e) =>
        isPdf(e.data) ? pdfText(e.data) : `${e.name}\n${e.data.toString('utf8')}`,
      ),
    );
    return parts.join('\n');
  }
  if (/json|text|xml|html/.test(type) || !type) return res.body;
  throw new Error(`unexpected content type ${type}`);
}

/**
 * Every list, search, report and export the outsider's administrator can get: every GET /api route without path
 * parameters (as they are, and searching for the canary), the reports and exports in each format over their own
 * organisation, and the same filtered by the target's ids.
 */
interface Probe {
  method: Method;
  url: string;
  body?: object;
}
function canaryProbes(o: Own, t: Fixture): Probe[] {
  const gets = h.app.routeList
    .filter(
      (r) => r.method === 'GET' && r.url.startsWith('/api/') && !r.url.includes(':') && !r.url.includes('*'),
    )
    .filter((r) => !['/api/ws', '/api/graphql'].includes(r.url) && !r.url.startsWith('/api/docs'))
    .flatMap((r): Probe[] => [
      { method: 'GET', url: r.url },
      { method: 'GET', url: `${r.url}?per_page=100&deep=1` },
      // A prefix of the canary: lists echo their query in their links, which must not count as a leak.
      { method: 'GET', url: `${r.url}?search=${CANARY_PREFIX}` },
    ]);
  const own = { entities: [o.org.id] };
  const theirFilters = {
    entities: [o.org.id],
    roles: [t.role.id],
    courses: [t.course.id],
    users: [t.victim.id],
  };
  const reportBodies = [{}, own, theirFilters];
  const posts: Probe[] = reportBodies.flatMap((b): Probe[] => [
    { method: 'POST', url: '/api/reports/matrix', body: { ...b, directFormat: 'json' } },
    { method: 'POST', url: '/api/reports/matrix', body: { ...b, directFormat: 'file', format: 'xlsx' } },
    { method: 'POST', url: '/api/reports/matrix', body: { ...b, directFormat: 'file', format: 'pdf' } },
    { method: 'POST', url: '/api/reports/compliance', body: b },
    { method: 'POST', url: '/api/reports/role', body: b },
    { method: 'POST', url: '/api/reports/certificate?per_page=100', body: { ...b, from_date: '2000-01-01' } },
    { method: 'POST', url: '/api/reports/results?per_page=100', body: { ...b, type: 'json' } },
    { method: 'POST', url: '/api/reports/results', body: { ...b, type: 'xlsx' } },
    { method: 'POST', url: '/api/reports/staff', body: { ...b, compliance_type: 'all' } },
    ...['json', 'XLSX', 'PDF'].map(
      (format): Probe => ({
        method: 'POST',
        url: '/api/report',
        body: { ...b, report_type: 'certificate', from_date: '2000-01-01', format },
      }),
    ),
    { method: 'POST', url: '/api/report', body: { ...b, report_type: 'matrix' } },
  ]);
  const ownGets: Probe[] = [
    `/api/reports/compliance/export/xlsx?compliance_type=all`,
    `/api/reports/compliance/export/pdf?compliance_type=all`,
    `/api/reports/compliance/courses?entities=${o.org.id}`,
    `/api/reports/drill-down/entities?entity=${o.org.id}`,
    `/api/reports/drill-down/${o.site.id}/roles`,
    `/api/reports/drill-down/${o.site.id}/${o.role.id}/users`,
    `/api/reports/drill-down/tags?entity=${o.site.id}`,
    `/api/entities/${o.org.slug}/children`,
    `/api/entities/${o.org.slug}/roles`,
    `/api/entities/${o.org.slug}/types`,
    `/api/entities/${o.site.slug}/tags`,
    `/api/entities/${o.site.slug}/courses`,
    `/api/entities/${o.site.slug}/content`,
    `/api/compliance/${o.org.slug}/courses`,
    `/api/compliance/${o.site.slug}/role/${o.role.id}`,
    `/api/entities/${o.site.id}/score/all`,
    `/api/tags/${o.tag.id}/users`,
    ...['received', 'sent'].flatMap((box) => [
      `/api/users/${outsiderLogin.id}/${box}/messages?per_page=100`,
      `/api/users/${outsiderLogin.id}/${box}/messages?search=${CANARY_PREFIX}`,
    ]),
    `/api/users/${o.user.id}/available-courses`,
    `/api/users/${o.user.id}/available-training`,
    `/api/users/${o.user.uuid}/results`,
    `/api/users/${o.user.uuid}/compliance-courses`,
    `/api/users/${o.user.id}/training-certificate?result_id=${o.result.id}`,
    `/api/entity-courses?entityIds=${o.site.id}`,
    ...['courses', 'entities', 'users', 'roles'].map((k) => `/api/reports/presets/options/${k}`),
  ].map((url): Probe => ({ method: 'GET', url }));
  const zips: Probe[] = [
    {
      method: 'POST',
      url: '/api/results/certificate/download-multiple',
      body: { result_ids: [o.result.id] },
    },
  ];
  return [...gets, ...posts, ...ownGets, ...zips];
}

describe('the canary planted in the target organisation', () => {
  it('never appears in any list, search, report or export (JSON, XLSX, PDF, zip) another organisation gets', async () => {
    const probes = canaryProbes(mine, f);
    expect(probes.length).toBeGreaterThan(80);
    const seen: string[] = [];
    const leaks: string[] = [];
    for (const p of probes) {
      const res = await h.app.inject({
        method: p.method,
        url: p.url,
        headers: outsider,
        ...(p.body ? { payload: p.body } : {}),
      });
      if (res.statusCode >= 500) leaks.push(`${p.method} ${p.url}: ${res.statusCode}`);
      const text = await readableText(res);
      if (res.statusCode < 300) seen.push(`${p.method} ${p.url}`);
      if (text.includes(CANARY) || text.includes(f.victim.uuid)) leaks.push(`${p.method} ${p.url}`);
    }
    expect(leaks).toEqual([]);
    // The sweep really read answers (not just refusals): most probes succeed for an administrator of their own org.
    expect(seen.length).toBeGreaterThan(probes.length / 2);
    // About 150 calls, PDFs and XLSX among them.
  }, 180_000);

  it('is found by the target organisation itself (the sweep can see it)', async () => {
    const insiderAdmin = await bearer(
      h.db,
      (await buildUser(h.db, { entityId: f.org.id, permissions: PERMISSIONS.map((p) => p.id) })).id,
    );
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/reports/staff',
      headers: insiderAdmin,
      payload: { compliance_type: 'all' },
    });
    expect(await readableText(res)).toContain(CANARY);
    const users = await h.app.inject({
      method: 'GET',
      url: `/api/users?deep=1&search=${CANARY_PREFIX}`,
      headers: insiderAdmin,
    });
    expect(users.body).toContain(CANARY);
  });
});

/**
 * The importer (issue 18): an upload always imports into the caller's own organisation. A file naming the target's
 * person plans an error, never a change to them, and shows nothing of theirs; another organisation's import answers
 * exactly as a missing one.
 */
describe('importer uploads and imports of another organisation', () => {
  it("plans a row naming the target's person as an error, and changes nothing of theirs", async () => {
    const boundary = '----ccimporter';
    const payload = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nusers\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="people.csv"\r\n` +
        `Content-Type: text/csv\r\n\r\nname,email\r\nTaken Over,${f.victim.email}\r\n--${boundary}--\r\n`,
    );
    const users = async () =>
      JSON.stringify(await h.db.selectFrom('users').selectAll().orderBy('id').execute());
    const before = await users();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/importer/imports',
      headers: { ...outsider, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.counts).toMatchObject({ create: 0, update: 0, unchanged: 0, errors: 1 });
    expect(res.body).not.toContain(CANARY);
    const uuid = res.json().data.uuid as string;
    const errors = await h.app.inject({
      method: 'GET',
      url: `/api/importer/imports/${uuid}/errors`,
      headers: outsider,
    });
    expect(errors.body).not.toContain(CANARY);
    expect(errors.json().data[0].column).toBe('email');
    const applied = await h.app.inject({
      method: 'POST',
      url: `/api/importer/imports/${uuid}/apply`,
      headers: outsider,
    });
    expect(applied.statusCode, applied.body).toBe(202);
    expect(await users()).toBe(before);
  });

  it("answers another organisation's import exactly as a missing one", async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const path of ['', '/rows', '/errors', '/errors.csv']) {
      const theirs = await h.app.inject({
        method: 'GET',
        url: `/api/importer/imports/${f.importer.uuid}${path}`,
        headers: outsider,
      });
      const none = await h.app.inject({
        method: 'GET',
        url: `/api/importer/imports/${missing}${path}`,
        headers: outsider,
      });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.body).toBe(none.body);
    }
  });
});
