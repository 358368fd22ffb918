import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  ComplianceBody,
  ContentBody,
  CourseBody,
  DelegateSettingsBody,
  EntityContentBody,
  H5pBody,
  HelpArticleBody,
  HistoricalBody as HistoricalCareCertificateBody,
  HistoricalResultBody,
  LessonBody,
  QuizBody,
  RoleBody,
  TopicBody,
  TrainingProviderSettingsBody,
  TrainingSessionBody,
  UpdateHistoricalResultBody,
  WhitelabelBody,
} from '@cc/contracts';
import type { z } from 'zod';
import { buildCertificate, buildVersion } from '../src/care-certificate/approval-world';
import { CORE_PATCH_FIXTURES } from '../src/care-certificate/standards-patch-fixtures';
import { DESIGNER_PATCH_FIXTURES } from '../src/designer/patch-fixtures';
import { DOCUMENTS_PATCH_FIXTURES } from '../src/documents/patch-fixtures';
import { sendMessageOnBehalf } from '../src/messaging/service';
import { PATHWAY_PATCH_FIXTURES } from '../src/pathways/pathway-patch-fixtures';
import { WEBHOOKS_PATCH_FIXTURES } from '../src/webhooks/patch-fixtures';
import { buildContentImage } from './content-factories';
import { bearer, buildEntity, buildRole, buildUser, clientFor } from './factories';
import type { Harness } from './harness';
import { buildContent, buildCourse, buildLesson, buildPassedResult } from './learning-factories';

/**
 * How to create and how to read back the resource of every PATCH operation of the OpenAPI document, for
 * server/src/http/patch-operations.test.ts. Each resource is created with a non-default value in every field, so a
 * default filled in by a PATCH shows as a change.
 */
export type Client = Awaited<ReturnType<typeof clientFor>>;
export type Row = Record<string, unknown>;

export interface World {
  h: Harness;
  /** A super admin: passes every permission check, so the fixtures test the write, not the rules. */
  admin: Client;
  /** The super admin's bearer headers (for GraphQL). */
  adminHeaders: Record<string, string>;
  org: { id: number; slug: string };
  site: { id: number; slug: string };
  /** A second level A organisation (a site may move to it). */
  otherOrg: { id: number; slug: string };
}

// biome-ignore lint/suspicious/noExplicitAny: each fixture has its own state; the table holds them all.
export interface PatchFixture<S = any> {
  /** Creates the resource (every field non-default); returns what url, values and read need. */
  create(w: World): Promise<S>;
  url(s: S, w: World): string;
  /** Who sends the PATCH: the world's super admin unless given (an attempt is worked by its learner). */
  client?(s: S): Client;
  /** A new value for every field of the request body: each is sent alone, in a PATCH of its own. */
  values(s: S, w: World): Row;
  /** Sent with every PATCH beside the one field (the attempt's version); its fields count as covered. */
  always?(s: S, w: World): Promise<Row>;
  /** The resource as the API reads it back. */
  read(s: S, w: World): Promise<Row>;
  /** Read-back keys a field changes, when not (only) its own name; [] for a flag that is not stored. */
  effects?: Record<string, string[]>;
  /** Read-back keys that move on every write (a version counter). `updated_at` always may. */
  volatile?: string[];
  /** The create schema: the created resource must hold none of its defaults. */
  createSchema?: z.ZodObject;
  /** Routes without a body schema in the document (JSON or multipart): the schema naming their fields. */
  bodySchema?: z.ZodObject;
}

const uid = () => Math.random().toString(36).slice(2, 8);

/** The `data` of a 2xx answer (fails with the body otherwise). */
export async function dataOf(res: { statusCode: number; body: string; json(): unknown }): Promise<Row> {
  if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: Row }).data;
}
const get = async (w: World, url: string) => dataOf(await w.admin('GET', url));
const post = async (w: World, url: string, body: unknown) => dataOf(await w.admin('POST', url, body));
const patch = async (w: World, url: string, body: unknown) => dataOf(await w.admin('PATCH', url, body));
/** One item of a paged list, by a key (or a test). */
async function itemOf(w: World, url: string, key: string | ((r: Row) => boolean), value?: unknown) {
  const res = await w.admin('GET', url);
  if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
  const test = typeof key === 'function' ? key : (r: Row) => r[key] === value;
  const item = (res.json() as { data: Row[] }).data.find(test);
  if (!item) throw new Error(`${url}: no such item (${String(key)}=${String(value)})`);
  return item;
}

export async function buildWorld(h: Harness): Promise<World> {
  const org = await buildEntity(h.db, { level: 'A' });
  const site = await buildEntity(h.db, { level: 'B', parentId: org.id });
  const otherOrg = await buildEntity(h.db, { level: 'A' });
  const superAdmin = await buildUser(h.db, { entityId: org.id, superAdmin: true });
  const admin = await clientFor(h.app, h.db, superAdmin.id);
  return { h, admin, adminHeaders: await bearer(h.db, superAdmin.id), org, site, otherOrg };
}

/** The read-back keys a write of `field` is expected to change (none for a flag that is not stored). */
export const changesOf = (fixture: PatchFixture, field: string) => fixture.effects?.[field] ?? [field];

/**
 * What a write of `field` changed besides what it may: every read-back key outside the field, its effects and the
 * volatile keys whose value differs. Empty when the write changed only what it was sent.
 */
export function otherChanges(fixture: PatchFixture, field: string, before: Row, after: Row) {
  const may = new Set([field, ...changesOf(fixture, field), 'updated_at', ...(fixture.volatile ?? [])]);
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((key) => !may.has(key) && !isDeepStrictEqual(before[key], after[key]))
    .map((key) => ({ field: key, before: before[key], after: after[key] }));
}

/** True when the write changed at least one of the keys it should (or should change none). */
export function changedWhatItShould(fixture: PatchFixture, field: string, before: Row, after: Row) {
  const changes = changesOf(fixture, field);
  return changes.length === 0 || changes.some((key) => !isDeepStrictEqual(before[key], after[key]));
}

// --- Authoring -----------------------------------------------------------------------------------------------

const course: PatchFixture<{ id: number; category2: number }> = {
  createSchema: CourseBody,
  async create(w) {
    const c1 = await post(w, '/api/course-categories', { name: `Cat ${uid()}` });
    const c2 = await post(w, '/api/course-categories', { name: `Cat ${uid()}` });
    const c = await post(w, '/api/courses', {
      title: 'Moving and handling',
      short_title: 'M&H',
      category_id: c1.id,
      published: true,
    });
    return { id: c.id as number, category2: c2.id as number };
  },
  url: (s) => `/api/courses/${s.id}`,
  values: (s) => ({ title: 'Renamed', short_title: 'New', category_id: s.category2, published: false }),
  read: (s, w) => get(w, `/api/courses/${s.id}`),
  effects: { category_id: ['category'] },
};

const category: PatchFixture<{ id: number; name: string }> = {
  async create(w) {
    const name = `Cat ${uid()}`;
    const c = await post(w, '/api/course-categories', { name });
    return { id: c.id as number, name };
  },
  url: (s) => `/api/course-categories/${s.id}`,
  values: () => ({ name: `Renamed ${uid()}` }),
  read: (s, w) => itemOf(w, '/api/course-categories?per_page=100', 'id', s.id),
};

interface ContentState {
  id: number;
  course2: number;
  image2: number;
  other: number;
}
const content: PatchFixture<ContentState> = {
  createSchema: ContentBody,
  async create(w) {
    const c1 = await buildCourse(w.h.db, w.org.id);
    const c2 = await buildCourse(w.h.db, w.org.id);
    const image1 = await buildContentImage(w.h.db, w.org.id);
    const image2 = await buildContentImage(w.h.db, w.org.id);
    const pre1 = await buildContent(w.h.db, w.org.id, { courseId: c1.id });
    const pre2 = await buildContent(w.h.db, w.org.id, { courseId: c1.id });
    const c = await post(w, '/api/content', {
      course_id: c1.id,
      type: 'scorm',
      title: 'Fire safety',
      aims: '<p>Aims</p>',
      outcomes: '<p>Outcomes</p>',
      image_id: image1.id,
      estimated_duration: 45,
      cpd_accredited: true,
      admin_only: true,
      published: true,
      prerequisites: [[pre1.id]],
    });
    return { id: c.id as number, course2: c2.id, image2: image2.id, other: pre2.id };
  },
  url: (s) => `/api/content/${s.id}`,
  values: (s) => ({
    course_id: s.course2,
    type: 'face2face',
    title: 'Renamed',
    aims: '<p>New aims</p>',
    outcomes: null,
    image_id: s.image2,
    estimated_duration: 90,
    cpd_accredited: false,
    admin_only: false,
    published: false,
    prerequisites: [[s.other]],
  }),
  read: (s, w) => get(w, `/api/content/${s.id}`),
  effects: { course_id: ['course_id', 'course'], image_id: ['image'] },
};

const lesson: PatchFixture<{ id: number }> = {
  createSchema: LessonBody,
  async create(w) {
    const l = await post(w, '/api/lessons', { title: 'Lesson one', question_qty: 7 });
    return { id: l.id as number };
  },
  url: (s) => `/api/lessons/${s.id}`,
  values: () => ({ title: 'Renamed', question_qty: null }),
  read: (s, w) => get(w, `/api/lessons/${s.id}`),
};

const h5pItem: PatchFixture<{ id: number }> = {
  createSchema: H5pBody,
  async create(w) {
    const x = await post(w, '/api/h5ps', { title: 'Video', video_id: 'abc123' });
    return { id: x.id as number };
  },
  url: (s) => `/api/h5ps/${s.id}`,
  values: () => ({ title: 'Renamed', video_id: null }),
  read: (s, w) => get(w, `/api/h5ps/${s.id}`),
};

const topic: PatchFixture<{ id: number; h5p2: number }> = {
  createSchema: TopicBody,
  async create(w) {
    const h1 = await post(w, '/api/h5ps', { title: 'H5P one' });
    const h2 = await post(w, '/api/h5ps', { title: 'H5P two' });
    const t = await post(w, '/api/topics', {
      title: 'Topic',
      body_html: '<p>Body</p>',
      hidden: true,
      skippable: true,
      is_child: true,
      h5p_id: h1.id,
      resources: [{ title: 'Guide', url: 'https://example.test/guide' }],
    });
    return { id: t.id as number, h5p2: h2.id as number };
  },
  url: (s) => `/api/topics/${s.id}`,
  values: (s) => ({
    title: 'Renamed',
    body_html: '<p>New body</p>',
    hidden: false,
    skippable: false,
    is_child: false,
    h5p_id: s.h5p2,
    resources: [{ title: 'Other', url: 'https://example.test/other' }],
  }),
  read: (s, w) => get(w, `/api/topics/${s.id}`),
  effects: { h5p_id: ['h5p_id', 'h5p', 'h5ps'] },
};

const quiz: PatchFixture<{ id: number }> = {
  createSchema: QuizBody,
  async create(w) {
    const q = await post(w, '/api/quizzes', {
      title: 'Quiz',
      published: true,
      is_randomized: true,
      pass_mark: 60,
      questions: [
        {
          text: 'Which exit?',
          answers: [
            { text: 'Nearest', is_correct: true },
            { text: 'Main', is_correct: false },
          ],
        },
      ],
    });
    return { id: q.id as number };
  },
  url: (s) => `/api/quizzes/${s.id}`,
  values: () => ({
    title: 'Renamed',
    published: false,
    is_randomized: false,
    pass_mark: 90,
    questions: [
      {
        text: 'Who calls 999?',
        answers: [
          { text: 'You', is_correct: true },
          { text: 'Nobody', is_correct: false },
        ],
      },
    ],
  }),
  read: (s, w) => get(w, `/api/quizzes/${s.id}`),
};

// --- Entity content and courses ------------------------------------------------------------------------------

const entityContent: PatchFixture<{ contentId: number }> = {
  createSchema: EntityContentBody,
  async create(w) {
    const c = await buildContent(w.h.db, w.org.id);
    await post(w, `/api/entities/${w.site.slug}/content`, {
      content_id: c.id,
      enabled: false,
      admin_only_override: true,
    });
    return { contentId: c.id };
  },
  url: (s, w) => `/api/entities/${w.site.slug}/content/${s.contentId}`,
  values: () => ({ enabled: true, admin_only_override: false }),
  read: (s, w) => itemOf(w, `/api/entities/${w.site.slug}/content?per_page=100`, 'content_id', s.contentId),
};

/** Two rows of one entity; an item names the first. The second row, and the first's override, stay. */
const entityContentMultiple: PatchFixture<{ first: number; second: number }> = {
  async create(w) {
    const first = await buildContent(w.h.db, w.org.id);
    const second = await buildContent(w.h.db, w.org.id);
    for (const c of [first, second])
      await post(w, `/api/entities/${w.site.slug}/content`, {
        content_id: c.id,
        enabled: false,
        admin_only_override: true,
      });
    return { first: first.id, second: second.id };
  },
  url: (_s, w) => `/api/entities/${w.site.slug}/content/updateMultiple`,
  values: (s) => ({ items: [{ content_id: s.first, enabled: true }] }),
  async read(s, w) {
    const url = `/api/entities/${w.site.slug}/content?per_page=100`;
    const [a, b] = [
      await itemOf(w, url, 'content_id', s.first),
      await itemOf(w, url, 'content_id', s.second),
    ];
    return {
      first_enabled: a.enabled,
      first_override: a.admin_only_override,
      second_enabled: b.enabled,
      second_override: b.admin_only_override,
    };
  },
  effects: { items: ['first_enabled'] },
};

const entityCourse: PatchFixture<{ courseId: number }> = {
  async create(w) {
    const c = await buildCourse(w.h.db, w.org.id);
    await post(w, `/api/entities/${w.site.slug}/courses`, { course_id: c.id, enabled: false });
    return { courseId: c.id };
  },
  url: (s, w) => `/api/entities/${w.site.slug}/courses/${s.courseId}`,
  values: () => ({ enabled: true }),
  read: (s, w) => itemOf(w, `/api/entities/${w.site.slug}/courses?per_page=100`, 'course_id', s.courseId),
};

const entityCourseMultiple: PatchFixture<{ first: number; second: number }> = {
  async create(w) {
    const first = await buildCourse(w.h.db, w.org.id);
    const second = await buildCourse(w.h.db, w.org.id);
    for (const c of [first, second])
      await post(w, `/api/entities/${w.site.slug}/courses`, { course_id: c.id, enabled: false });
    return { first: first.id, second: second.id };
  },
  url: (_s, w) => `/api/entities/${w.site.slug}/courses/updateMultiple`,
  values: (s) => ({ items: [{ course_id: s.first, enabled: true }] }),
  async read(s, w) {
    const url = `/api/entities/${w.site.slug}/courses?per_page=100`;
    return {
      first_enabled: (await itemOf(w, url, 'course_id', s.first)).enabled,
      second_enabled: (await itemOf(w, url, 'course_id', s.second)).enabled,
    };
  },
  effects: { items: ['first_enabled'] },
};

// --- Organisations, people, roles ----------------------------------------------------------------------------

const ENTITY_SETTINGS = {
  pat_max_days: 200,
  email: 'office@oakfield.test',
  code: 'OAK-1',
  telephone: '01234 567890',
  website: 'https://oakfield.test',
  notes: 'Notes',
  address: '1 High Street',
  events_reminder: true,
  allow_ms_sign_in: true,
  allow_google_sign_in: true,
  notify_all_standards_selected: true,
  require_training_record_evidence: true,
  is_training_company: true,
  expiry_warning: 45,
  starter_period: 60,
  new_requirement_days: 14,
  restricted_access_password: 'Secret-Door-1',
  restricted_access_at: '2026-01-01T09:00:00.000Z',
  restricted_access_message: 'Closed for maintenance',
  password_expire_period_in_months: 6,
  password_requirements: {
    min_length: 12,
    require_uppercase: false,
    require_lowercase: false,
    require_number: false,
    require_symbol: true,
  },
  compromised_passwords: 'off',
  always_show_popup_on_login: true,
  popup_link: 'https://oakfield.test/popup',
  login_popup_alt_name: 'Notice',
  can_view_internal_bookings: true,
  can_view_external_bookings: true,
  can_manage_bookings: true,
  can_see_new_dashboards: true,
  quiet_hours_start: '22:00',
  quiet_hours_end: '07:00',
};

const entity: PatchFixture<{ id: number; course2: number }> = {
  async create(w) {
    const c1 = await buildCourse(w.h.db, w.org.id);
    const c2 = await buildCourse(w.h.db, w.org.id);
    const e = await post(w, '/api/entities', {
      ...ENTITY_SETTINGS,
      name: 'Oakfield House',
      slug: `oak-${uid()}`,
      subdomain: `oak-${uid()}`,
      level: 'B',
      parent_id: w.org.id,
      focused_courses: [c1.id],
    });
    return { id: e.id as number, course2: c2.id };
  },
  url: (s) => `/api/entities/${s.id}`,
  values: (s, w) => ({
    email: 'new@oakfield.test',
    code: 'OAK-2',
    telephone: '09876 543210',
    website: null,
    notes: 'New notes',
    address: null,
    subdomain: `new-${uid()}`,
    events_reminder: false,
    allow_ms_sign_in: false,
    allow_google_sign_in: false,
    notify_all_standards_selected: false,
    require_training_record_evidence: false,
    is_training_company: false,
    expiry_warning: 10,
    starter_period: 5,
    new_requirement_days: 7,
    restricted_access_password: 'Other-Door-2',
    restricted_access_at: null,
    restricted_access_message: null,
    password_expire_period_in_months: null,
    // One rule alone: the others keep their stored values.
    password_requirements: { min_length: 16 },
    compromised_passwords: 'enforce_change',
    always_show_popup_on_login: false,
    popup_link: null,
    login_popup_alt_name: null,
    focused_courses: [s.course2],
    pat_max_days: 30,
    can_view_internal_bookings: false,
    can_view_external_bookings: false,
    can_manage_bookings: false,
    can_see_new_dashboards: false,
    quiet_hours_start: '21:30',
    quiet_hours_end: null,
    name: 'Renamed',
    slug: `new-${uid()}`,
    level: 'B',
    parent_id: w.otherOrg.id,
  }),
  async read(s, w) {
    const data = await get(w, `/api/entities/${s.id}`);
    // The password is stored hashed and never read back: its hash shows it changed, or not.
    const row = await w.h.db
      .selectFrom('entities')
      .select('restricted_access_password')
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    // Each password rule apart, so one rule sent alone shows whether the others were kept.
    const { password_requirements, ...rest } = data;
    const rules = Object.entries((password_requirements as Row | null) ?? {});
    return {
      ...rest,
      ...Object.fromEntries(rules.map(([rule, value]) => [`password_requirements.${rule}`, value])),
      restricted_access_password_hash: row.restricted_access_password,
    };
  },
  effects: {
    level: [], // accepted only unchanged
    restricted_access_password: ['restricted_access_password_hash'],
    password_requirements: ['password_requirements.min_length'],
    // The courses available at an entity include those of the entities above it (spec 1 §3 entity `courses`).
    parent_id: ['parent_id', 'parent', 'whitelabel', 'courses'],
    name: ['name', 'whitelabel'],
    slug: ['slug', 'whitelabel'],
    // Issue 29 §7: the training company flag carries its approval (null when it is not one).
    is_training_company: ['is_training_company', 'training_company_status'],
  },
};

const user: PatchFixture<{ id: number; site2: number; role2: number; type2: number }> = {
  async create(w) {
    // Roles and types of the level A organisation fit both of its sites, so the user may move alone.
    const role1 = await buildRole(w.h.db, w.org.id);
    const type1 = await post(w, `/api/entities/${w.org.slug}/types`, { name: `Type ${uid()}` });
    const site2 = await buildEntity(w.h.db, { level: 'B', parentId: w.org.id });
    const role2 = await buildRole(w.h.db, w.org.id);
    const type2 = await post(w, `/api/entities/${w.org.slug}/types`, { name: `Type ${uid()}` });
    const u = await post(w, '/api/users', {
      name: 'Sam Carer',
      email: `sam-${uid()}@example.test`,
      primary_entity_id: w.site.id,
      role_id: role1.id,
      type_id: type1.id,
      is_trainer: true,
      start_date: '2025-03-01',
      password: 'Correct-Horse-Battery-9',
    });
    const id = u.id as number;
    await w.h.db
      .updateTable('users')
      .set({ user_preferences: JSON.stringify({ theme: 'dark', matrix: { dense: true } }) })
      .where('id', '=', id)
      .execute();
    return { id, site2: site2.id, role2: role2.id, type2: type2.id as number };
  },
  url: (s) => `/api/users/${s.id}`,
  values: (s) => ({
    name: 'Sam Renamed',
    email: `new-${uid()}@example.test`,
    primary_entity_id: s.site2,
    role_id: s.role2,
    type_id: s.type2,
    is_trainer: false,
    start_date: null,
    user_preferences: { language: 'cy' },
  }),
  async read(s, w) {
    const data = await get(w, `/api/users/${s.id}`);
    // Preferences are shown to the user only; read them from the row.
    const row = await w.h.db
      .selectFrom('users')
      .select('user_preferences')
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    return { ...data, user_preferences: row.user_preferences };
  },
  effects: {
    role_id: ['role'],
    type_id: ['type'],
    primary_entity_id: ['primary_entity', 'a_entity'],
    // An e-mail change waits for the new address to confirm it (issue 11 §3): it shows as pending.
    email: ['pending_email'],
  },
};

const role: PatchFixture<{ id: number }> = {
  createSchema: RoleBody,
  async create(w) {
    const r = await post(w, `/api/entities/${w.site.slug}/roles`, {
      name: `Role ${uid()}`,
      inspectable: true,
    });
    return { id: r.id as number };
  },
  url: (s, w) => `/api/entities/${w.site.slug}/roles/${s.id}`,
  values: () => ({ name: `Renamed ${uid()}`, inspectable: false }),
  read: (s, w) => get(w, `/api/entities/${w.site.slug}/roles/${s.id}`),
};

const type: PatchFixture<{ id: number }> = {
  async create(w) {
    const t = await post(w, `/api/entities/${w.site.slug}/types`, { name: `Type ${uid()}` });
    return { id: t.id as number };
  },
  url: (s, w) => `/api/entities/${w.site.slug}/types/${s.id}`,
  values: () => ({ name: `Renamed ${uid()}` }),
  read: (s, w) => get(w, `/api/entities/${w.site.slug}/types/${s.id}`),
};

const tag: PatchFixture<{ id: number }> = {
  async create(w) {
    const t = await post(w, `/api/entities/${w.site.slug}/tags`, { name: `Tag ${uid()}` });
    return { id: t.id as number };
  },
  url: (s) => `/api/tags/${s.id}`,
  values: () => ({ name: `Renamed ${uid()}` }),
  read: (s, w) => itemOf(w, `/api/entities/${w.site.slug}/tags?per_page=100`, 'id', s.id),
};

const userPermission: PatchFixture<{ id: number }> = {
  async create(w) {
    const u = await buildUser(w.h.db, { entityId: w.site.id });
    const g = await post(w, '/api/permissions', { user_id: u.id, permission_id: 12 });
    return { id: g.id as number };
  },
  url: (s) => `/api/permissions/${s.id}`,
  values: () => ({ permission_id: 13 }),
  read: (s, w) => get(w, `/api/permissions/${s.id}`),
  effects: { permission_id: ['permission_id', 'permission'] },
};

const WHITELABEL_SET = {
  primaryColour: '#112233',
  secondaryColour: '#223344',
  accentPrimaryColour: '#334455',
  accentSecondaryColour: '#445566',
  successPrimaryColour: '#556677',
  successSecondaryColour: '#667788',
  warningPrimaryColour: '#778899',
  warningSecondaryColour: '#8899aa',
  dangerPrimaryColour: '#99aabb',
  dangerSecondaryColour: '#aabbcc',
  trafficLightOk: '#00aa00',
  trafficLightWarning: '#aaaa00',
  trafficLightDanger: '#aa0000',
  entityAltName: 'Home',
  entitiesAltName: 'Homes',
  companyName: 'Oakfield Care',
  certificateGroupMenuName: 'Awards',
  logoRedirectUrl: 'https://oakfield.test',
  primaryComplianceAltName: 'Core',
  secondaryComplianceAltName: 'Extra',
  greenScoreBandLowerMargin: 90,
  amberScoreBandLowerMargin: 70,
  faviconUrl: 'https://oakfield.test/favicon.ico',
  dateFormat: 'MM/DD/YYYY',
};
const whitelabel: PatchFixture<{ slug: string }> = {
  bodySchema: WhitelabelBody as unknown as z.ZodObject,
  async create(w) {
    const e = await buildEntity(w.h.db, { level: 'A' });
    await post(w, `/api/entities/${e.slug}/whitelabel`, WHITELABEL_SET);
    return { slug: e.slug };
  },
  url: (s) => `/api/entities/${s.slug}/whitelabel`,
  values: () => ({
    primaryColour: '#010101',
    secondaryColour: '#020202',
    accentPrimaryColour: '#030303',
    accentSecondaryColour: '#040404',
    successPrimaryColour: '#050505',
    successSecondaryColour: '#060606',
    warningPrimaryColour: '#070707',
    warningSecondaryColour: '#080808',
    dangerPrimaryColour: '#090909',
    dangerSecondaryColour: '#0a0a0a',
    trafficLightOk: '#0b0b0b',
    trafficLightWarning: '#0c0c0c',
    trafficLightDanger: '#0d0d0d',
    entityAltName: 'Site',
    entitiesAltName: 'Sites',
    companyName: 'Renamed Care',
    certificateGroupMenuName: 'Certificates',
    logoRedirectUrl: '',
    primaryComplianceAltName: 'Mandatory',
    secondaryComplianceAltName: 'Required',
    greenScoreBandLowerMargin: 95,
    amberScoreBandLowerMargin: 60,
    faviconUrl: '',
    dateFormat: 'YYYY-MM-DD',
    // Without a stored file the remove flags change nothing; they must not change anything else either.
    removeLogo: '1',
    removeLoginLogo: '1',
    removeFavicon: '1',
    _method: 'PATCH',
  }),
  read: (s, w) => get(w, `/api/whitelabel?slug=${s.slug}`),
  effects: {
    primaryColour: ['primary'],
    secondaryColour: ['secondary'],
    accentPrimaryColour: ['accent'],
    accentSecondaryColour: ['accentSecondary'],
    successPrimaryColour: ['success'],
    successSecondaryColour: ['successSecondary'],
    warningPrimaryColour: ['warning'],
    warningSecondaryColour: ['warningSecondary'],
    dangerPrimaryColour: ['danger'],
    dangerSecondaryColour: ['dangerSecondary'],
    faviconUrl: ['favicon'],
    removeLogo: [],
    removeLoginLogo: [],
    removeFavicon: [],
    _method: [],
  },
};

const certificateBranding: PatchFixture<{ slug: string; logo2: number }> = {
  async create(w) {
    const e = await buildEntity(w.h.db, { level: 'A' });
    const logo1 = await buildContentImage(w.h.db, e.id);
    const logo2 = await buildContentImage(w.h.db, e.id);
    await patch(w, `/api/entities/${e.slug}/certificate-branding`, {
      title: 'Award',
      signatory_name: 'Jo Manager',
      signatory_role: 'Registered manager',
      accent_colour: '#123456',
      logo_file_id: logo1.id,
    });
    return { slug: e.slug, logo2: logo2.id };
  },
  url: (s) => `/api/entities/${s.slug}/certificate-branding`,
  values: (s) => ({
    title: 'Certificate',
    signatory_name: null,
    signatory_role: 'Director',
    accent_colour: '#654321',
    logo_file_id: s.logo2,
  }),
  read: (s, w) => get(w, `/api/entities/${s.slug}/certificate-branding`),
  effects: { logo_file_id: ['logo_file_id', 'logo_url'] },
};

// --- Learning ------------------------------------------------------------------------------------------------

interface AttemptState {
  id: number;
  learner: Client;
  topics: number[];
  h5pTopic: number;
  h5pId: number;
}
/** An elearning attempt in progress, worked through by its learner (only the owner may PATCH it). */
const attempt: PatchFixture<AttemptState> = {
  async create(w) {
    const c = await buildContent(w.h.db, w.org.id);
    const { topics } = await buildLesson(w.h.db, c.id, w.org.id, [
      { title: 'One' },
      { title: 'Two', skippable: true },
      { title: 'Three' },
      { title: 'Four' },
    ]);
    const h5p = await post(w, '/api/h5ps', { title: 'Clip' });
    const h5pTopic = topics[3] as { id: number };
    await w.h.db
      .updateTable('topics')
      .set({ h5p_id: h5p.id as number })
      .where('id', '=', h5pTopic.id)
      .execute();
    const u = await buildUser(w.h.db, { entityId: w.org.id });
    const learner = await clientFor(w.h.app, w.h.db, u.id);
    const created = await dataOf(await learner('POST', `/api/users/${u.id}/attempts`, { content_id: c.id }));
    const id = created.id as number;
    const version = created.version as number;
    await dataOf(
      await learner('PATCH', `/api/attempts/${id}`, {
        version,
        progress: { current: { lesson_id: null, topic_id: topics[0]?.id, quiz_id: null } },
        cmi: { 'cmi.suspend_data': 'first' },
      }),
    );
    return { id, learner, topics: topics.map((t) => t.id), h5pTopic: h5pTopic.id, h5pId: h5p.id as number };
  },
  url: (s) => `/api/attempts/${s.id}`,
  client: (s) => s.learner,
  async always(s) {
    return { version: (await dataOf(await s.learner('GET', `/api/attempts/${s.id}`))).version };
  },
  values: (s) => ({
    progress: { current: { lesson_id: null, topic_id: s.topics[2], quiz_id: null } },
    completed_topic_id: s.topics[0],
    skipped_topic_id: s.topics[1],
    cmi: { 'cmi.suspend_data': 'second' },
    sco: 'ITEM-2',
    h5p: { topic_id: s.h5pTopic, h5p_id: s.h5pId, score: 1, max_score: 2, passed: false },
    commit: { session: 'patch-fixture', seq: 1 },
    client_id: randomUUID(),
  }),
  read: async (s) => dataOf(await s.learner('GET', `/api/attempts/${s.id}`)),
  volatile: ['version'],
  effects: {
    version: [],
    // Names the SCO that `cmi` belongs to; not stored on its own (and this content is not SCORM).
    sco: [],
    completed_topic_id: ['progress'],
    skipped_topic_id: ['progress'],
    h5p: ['progress'],
    // Orders a SCO's commits within one launch (issue 28 §4): checked on write, not read back on its own.
    commit: [],
    // Names the write so a resend records once (issue 31 §2): checked on write, not read back.
    client_id: [],
  },
};

// --- Reports -------------------------------------------------------------------------------------------------

const preset: PatchFixture<{ id: number; course: number; role: number; user: number }> = {
  async create(w) {
    const c = await buildCourse(w.h.db, w.org.id);
    const r = await buildRole(w.h.db, w.org.id);
    const u = await buildUser(w.h.db, { entityId: w.site.id });
    const p = await post(w, '/api/reports/presets', {
      name: 'Monthly matrix',
      report_type: 'matrix',
      entities: [w.site.id],
      courses: [],
      pathways: [],
      users: [],
      roles: [],
      includeStatusTypes: ['expired', 'missing'],
      includeStarters: false,
      compliance_type: 'secondary',
      previousMonths: 6,
      grade: 'Pass',
      filter_by: 'expires',
      course_type: 'elearning',
      period: 'last_week',
      from_date: '2026-01-01',
      to_date: '2026-03-31',
      primary_only: true,
      never_logged_in_only: true,
      date_completion: true,
      new_starters_filter: 'new_starters_only',
      care_certificate_filter: 'complete',
    });
    return { id: p.id as number, course: c.id, role: r.id, user: u.id };
  },
  url: (s) => `/api/reports/presets/${s.id}`,
  values: (s, w) => ({
    name: 'Renamed',
    report_type: 'certificate',
    entities: [w.org.id],
    courses: [s.course],
    pathways: [], // no pathway exists yet (a capability still to build): sent unchanged
    users: [s.user],
    roles: [s.role],
    includeStatusTypes: ['in_date'],
    includeStarters: true,
    compliance_type: 'primary',
    previousMonths: 12,
    grade: null,
    filter_by: 'completed',
    course_type: null,
    period: 'today',
    from_date: '2025-12-01',
    to_date: '2026-02-28',
    primary_only: false,
    never_logged_in_only: false,
    date_completion: false,
    new_starters_filter: 'include_new_starters',
    care_certificate_filter: 'either',
  }),
  read: (s, w) => get(w, `/api/reports/presets/${s.id}`),
  effects: { pathways: [] },
};

const schedule: PatchFixture<{ id: number; preset2: number }> = {
  async create(w) {
    const body = { report_type: 'matrix', entities: [w.site.id] };
    const p1 = await post(w, '/api/reports/presets', { ...body, name: 'One' });
    const p2 = await post(w, '/api/reports/presets', { ...body, name: 'Two' });
    const s = await post(w, '/api/reports/schedules', {
      preset_id: p1.id,
      frequency: 'weekly',
      time: '07:30',
      weekday: 2,
      timezone: 'Europe/Paris',
      recipients: ['a@example.test', 'b@example.test'],
      format: 'XLSX',
      active: true,
    });
    return { id: s.id as number, preset2: p2.id as number };
  },
  url: (s) => `/api/reports/schedules/${s.id}`,
  values: (s) => ({
    preset_id: s.preset2,
    frequency: 'daily',
    time: '18:00',
    weekday: 5,
    day_of_month: 3,
    timezone: 'Europe/London',
    recipients: ['c@example.test'],
    format: 'PDF',
    active: false,
  }),
  read: (s, w) => get(w, `/api/reports/schedules/${s.id}`),
  volatile: ['next_run_at'],
  effects: {
    preset_id: ['preset_id', 'preset'],
    // A daily schedule keeps no weekday; a weekly one no day of the month (recurrenceColumns).
    frequency: ['frequency', 'weekday', 'cron'],
    day_of_month: [],
    time: ['time', 'cron'],
    weekday: ['weekday', 'cron'],
  },
};

// --- Results and compliance ----------------------------------------------------------------------------------

interface ResultState {
  id: number;
  course2: number;
}
/** A learner of the site with two courses. */
async function learnerWithCourses(w: World) {
  const u = await buildUser(w.h.db, { entityId: w.site.id });
  const c1 = await buildCourse(w.h.db, w.org.id);
  const c2 = await buildCourse(w.h.db, w.org.id);
  return { user: u.id, course1: c1.id, course2: c2.id };
}

const historical: PatchFixture<ResultState> = {
  createSchema: HistoricalResultBody,
  bodySchema: UpdateHistoricalResultBody,
  async create(w) {
    const l = await learnerWithCourses(w);
    const r = await post(w, '/api/results/historical/create', {
      user_id: l.user,
      course_id: l.course1,
      completed_at: '2025-06-01',
      passed: false,
      score: 40,
      notes: 'Paper record',
    });
    return { id: r.id as number, course2: l.course2 };
  },
  url: (s) => `/api/results/historical/${s.id}`,
  values: (s) => ({
    course_id: s.course2,
    completed_at: '2025-07-15',
    passed: true,
    score: 85,
    notes: null,
    remove_evidence: true,
  }),
  read: (s, w) => get(w, `/api/results/${s.id}`),
  effects: {
    course_id: ['course_id', 'course', 'expires_at'],
    completed_at: ['completed_at', 'expires_at'],
    passed: ['passed', 'expires_at'],
    remove_evidence: [], // no evidence stored: nothing to remove
  },
};

const exempt: PatchFixture<ResultState> = {
  async create(w) {
    const l = await learnerWithCourses(w);
    const r = await post(w, '/api/results/exempt', {
      user_id: l.user,
      course_id: l.course1,
      start_date: '2025-01-01',
      end_date: '2027-01-01',
      notes: 'Agreed by the manager',
    });
    return { id: r.id as number, course2: l.course2 };
  },
  url: (s) => `/api/results/exempt/${s.id}`,
  // The reason is required (issue 28 §6): it changes, it is never removed.
  values: (s) => ({
    course_id: s.course2,
    start_date: '2025-02-01',
    end_date: null,
    notes: 'Changed by the manager',
  }),
  read: (s, w) => get(w, `/api/results/${s.id}`),
  effects: {
    course_id: ['course_id', 'course'],
    start_date: ['completed_at'],
    end_date: ['expires_at'],
  },
};

const suppressCertificate: PatchFixture<{ id: number }> = {
  async create(w) {
    const l = await learnerWithCourses(w);
    const r = await buildPassedResult(w.h.db, {
      userId: l.user,
      entityId: w.site.id,
      courseId: l.course1,
      suppressed: true,
    });
    return { id: r.id };
  },
  url: (s) => `/api/results/${s.id}/suppress-certificate`,
  values: () => ({ suppressed: false }),
  read: (s, w) => get(w, `/api/results/${s.id}`),
  effects: { suppressed: ['certificate_suppressed'] },
};

const compliance: PatchFixture<{ id: number }> = {
  createSchema: ComplianceBody,
  async create(w) {
    const r = await buildRole(w.h.db, w.org.id);
    const c = await buildCourse(w.h.db, w.org.id);
    const row = await post(w, '/api/compliance', {
      entity: w.org.slug,
      roleId: r.id,
      courseId: c.id,
      type: 'secondary',
      validity: 24,
      grace_days: 30,
    });
    return { id: row.id as number };
  },
  url: (s) => `/api/compliance/${s.id}`,
  values: (_s, w) => ({
    entity: w.org.slug,
    type: 'primary',
    validity: 12,
    update_previous_results: true,
    grace_days: 10,
  }),
  read: (s, w) => get(w, `/api/compliance/${s.id}`),
  effects: { entity: [], update_previous_results: [], grace_days: ['due_at'] },
};

const userComplianceCourse: PatchFixture<{ user: number; course: number }> = {
  async create(w) {
    const r = await buildRole(w.h.db, w.org.id);
    const c = await buildCourse(w.h.db, w.org.id);
    await post(w, '/api/compliance', {
      entity: w.org.slug,
      roleId: r.id,
      courseId: c.id,
      type: 'primary',
      validity: 12,
    });
    const u = await buildUser(w.h.db, { entityId: w.org.id, roleId: r.id });
    await patch(w, `/api/users/${u.id}/compliance-courses/${c.id}`, { exempt: true, notes: 'Agency' });
    return { user: u.id, course: c.id };
  },
  url: (s) => `/api/users/${s.user}/compliance-courses/${s.course}`,
  values: () => ({ exempt: false, notes: 'Agency staff, trained elsewhere', end_date: '2031-03-01' }),
  effects: {
    exempt: ['exempt', 'status', 'latest_result', 'exemption', 'course_status', 'status_date', 'out_of_date'],
    notes: ['exemption'],
    end_date: ['exemption', 'latest_result', 'status_date'],
  },
  read: (s, w) =>
    itemOf(
      w,
      `/api/users/${s.user}/compliance-courses?per_page=100`,
      (r) => (r.course as { id: number }).id === s.course,
    ),
};

/** An in-app notification (issue 14): its recipient marks it read or unread; created read, so `read` changes. */
const notification: PatchFixture<{ id: number; recipient: Client }> = {
  async create(w) {
    const u = await buildUser(w.h.db, { entityId: w.org.id });
    const row = await w.h.db
      .insertInto('notifications')
      .values({
        kind: 'expiry_reminder',
        subject_key: `course:1@${uid()}`,
        occasion: '30',
        user_id: u.id,
        entity_id: w.org.id,
        channel: 'in_app',
        state: 'read',
        title: 'Fire safety expires in 30 days',
        body: 'Renew it.',
        link: '/learner-dashboard',
        read_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, recipient: await clientFor(w.h.app, w.h.db, u.id) };
  },
  url: (s) => `/api/notifications/${s.id}`,
  client: (s) => s.recipient,
  values: () => ({ read: false }),
  async read(s) {
    const res = await s.recipient('GET', '/api/notifications?per_page=100');
    const item = (res.json() as { data: Row[] }).data.find((r) => r.id === s.id);
    if (!item) throw new Error(`notification ${s.id} not listed`);
    return item;
  },
};

// --- Messaging ---------------------------------------------------------------------------------------------

/** A message received and read; only its recipient may mark it (their own mailbox). */
const receivedMessage: PatchFixture<{ id: number; recipient: number; client: Client }> = {
  async create(w) {
    const sender = await buildUser(w.h.db, { entityId: w.site.id });
    const recipient = await buildUser(w.h.db, { entityId: w.site.id });
    const sent = await sendMessageOnBehalf(w.h.db, {
      senderId: sender.id,
      recipientIds: [recipient.id],
      text: 'Please read',
      mail: false,
    });
    const client = await clientFor(w.h.app, w.h.db, recipient.id);
    const url = `/api/users/${recipient.id}/received/messages/${sent.id}`;
    await dataOf(await client('PATCH', url, { read: true }));
    return { id: sent.id, recipient: recipient.id, client };
  },
  url: (s) => `/api/users/${s.recipient}/received/messages/${s.id}`,
  client: (s) => s.client,
  values: () => ({ read: false }),
  read: async (s) => {
    const res = await s.client('GET', `/api/users/${s.recipient}/received/messages?per_page=100`);
    const item = (res.json() as { data: Row[] }).data.find((m) => m.id === s.id);
    if (!item) throw new Error(`received message ${s.id} not listed`);
    return item;
  },
  effects: { read: ['read_at'] },
};

const helpArticle: PatchFixture<{ id: number }> = {
  createSchema: HelpArticleBody,
  async create(w) {
    const a = await post(w, '/api/help-articles', {
      title: `Help ${uid()}`,
      url_regex: '^/users/\\*$',
      link_suffix: '#profile',
      body: 'How to read a profile.',
    });
    return { id: a.id as number };
  },
  url: (s) => `/api/help-articles/${s.id}`,
  values: () => ({
    title: `Renamed ${uid()}`,
    url_regex: '^/reports/matrix$',
    link_suffix: '?help=matrix',
    body: 'Another body.',
  }),
  read: async (s, w) => itemOf(w, '/api/help-articles', 'id', s.id),
};

// --- Bookings (issue 15) --------------------------------------------------------------------------------------

/** A training company's settings, saved with a non-default value in every field. */
const trainingProviderSettings: PatchFixture<{ slug: string }> = {
  createSchema: TrainingProviderSettingsBody,
  async create(w) {
    const e = await buildEntity(w.h.db, { level: 'A', isTrainingCompany: true });
    await patch(w, `/api/entities/${e.slug}/training-provider-settings`, {
      delegate_auto_accept_period: 12,
      delegate_removal_cutoff_hours: 24,
      practical_min_delegates: 3,
      practical_max_delegates: 10,
      theory_min_delegates: 2,
      theory_max_delegates: 16,
      waitlist_claim_hours: 6,
      waitlist_cutoff_hours: 12,
      minimum_decision_hours: 96,
      under_minimum_action: 'confirm',
    });
    return { slug: e.slug };
  },
  url: (s) => `/api/entities/${s.slug}/training-provider-settings`,
  values: () => ({
    delegate_auto_accept_period: 0,
    delegate_removal_cutoff_hours: 72,
    practical_min_delegates: 5,
    practical_max_delegates: 9,
    theory_min_delegates: 6,
    theory_max_delegates: 30,
    waitlist_claim_hours: 48,
    waitlist_cutoff_hours: 2,
    minimum_decision_hours: 120,
    under_minimum_action: 'cancel',
  }),
  read: (s, w) => get(w, `/api/entities/${s.slug}/training-provider-settings`),
};

/** An organisation's delegate settings, every flag the opposite of its default. */
const delegateSettings: PatchFixture<{ slug: string }> = {
  createSchema: DelegateSettingsBody,
  async create(w) {
    const e = await buildEntity(w.h.db, { level: 'B', parentId: w.org.id });
    await patch(w, `/api/entities/${e.slug}/delegate-settings`, {
      require_approval: true,
      allow_self_cancel: false,
      send_calendar_invites: false,
      notify_managers: false,
    });
    return { slug: e.slug };
  },
  url: (s) => `/api/entities/${s.slug}/delegate-settings`,
  values: () => ({
    require_approval: false,
    allow_self_cancel: true,
    send_calendar_invites: true,
    notify_managers: true,
  }),
  read: (s, w) => get(w, `/api/entities/${s.slug}/delegate-settings`),
};

/** A training session (issue 15) with every field off its default; two face2face contents and two trainers. */
const trainingSession: PatchFixture<{ id: number; contentId: number; trainerId: number }> = {
  createSchema: TrainingSessionBody,
  async create(w) {
    const f2f = () => buildContent(w.h.db, w.org.id, { type: 'face2face', published: true });
    const [first, second] = [await f2f(), await f2f()];
    const trainer = () => buildUser(w.h.db, { entityId: w.org.id, isTrainer: true });
    const [t1, t2] = [await trainer(), await trainer()];
    const s = await post(w, '/api/training-sessions', {
      contentId: first.id,
      entity_id: w.org.id,
      date: '2031-03-01',
      startTime: '09:00',
      endTime: '16:00',
      additionalDates: [{ date: '2031-03-02', startTime: '09:00', endTime: '12:00' }],
      trainerId: t1.id,
      venue: 'Oak Hall',
      room: 'Room 1',
      virtual: true,
      virtual_url: 'https://meet.example/one',
      area: 'North',
      aim: 'Safe moving',
      contentCovered: 'Hoists',
      learningOutcomes: 'Moves people safely',
      availableTo: 'all',
      minDelegates: 2,
      maxDelegates: 8,
      grading_method: 'score',
      pass_mark: 60,
    });
    return { id: s.id as number, contentId: second.id, trainerId: t2.id };
  },
  url: (s) => `/api/training-sessions/${s.id}`,
  values: (s, w) => ({
    contentId: s.contentId,
    entity_id: w.site.id,
    date: '2031-02-15',
    startTime: '08:00',
    endTime: '17:00',
    additionalDates: [{ date: '2031-03-05', startTime: '10:00', endTime: '15:00' }],
    trainerId: s.trainerId,
    venue: 'Elm Hall',
    room: 'Room 2',
    virtual: false,
    virtual_url: 'https://meet.example/two',
    area: 'South',
    aim: 'Fire safety',
    contentCovered: 'Extinguishers',
    learningOutcomes: 'Knows the drill',
    availableTo: 'internal',
    minDelegates: 1,
    maxDelegates: 9,
    grading_method: 'pass_fail',
    pass_mark: 70,
  }),
  read: async (s, w) => get(w, `/api/training-sessions/${s.id}`),
  effects: {
    contentId: ['contentId', 'content', 'course'],
    entity_id: ['entity'],
    date: ['date', 'dates', 'starts_at'],
    startTime: ['startTime', 'dates', 'starts_at'],
    endTime: ['endTime', 'dates'],
    additionalDates: ['dates', 'ends_at'],
    trainerId: ['trainerId', 'trainer'],
    maxDelegates: ['maxDelegates', 'places_free'],
  },
};

// --- Care Certificate workflow (issue 16) ------------------------------------------------------------------------

/** An observation of a certificate (criteria 1a of a test version), another assessor and criterion to move to. */
const careCertificateObservation: PatchFixture<{
  uuid: string;
  id: number;
  otherUserId: number;
  criterionId: number;
}> = {
  async create(w) {
    const version = await buildVersion(w.h.db);
    const learner = await buildUser(w.h.db, { entityId: w.site.id });
    const other = await buildUser(w.h.db, { entityId: w.site.id, name: 'Other Assessor' });
    const cert = await buildCertificate(w.h.db, { userId: learner.id, versionId: version.id });
    const o = await post(w, `/api/care-certificates/${cert.uuid}/observations`, {
      assessor_name: 'First Assessor',
      observed_at: '2026-02-03T09:30:00Z',
      place: 'Lounge',
      shift: 'early',
      observed: 'Helped at breakfast.',
      outcome: 'not_yet_competent',
      criterion_ids: [version.criteria['1a']],
    });
    return {
      uuid: cert.uuid,
      id: o.id as number,
      otherUserId: other.id,
      criterionId: version.criteria['2a'] as number,
    };
  },
  url: (s) => `/api/care-certificates/${s.uuid}/observations/${s.id}`,
  values: (s) => ({
    assessor_id: s.otherUserId,
    assessor_name: 'Second Assessor',
    observed_at: '2026-02-05T14:00:00Z',
    place: 'Garden',
    shift: 'late',
    observed: 'Supported a walk outside.',
    outcome: 'competent',
    criterion_ids: [s.criterionId],
  }),
  read: async (s, w) => {
    const view = await get(w, `/api/care-certificates/${s.uuid}`);
    const o = (view.observations as Row[]).find((x) => x.id === s.id);
    if (!o) throw new Error('observation gone');
    return o;
  },
  effects: { assessor_id: ['assessor'], assessor_name: ['assessor'] },
};

/** A historical certificate with every field set; a second version to move it to. */
const historicalCareCertificate: PatchFixture<{ uuid: string; versionId: number }> = {
  createSchema: HistoricalCareCertificateBody,
  async create(w) {
    const [first, second] = [await buildVersion(w.h.db), await buildVersion(w.h.db)];
    const learner = await buildUser(w.h.db, { entityId: w.site.id });
    const c = await post(w, '/api/historical-care-certificates', {
      user_id: learner.id,
      version_id: first.id,
      completed_on: '2024-06-14',
      started_on: '2024-01-10',
      provider: 'Elm Care',
      assessor_name: 'Pat Assessor',
      notes: 'Seen at interview.',
    });
    return { uuid: c.uuid as string, versionId: second.id };
  },
  url: (s) => `/api/historical-care-certificates/${s.uuid}`,
  values: (s) => ({
    version_id: s.versionId,
    completed_on: '2024-06-20',
    started_on: '2024-02-01',
    provider: 'Ash Care',
    assessor_name: 'Lee Assessor',
    notes: 'Copy on file.',
  }),
  read: async (s, w) => {
    const c = await get(w, `/api/historical-care-certificates/${s.uuid}`);
    return {
      user_id: (c.user as Row).id,
      version_id: (c.version as Row).id,
      completed_on: c.completed_on,
      started_on: c.started_on,
      provider: c.provider,
      assessor_name: c.assessor_name,
      notes: c.notes,
    };
  },
};

/** Every PATCH operation of the OpenAPI document, by "PATCH <path>". */
export const PATCH_FIXTURES: Record<string, PatchFixture> = {
  'PATCH /api/entities/{id}': entity,
  'PATCH /api/users/{id}': user,
  'PATCH /api/entities/{slug}/roles/{id}': role,
  'PATCH /api/entities/{slug}/types/{id}': type,
  'PATCH /api/tags/{id}': tag,
  'PATCH /api/help-articles/{id}': helpArticle,
  'PATCH /api/permissions/{id}': userPermission,
  'PATCH /api/entities/{id}/whitelabel': whitelabel,
  'PATCH /api/courses/{id}': course,
  'PATCH /api/course-categories/{id}': category,
  'PATCH /api/entities/{slug}/content/updateMultiple': entityContentMultiple,
  'PATCH /api/entities/{slug}/content/{contentId}': entityContent,
  'PATCH /api/entities/{slug}/courses/updateMultiple': entityCourseMultiple,
  'PATCH /api/entities/{slug}/courses/{courseId}': entityCourse,
  'PATCH /api/content/{id}': content,
  'PATCH /api/lessons/{id}': lesson,
  'PATCH /api/topics/{id}': topic,
  'PATCH /api/quizzes/{id}': quiz,
  'PATCH /api/h5ps/{id}': h5pItem,
  'PATCH /api/attempts/{id}': attempt,
  'PATCH /api/entities/{slug}/certificate-branding': certificateBranding,
  'PATCH /api/reports/presets/{id}': preset,
  'PATCH /api/reports/schedules/{id}': schedule,
  'PATCH /api/results/historical/{id}': historical,
  'PATCH /api/results/exempt/{id}': exempt,
  'PATCH /api/results/{id}/suppress-certificate': suppressCertificate,
  'PATCH /api/compliance/{id}': compliance,
  'PATCH /api/users/{id}/compliance-courses/{courseId}': userComplianceCourse,
  'PATCH /api/users/{id}/received/messages/{messageId}': receivedMessage,
  'PATCH /api/notifications/{id}': notification,
  'PATCH /api/entities/{slug}/training-provider-settings': trainingProviderSettings,
  'PATCH /api/entities/{slug}/delegate-settings': delegateSettings,
  'PATCH /api/training-sessions/{id}': trainingSession,
  // The Care Certificate (issue 16).
  ...CORE_PATCH_FIXTURES,
  // Pathways (issue 17).
  ...PATHWAY_PATCH_FIXTURES,
  'PATCH /api/care-certificates/{uuid}/observations/{id}': careCertificateObservation,
  'PATCH /api/historical-care-certificates/{uuid}': historicalCareCertificate,
  // The content designer (issue 17).
  ...DESIGNER_PATCH_FIXTURES,
  // Documents and libraries (issue 17).
  ...DOCUMENTS_PATCH_FIXTURES,
  ...WEBHOOKS_PATCH_FIXTURES,
};
