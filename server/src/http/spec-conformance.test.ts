/**
 * Spec conformance (issue 38): the spec's call lists, kept here as DATA, checked against the app over HTTP, so a
 * renamed field, a dropped alias or a route that stops answering fails CI.
 *
 * - SPEC_ROUTES: every call the two spec documents list in their §7 ("The calls it makes"), as written there; each
 *   must be a route of the server.
 * - CALLS: the calls that one small world can answer (method, path, the status, where to look in the answer and the
 *   field names the spec gives in its §3, or none where it gives none), checked in one pass. One harness: an
 *   organisation (level A) with one home (level B), a job role with a Mandatory course and its content (a lesson
 *   with a topic and its H5P, a quiz), a learner with a result, a user permission, a report preset, a help article.
 *
 * Paths use placeholders filled from the world: {group} {home} (slugs), {groupId}, {roleId}, {typeId}, {courseId},
 * {topicId} and the rest named in beforeAll. `at` is a dotted path into the JSON answer ("data.0" is the first list
 * item, "" the answer itself); `fields` must all be keys of the object found there (extra fields of ours are
 * allowed: the spec's names are answered beside ours). Calls run as a manager with the permissions the first rows
 * need, or as a super admin (`as: 'admin'`) for the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildContent,
  buildH5p,
  buildLesson,
  buildQuiz,
  buildTopic,
  linkLessons,
  linkQuizzes,
  linkTopics,
} from '../../test/content-factories';
import { bearer, buildEntity, buildRole, buildType, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';
import { openApiPath } from './openapi/transform';

interface SpecCall {
  /** Where the spec names it. */
  spec: string;
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
  /** The status, or the statuses a polled call may answer (spec: "202 means poll again, 200 resolves"). */
  status: number | number[];
  /** Absent for a file answer (PDF): the status only. */
  at?: string;
  fields?: string[];
  as?: 'admin';
}

const MATRIX_CELL = [
  'course_id',
  'in_date_passed',
  'in_expiry_warning_period',
  'latest_result_completed',
  'latest_result_expires',
  'latest_result_id',
  'primary_entity_id',
  'result_count',
  'role_id',
  'type',
  'user_id',
];
const ENTITY = ['id', 'slug', 'is_training_company', 'children', 'courses', 'score'];
const ROLE = ['id', 'name', 'inspectable', 'users_count'];
const GQL_MATRIX = `{ matrix(first: 10, page: 1) { paginatorInfo { lastPage } data { cells { ${MATRIX_CELL.join(' ')} } } } }`;
const GQL_USERS =
  '{ users(first: 10) { paginatorInfo { lastPage } data { id emailVerified email_verified } } }';
// spec 2 §3, each as the spec lists it.
const CONTENT = [
  'id',
  'title',
  'course',
  'course_id',
  'published',
  'cpd_accredited',
  'image',
  'estimated_duration',
  'admin_only',
  'aims',
  'outcomes',
  'lessons',
  'quizzes',
  'topics',
  'prerequisites',
];
const COURSE = ['id', 'title', 'short_title', 'published', 'contents', 'lessons', 'topics'];
const LESSON = ['id', 'title', 'question_qty', 'topics'];
const QUIZ = ['id', 'title', 'published', 'is_randomized', 'questions'];
const TOPIC = ['id', 'title', 'hidden', 'skippable', 'is_child', 'h5p', 'h5ps', 'resources'];
const H5P = ['id', 'title', 'video_id'];
const PERMISSION = ['id', 'name', 'description', 'category'];
const HELP_ARTICLE = ['title', 'url_regex', 'link_suffix'];
/** spec 2 §3 "Entity (settings as used here)", less restricted_access_password: write-only (README, OpenAPI). */
const ENTITY_SETTINGS = [
  'name',
  'email',
  'code',
  'telephone',
  'website',
  'notes',
  'address',
  'events_reminder',
  'allow_ms_sign_in',
  'allow_google_sign_in',
  'notify_all_standards_selected',
  'require_training_record_evidence',
  'parent',
  'parent_id',
  'level',
  'expiry_warning',
  'starter_period',
  'restricted_access_at',
  'restricted_access_message',
  'password_expire_period_in_months',
  'password_requirements',
  'compromised_passwords',
  'always_show_popup_on_login',
  'popup_link',
  'login_popup_alt_name',
  'focused_courses',
  'slug',
];
const REPORT_PRESET = [
  'entities',
  'courses',
  'pathways',
  'users',
  'roles',
  'includeStatusTypes',
  'includeStarters',
  'compliance_type',
  'previousMonths',
  'report_type',
  'grade',
  'filter_by',
  'course_type',
  'period',
  'from_date',
  'to_date',
  'primary_only',
  'never_logged_in_only',
  'date_completion',
  'new_starters_filter',
  'care_certificate_filter',
];
const WHITELABEL = [
  'logo',
  'loginLogo',
  'favicon',
  'primary',
  'secondary',
  'accent',
  'danger',
  'warning',
  'success',
  'entityAltName',
  'entitiesAltName',
  'companyName',
  'certificateGroupMenuName',
  'logoRedirectUrl',
  'primaryComplianceAltName',
  'secondaryComplianceAltName',
  'greenScoreBandLowerMargin',
  'amberScoreBandLowerMargin',
  'trafficLightOk',
  'trafficLightWarning',
  'trafficLightDanger',
];
// spec 1 §3
const AUTH_USER = [
  'uuid',
  'emailVerified',
  'super_admin',
  'primary_entity',
  'a_entity',
  'user_preferences',
  'name',
  'email',
  'id',
  'role',
  'type',
  'is_trainer',
  'permissions',
];
const A_ENTITY_FLAGS = [
  'can_view_internal_bookings',
  'can_view_external_bookings',
  'can_manage_bookings',
  'can_see_new_dashboards',
];

const CALLS: SpecCall[] = [
  // spec 1 §3 Entity, §7 GET /entities and GET /entities/{id}
  {
    spec: '1 §7 GET /entities',
    method: 'GET',
    path: '/api/entities',
    status: 200,
    at: 'data.0',
    fields: ENTITY,
  },
  {
    spec: '1 §7 GET /entities/{id}',
    method: 'GET',
    path: '/api/entities/{groupId}',
    status: 200,
    at: 'data',
    fields: ENTITY,
  },
  // spec 2 §3 Topic
  {
    spec: '2 §7 GET /topics/{id}',
    method: 'GET',
    path: '/api/topics/{topicId}',
    status: 200,
    at: 'data',
    fields: ['id', 'title', 'hidden', 'skippable', 'is_child', 'h5p', 'h5ps', 'resources'],
  },
  {
    spec: '2 §3 Topic h5ps item',
    method: 'GET',
    path: '/api/topics/{topicId}',
    status: 200,
    at: 'data.h5ps.0',
    fields: ['id'],
  },
  // spec 2 §3 Compliance: entity, roleId, courseId
  {
    spec: '2 §7 GET /compliance/role/{roleId}/course/{courseId}',
    method: 'GET',
    path: '/api/compliance/role/{roleId}/course/{courseId}?entity={group}',
    status: 200,
    at: 'data',
    fields: ['roleId', 'courseId', 'entity'],
  },
  {
    spec: '2 §7 GET /compliance/{entity}/role/{roleId}',
    method: 'GET',
    path: '/api/compliance/{home}/role/{roleId}',
    status: 200,
    at: 'data.0',
    fields: ['roleId', 'courseId', 'entity'],
  },
  // spec 2 §7 Roles and types: stats and details, also under /entities/{slug}
  {
    spec: '2 §7 GET roles/stats',
    method: 'GET',
    path: '/api/roles/stats',
    status: 200,
    at: 'data.0',
    fields: ROLE,
  },
  {
    spec: '2 §7 GET /entities/{slug}/roles/stats',
    method: 'GET',
    path: '/api/entities/{group}/roles/stats',
    status: 200,
    at: 'data.0',
    fields: ROLE,
  },
  {
    spec: '2 §7 GET /entities/{slug}/roles/{id}/details',
    method: 'GET',
    path: '/api/entities/{home}/roles/{roleId}/details',
    status: 200,
    at: 'data',
    fields: [...ROLE, 'users'],
  },
  {
    spec: '2 §7 GET roles/{id}/details',
    method: 'GET',
    path: '/api/roles/{roleId}/details',
    status: 200,
    at: 'data',
    fields: [...ROLE, 'users'],
  },
  {
    spec: '2 §7 GET /entities/{slug}/types/stats',
    method: 'GET',
    path: '/api/entities/{group}/types/stats',
    status: 200,
    at: 'data.0',
    fields: ['id', 'name', 'users_count'],
  },
  {
    spec: '2 §7 GET /entities/{slug}/types/{id}/details',
    method: 'GET',
    path: '/api/entities/{group}/types/{typeId}/details',
    status: 200,
    at: 'data',
    fields: ['id', 'name', 'users_count', 'users'],
  },
  // spec 1 §7 Users
  {
    spec: '1 §7 GET /users',
    method: 'GET',
    path: '/api/users',
    status: 200,
    at: 'data.0',
    fields: ['id', 'uuid', 'name', 'email'],
  },
  // spec 2 §7 POST /reports/matrix, §3 Matrix response and Matrix cell
  {
    spec: '2 §3 Matrix response',
    method: 'POST',
    path: '/api/reports/matrix',
    body: { directFormat: 'json' },
    status: 200,
    at: 'data',
    fields: ['breakdown', 'cells', 'users', 'results', 'primary_scores', 'pathway_allocations'],
  },
  {
    spec: '2 §3 Matrix cell (REST)',
    method: 'POST',
    path: '/api/reports/matrix',
    body: { directFormat: 'json' },
    status: 200,
    at: 'data.cells.0',
    fields: MATRIX_CELL,
  },
  // spec 2 §7 GraphQL: matrix (paged: first, page, paginatorInfo.lastPage, data) and users
  {
    spec: '2 §7 GraphQL matrix',
    method: 'POST',
    path: '/graphql',
    body: { query: GQL_MATRIX },
    status: 200,
    at: 'data.matrix',
    fields: ['paginatorInfo', 'data'],
  },
  {
    spec: '2 §3 Matrix cell (GraphQL)',
    method: 'POST',
    path: '/graphql',
    body: { query: GQL_MATRIX },
    status: 200,
    at: 'data.matrix.data.0.cells.0',
    fields: MATRIX_CELL,
  },
  {
    spec: '1 §3 emailVerified (GraphQL User)',
    method: 'POST',
    path: '/graphql',
    body: { query: GQL_USERS },
    status: 200,
    at: 'data.users.data.0',
    fields: ['emailVerified', 'email_verified'],
  },
  // spec 1 §7 Authentication (§3 Auth user, a_entity flags, API version)
  {
    spec: '1 §7 GET /version',
    method: 'GET',
    path: '/api/version',
    status: 200,
    at: '',
    fields: ['major', 'minor', 'patch'],
  },
  { spec: '1 §7 GET /time', method: 'GET', path: '/api/time', status: 200, at: '', fields: ['data'] },
  { spec: '1 §7 GET /check', method: 'GET', path: '/api/check', status: 200 },
  {
    spec: '1 §3 Auth user',
    method: 'GET',
    path: '/api/auth/user',
    status: 200,
    at: 'data',
    fields: AUTH_USER,
  },
  {
    spec: '1 §3 Auth user primary_entity (with slug)',
    method: 'GET',
    path: '/api/auth/user',
    status: 200,
    at: 'data.primary_entity',
    fields: ['slug'],
  },
  {
    spec: '1 §3 a_entity flags',
    method: 'GET',
    path: '/api/auth/user',
    status: 200,
    at: 'data.a_entity',
    fields: A_ENTITY_FLAGS,
  },
  {
    spec: '1 §7 GET /auth/permissions',
    method: 'GET',
    path: '/api/auth/permissions',
    status: 200,
    at: 'data.0',
    fields: PERMISSION,
  },
  {
    spec: '1 §7 POST /auth/permission-check',
    method: 'POST',
    path: '/api/auth/permission-check',
    body: { permission_ids: [12], mode: 'all' },
    status: 200,
  },
  {
    spec: '1 §7 GET /auth/{uuid}/verification-send',
    method: 'GET',
    path: '/api/auth/{learnerUuid}/verification-send',
    status: 200,
    as: 'admin',
  },
  // spec 1 §7 Entities (spec 2 §3 entity settings)
  {
    // notes only for a caller who may view them (120): the super admin.
    spec: '2 §3 Entity settings',
    method: 'GET',
    path: '/api/entities/{groupId}',
    status: 200,
    as: 'admin',
    at: 'data',
    fields: ENTITY_SETTINGS,
  },
  {
    spec: '1 §7 GET /entities/{id}/children',
    method: 'GET',
    path: '/api/entities/{groupId}/children',
    status: 200,
    at: 'data.0',
    fields: ['id', 'slug'],
  },
  {
    spec: '1 §7 GET /entities/organisation',
    method: 'GET',
    path: '/api/entities/organisation',
    status: 200,
    at: 'data',
    fields: ['id', 'slug', 'children'],
  },
  {
    spec: '1 §7 GET /entity-courses',
    method: 'GET',
    path: '/api/entity-courses?entityIds={groupId}',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: ['course_id'],
  },
  {
    spec: '1 §7 GET /entities/{id}/score/{x}',
    method: 'GET',
    path: '/api/entities/{groupId}/score/primary',
    status: [200, 202],
    as: 'admin',
  },
  // spec 1 §7 Attempts and Users
  {
    spec: '1 §7 GET /users/{id}/attempts',
    method: 'GET',
    path: '/api/users/{learnerId}/attempts',
    status: 200,
    as: 'admin',
    at: '',
    fields: ['data', 'meta', 'links'],
  },
  {
    spec: '1 §7 GET /attempts/current-attempt',
    method: 'GET',
    path: '/api/attempts/current-attempt?course_id={courseId}',
    status: 200,
    as: 'admin',
  },
  {
    spec: '1 §7 GET /users/{id}',
    method: 'GET',
    path: '/api/users/{learnerUuid}',
    status: 200,
    as: 'admin',
    at: 'data',
    fields: ['id', 'uuid', 'name', 'email', 'is_trainer', 'role', 'type'],
  },
  ...['available-courses', 'available-training', 'compliant-courses', 'personal-development-courses'].map(
    (list): SpecCall => ({
      spec: `1 §7 GET /users/{id}/${list}`,
      method: 'GET',
      path: `/api/users/{learnerId}/${list}`,
      status: 200,
      as: 'admin',
      at: '',
      fields: ['data', 'meta', 'links'],
    }),
  ),
  {
    spec: '2 §7 GET /users/{id}/permissions',
    method: 'GET',
    path: '/api/users/{managerId}/permissions',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: ['id', 'name'],
  },
  {
    spec: '1 §7 GET /users/{id}/training-certificate (PDF)',
    method: 'GET',
    path: '/api/users/{learnerId}/training-certificate?course_id={courseId}',
    status: 200,
    as: 'admin',
  },
  {
    spec: '1 §7 GET /auth-events/active',
    method: 'GET',
    path: '/api/auth-events/active',
    status: 200,
    as: 'admin',
    at: '',
    fields: ['data', 'meta', 'links'],
  },
  // spec 2 §7 Compliance (§3 Compliance, Compliance response)
  {
    spec: '2 §7 GET /compliance/{id}',
    method: 'GET',
    path: '/api/compliance/{ruleId}',
    status: 200,
    as: 'admin',
    at: 'data',
    fields: ['entity', 'roleId', 'courseId'],
  },
  {
    spec: '2 §7 GET /reports/compliance/courses',
    method: 'GET',
    path: '/api/reports/compliance/courses',
    status: 200,
    as: 'admin',
  },
  {
    spec: '2 §3 Compliance response',
    method: 'POST',
    path: '/api/reports/compliance',
    body: {},
    status: 200,
    as: 'admin',
    at: 'data',
    fields: ['months', 'courses', 'entities'],
  },
  // spec 2 §7 Content, courses and their parts (§3 Content, Course, Lesson, Quiz, Topic, H5P)
  {
    spec: '2 §7 GET /content',
    method: 'GET',
    path: '/api/content',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: ['id', 'title', 'course_id'],
  },
  {
    spec: '2 §3 Content',
    method: 'GET',
    path: '/api/content/{contentId}',
    status: 200,
    as: 'admin',
    at: 'data',
    fields: CONTENT,
  },
  {
    spec: '2 §7 GET /courses',
    method: 'GET',
    path: '/api/courses',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: ['id', 'title', 'short_title', 'published'],
  },
  {
    spec: '2 §3 Course',
    method: 'GET',
    path: '/api/courses/{courseId}',
    status: 200,
    as: 'admin',
    at: 'data',
    fields: COURSE,
  },
  {
    spec: '2 §7 GET /lessons',
    method: 'GET',
    path: '/api/lessons',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: ['id', 'title', 'question_qty'],
  },
  {
    spec: '2 §3 Lesson',
    method: 'GET',
    path: '/api/lessons/{lessonId}',
    status: 200,
    as: 'admin',
    at: 'data',
    fields: LESSON,
  },
  {
    spec: '2 §7 GET /quizzes',
    method: 'GET',
    path: '/api/quizzes',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: ['id', 'title', 'published', 'is_randomized'],
  },
  {
    spec: '2 §3 Quiz',
    method: 'GET',
    path: '/api/quizzes/{quizId}',
    status: 200,
    as: 'admin',
    at: 'data',
    fields: QUIZ,
  },
  {
    spec: '2 §7 GET /topics',
    method: 'GET',
    path: '/api/topics',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: TOPIC,
  },
  {
    spec: '2 §7 GET /h5ps',
    method: 'GET',
    path: '/api/h5ps',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: H5P,
  },
  {
    spec: '2 §3 H5P',
    method: 'GET',
    path: '/api/h5ps/{h5pId}',
    status: 200,
    as: 'admin',
    at: 'data',
    fields: H5P,
  },
  // spec 2 §7 Entity content and courses
  {
    spec: '2 §7 GET /entities/{slug}/content',
    method: 'GET',
    path: '/api/entities/{group}/content',
    status: 200,
    as: 'admin',
    at: '',
    fields: ['data', 'meta', 'links'],
  },
  {
    spec: '2 §7 GET /entities/{slug}/courses',
    method: 'GET',
    path: '/api/entities/{home}/courses',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: ['course_id', 'title', 'enabled'],
  },
  // spec 2 §7 Roles and types (entity roles: name, inspectable; entity types: name)
  {
    spec: '2 §7 GET /entities/{slug}/roles',
    method: 'GET',
    path: '/api/entities/{group}/roles',
    status: 200,
    at: 'data.0',
    fields: ['id', 'name', 'inspectable'],
  },
  {
    spec: '2 §7 GET /entities/{slug}/roles/{id}',
    method: 'GET',
    path: '/api/entities/{group}/roles/{roleId}',
    status: 200,
    at: 'data',
    fields: ['id', 'name', 'inspectable'],
  },
  {
    spec: '2 §7 GET /entities/{slug}/types',
    method: 'GET',
    path: '/api/entities/{group}/types',
    status: 200,
    at: 'data.0',
    fields: ['id', 'name'],
  },
  {
    spec: '2 §7 GET /entities/{slug}/types/{id}',
    method: 'GET',
    path: '/api/entities/{group}/types/{typeId}',
    status: 200,
    at: 'data',
    fields: ['id', 'name'],
  },
  {
    spec: '2 §7 GET types/stats',
    method: 'GET',
    path: '/api/types/stats',
    status: 200,
    at: 'data.0',
    fields: ['id', 'name', 'users_count'],
  },
  {
    spec: '2 §7 GET types/{id}/details',
    method: 'GET',
    path: '/api/types/{typeId}/details',
    status: 200,
    at: 'data',
    fields: ['id', 'name', 'users_count', 'users'],
  },
  // spec 2 §7 Permissions (§3 Permission)
  {
    spec: '2 §3 Permission',
    method: 'GET',
    path: '/api/permissions',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: PERMISSION,
  },
  {
    spec: '2 §7 GET /permissions/{id}',
    method: 'GET',
    path: '/api/permissions/{userPermissionId}',
    status: 200,
    as: 'admin',
    at: 'data',
    fields: ['id', 'permission'],
  },
  {
    spec: '2 §7 GET /entity-permissions/{slug}/permissions',
    method: 'GET',
    path: '/api/entity-permissions/{group}/permissions',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: PERMISSION,
  },
  {
    spec: '2 §7 GET /type-permissions/type/{typeId}',
    method: 'GET',
    path: '/api/type-permissions/type/{typeId}',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: PERMISSION,
  },
  // spec 2 §7 Messaging (§3 Messages: unread_message_count on received messages)
  {
    spec: '2 §7 GET /users/{id}/sent/messages',
    method: 'GET',
    path: '/api/users/{adminId}/sent/messages',
    status: 200,
    as: 'admin',
    at: '',
    fields: ['data', 'meta', 'links'],
  },
  {
    spec: '2 §7 GET /users/{id}/sent/{recipient}/messages',
    method: 'GET',
    path: '/api/users/{adminId}/sent/{learnerId}/messages',
    status: 200,
    as: 'admin',
    at: '',
    fields: ['data'],
  },
  {
    spec: '2 §3 Messages (received)',
    method: 'GET',
    path: '/api/users/{adminId}/received/messages',
    status: 200,
    as: 'admin',
    at: '',
    fields: ['data', 'unread_message_count'],
  },
  {
    spec: '2 §7 GET /users/{id}/received/{sender}/messages',
    method: 'GET',
    path: '/api/users/{adminId}/received/{learnerId}/messages',
    status: 200,
    as: 'admin',
    at: '',
    fields: ['data', 'unread_message_count'],
  },
  // spec 2 §7 Reports (§3 Report preset)
  {
    spec: '2 §7 GET /reports/drill-down/tags',
    method: 'GET',
    path: '/api/reports/drill-down/tags',
    status: [200, 202],
    as: 'admin',
  },
  {
    spec: '2 §7 GET /reports/drill-down/entities',
    method: 'GET',
    path: '/api/reports/drill-down/entities',
    status: [200, 202],
    as: 'admin',
  },
  {
    spec: '2 §7 GET /reports/drill-down/{id}/roles',
    method: 'GET',
    path: '/api/reports/drill-down/{groupId}/roles',
    status: [200, 202],
    as: 'admin',
  },
  {
    spec: '2 §7 GET /reports/drill-down/{a}/{b}/users',
    method: 'GET',
    path: '/api/reports/drill-down/{groupId}/{roleId}/users',
    status: [200, 202],
    as: 'admin',
  },
  {
    spec: '2 §7 GET /reports/presets',
    method: 'GET',
    path: '/api/reports/presets',
    status: 200,
    as: 'admin',
    at: 'data.0',
    fields: REPORT_PRESET,
  },
  {
    spec: '2 §3 Report preset',
    method: 'GET',
    path: '/api/reports/presets/{presetId}',
    status: 200,
    as: 'admin',
    at: 'data',
    fields: REPORT_PRESET,
  },
  // spec 2 §7 White-label (§3 White-label); spec 1 §3 Help article
  {
    spec: '2 §3 White-label',
    method: 'GET',
    path: '/api/whitelabel?slug={group}',
    status: 200,
    at: 'data',
    fields: WHITELABEL,
  },
  {
    spec: '1 §3 Help article',
    method: 'GET',
    path: '/api/help-articles',
    status: 200,
    at: 'data.0',
    fields: HELP_ARTICLE,
  },
];

/**
 * Every call of the spec's §7 lists, as written there (spec 1 §7 paths are under /api unless they say otherwise;
 * "roles/stats" is /roles/stats). Not here: "Paging: POST to the supplied link" (a link a list gives, no route of
 * its own) and "the fetch of a user for the help widget: path not shown".
 */
const SPEC_ROUTES: Record<string, string[]> = {
  '1 §7 Authentication': [
    'GET /sanctum/csrf-cookie',
    'POST /login',
    'POST /api/auth/login',
    'POST /logout',
    'POST /api/auth/logout',
    'POST /auth/logout/{id}',
    'POST /register/{x}',
    'POST /auth/forgot-password',
    'POST /auth/reset-password',
    'POST /auth/verify-email',
    'GET /auth/{uuid}/verification-send',
    'GET /auth/permissions',
    'POST /auth/permission-check',
    'GET /auth/user',
    'GET /check',
    'GET /version',
    'GET /time',
  ],
  '1 §7 Entities': [
    'GET /entities',
    'POST /entities',
    'GET /entities/{id}',
    'PATCH /entities/{id}',
    'POST /entities/{id}/send-welcome-email',
    'GET /entities/{id}/children',
    'GET /entities/organisation',
    'GET /entity-courses',
    'GET /entities/{id}/score/{x}',
  ],
  '1 §7 Attempts': [
    'GET /users/{id}/attempts',
    'POST /users/{id}/attempts',
    'POST /retake_attempt/{id}',
    'GET /attempts/{id}',
    'PATCH /attempts/{id}',
    'DELETE /attempts/{id}',
    'GET /attempts/current-attempt',
  ],
  '1 §7 Users': [
    'GET /users',
    'GET /users/{id}',
    'PATCH /users/{id}',
    'POST /users',
    'POST /users/{id}/send-welcome-email',
    'POST /auth/update-email',
    'GET /users/{id}/available-courses',
    'GET /users/{id}/available-training',
    'GET /users/{id}/permissions',
    'GET /users/{id}/compliant-courses',
    'GET /users/{id}/personal-development-courses',
    'GET /users/{id}/training-certificate',
  ],
  '1 §7 Authentication metrics': ['GET /auth-events/active', 'POST /auth-events/{entity}/metrics'],
  '1 §7 Other': ['POST /graphql'],
  '2 §7 Compliance': [
    'GET /compliance/role/{roleId}/course/{courseId}',
    'GET /compliance/{entity}/role/{roleId}',
    'GET /reports/compliance/courses',
    'POST /compliance',
    'GET /compliance/{id}',
    'PATCH /compliance/{id}',
    'DELETE /compliance/{id}',
  ],
  '2 §7 Content': [
    'GET /content',
    'GET /content/{id}',
    'PATCH /content/{id}',
    'DELETE /content/{id}',
    'POST /content',
    'POST /content/images',
    'POST /content/images/delete',
    'POST /content/{contentId}/lessons',
    'POST /content/{contentId}/quizzes',
    'POST /feedback/{id}',
  ],
  '2 §7 Entity content and courses': [
    ...['content', 'courses'].flatMap((kind) => [
      `GET /entities/{slug}/${kind}`,
      `POST /entities/{slug}/${kind}`,
      `PATCH /entities/{slug}/${kind}/{id}`,
      `PATCH /entities/{slug}/${kind}/updateMultiple`,
      `DELETE /entities/{slug}/${kind}/{id}`,
    ]),
    'POST /entity-content',
  ],
  '2 §7 Courses': [
    'GET /courses',
    'POST /courses',
    'GET /courses/{id}',
    'PATCH /courses/{id}',
    'DELETE /courses/{id}',
  ],
  '2 §7 Roles and types': ['roles', 'types'].flatMap((kind) => [
    `GET /entities/{slug}/${kind}`,
    `POST /entities/{slug}/${kind}`,
    `GET /entities/{slug}/${kind}/{id}`,
    `PATCH /entities/{slug}/${kind}/{id}`,
    `DELETE /entities/{slug}/${kind}/{id}`,
    `GET /${kind}/stats`,
    `GET /${kind}/{id}/details`,
    `GET /entities/{slug}/${kind}/stats`,
    `GET /entities/{slug}/${kind}/{id}/details`,
  ]),
  '2 §7 Permissions': [
    'GET /entity-permissions/{slug}/permissions',
    'POST /entity-permissions',
    'POST /entity-permissions/{slug}/delete',
    'GET /permissions',
    'POST /permissions',
    'GET /permissions/{id}',
    'PATCH /permissions/{id}',
    'DELETE /permissions/{id}',
    'GET /type-permissions/type/{typeId}',
    'POST /type-permissions/{typeId}',
    'POST /type-permissions/{typeId}/delete',
    'GET /users/{id}/permissions',
  ],
  '2 §7 H5P, lessons, quizzes, topics': [
    ...['h5ps', 'lessons', 'quizzes', 'topics'].flatMap((kind) => [
      `GET /${kind}`,
      `POST /${kind}`,
      `GET /${kind}/{id}`,
      `PATCH /${kind}/{id}`,
      `DELETE /${kind}/{id}`,
    ]),
    'POST /lessons/{lessonId}/topics',
    'POST /quizzes/{quizId}/content/{contentId}',
    'POST /quizzes/take',
    'POST /questions/changeOrder',
  ],
  '2 §7 Messaging': [
    'GET /users/{id}/sent/messages',
    'GET /users/{id}/sent/{recipient}/messages',
    'GET /users/{id}/received/messages',
    'GET /users/{id}/received/{sender}/messages',
    'DELETE /users/{id}/messages/{messageId}',
    'PATCH /users/{id}/received/messages/{messageId}',
    'POST /users/{id}/message',
    'POST /entities/{slug}/roles/{roleId}/message',
    'POST /entities/{slug}/message',
    'POST /tags/{id}/message',
    'POST /system/message/{id}',
  ],
  '2 §7 Reports': [
    'POST /report',
    'POST /reports/staff',
    'POST /reports/results',
    'POST /results/certificate/download-multiple',
    'POST /reports/compliance',
    'POST /reports/role',
    'POST /reports/matrix',
    'GET /reports/drill-down/tags',
    'GET /reports/drill-down/entities',
    'GET /reports/drill-down/{id}/roles',
    'GET /reports/drill-down/{a}/{b}/users',
    'GET /reports/presets',
    'POST /reports/presets',
    'GET /reports/presets/{id}',
    'PATCH /reports/presets/{id}',
    'DELETE /reports/presets/{id}',
  ],
  '2 §7 White-label': ['POST /entities/{slug}/whitelabel', 'GET /whitelabel'],
};

let h: Harness;
let headers: Record<string, string>;
let adminHeaders: Record<string, string>;
let vars: Record<string, string>;
beforeAll(async () => {
  h = await createHarness();
  const group = await buildEntity(h.db, { level: 'A' });
  const home = await buildEntity(h.db, { parentId: group.id });
  const role = await buildRole(h.db, group.id);
  const course = await buildCourse(h.db, group.id, { title: 'Fire safety' });
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: group.id,
      role_id: role.id,
      course_id: course.id,
      type: 'primary',
      validity_months: 12,
    })
    .execute();
  const learner = await buildUser(h.db, { entityId: group.id, roleId: role.id });
  await buildUser(h.db, { entityId: home.id, roleId: role.id });
  await buildPassedResult(h.db, { userId: learner.id, entityId: group.id, courseId: course.id });
  const h5p = await buildH5p(h.db, group.id);
  const topic = await buildTopic(h.db, group.id, { h5pId: h5p.id });
  // 12 matrix, 13 compliance report, 21 users, 22 entities, 23 contact details, 49 roles, 50 types, 53 see entity,
  // 63 content creator.
  const manager = await buildUser(h.db, {
    entityId: group.id,
    permissions: [12, 13, 21, 22, 23, 49, 50, 53, 63],
  });
  const type = await buildType(h.db, group.id);
  headers = await bearer(h.db, manager.id);
  // The content of the course: a lesson with the topic, a quiz.
  const content = await buildContent(h.db, { entityId: group.id, courseId: course.id });
  const lesson = await buildLesson(h.db, group.id);
  await linkTopics(h.db, lesson.id, [topic.id]);
  await linkLessons(h.db, content.id, [lesson.id]);
  const quiz = await buildQuiz(h.db, group.id);
  await linkQuizzes(h.db, content.id, [quiz.id]);
  // A super admin of an organisation of their own (the group's people stay the ones counted below).
  const admin = await buildUser(h.db, { superAdmin: true });
  adminHeaders = await bearer(h.db, admin.id);
  const made = async (url: string, payload: Record<string, unknown>) => {
    const res = await h.app.inject({ method: 'POST', url, headers: adminHeaders, payload });
    expect(res.statusCode, res.body).toBe(201);
    return String(res.json().data.id);
  };
  const rule = await h.db
    .selectFrom('compliance_rules')
    .select('id')
    .where('entity_id', '=', group.id)
    .executeTakeFirstOrThrow();
  vars = {
    learnerId: String(learner.id),
    learnerUuid: learner.uuid,
    managerId: String(manager.id),
    adminId: String(admin.id),
    ruleId: String(rule.id),
    contentId: String(content.id),
    lessonId: String(lesson.id),
    quizId: String(quiz.id),
    h5pId: String(h5p.id),
    userPermissionId: await made('/api/permissions', { user_id: manager.id, permission_id: 12 }),
    presetId: await made('/api/reports/presets', { name: 'Fire safety matrix', report_type: 'matrix' }),
    helpArticleId: await made('/api/help-articles', {
      title: 'Finding people',
      url_regex: '^/users',
      body: 'Search by name.',
    }),
    group: group.slug,
    home: home.slug,
    groupId: String(group.id),
    roleId: String(role.id),
    typeId: String(type.id),
    courseId: String(course.id),
    topicId: String(topic.id),
  };
});
afterAll(async () => h?.close());

const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? `{${k}}`);
const dig = (value: unknown, at: string) =>
  (at ? at.split('.') : []).reduce<unknown>(
    (v, key) => (v === null || v === undefined ? v : (v as Record<string, unknown>)[key]),
    value,
  );

describe('the spec’s calls answer the spec’s names (issue 38)', () => {
  it('checks every call of the table in one pass', async () => {
    const failures: string[] = [];
    const answers = new Map<string, unknown>();
    for (const call of CALLS) {
      const url = fill(call.path);
      const key = `${call.as ?? ''} ${call.method} ${url} ${JSON.stringify(call.body ?? null)}`;
      let json = answers.get(key);
      if (json === undefined) {
        const res = await h.app.inject({
          method: call.method,
          url,
          headers: call.as === 'admin' ? adminHeaders : headers,
          payload: call.body,
        });
        if (![call.status].flat().includes(res.statusCode)) {
          failures.push(`${call.spec}: ${call.method} ${url} answered ${res.statusCode}, not ${call.status}`);
          continue;
        }
        if (call.at === undefined) continue;
        json = res.json();
        answers.set(key, json);
      }
      if (call.path.startsWith('/graphql') && (json as { errors?: unknown }).errors)
        failures.push(`${call.spec}: GraphQL errors ${JSON.stringify((json as { errors: unknown }).errors)}`);
      const found = dig(json, call.at ?? '');
      if (found === null || typeof found !== 'object') {
        failures.push(`${call.spec}: nothing at ${call.at}`);
        continue;
      }
      const missing = (call.fields ?? []).filter((f) => !(f in found));
      if (missing.length) failures.push(`${call.spec}: ${call.at} lacks ${missing.join(', ')}`);
    }
    expect(failures).toEqual([]);
    expect(CALLS.length).toBeGreaterThan(70);
  }, 180_000); // ~80 calls in turn: under CI's load one took longer than the 30 s default

  it('has a route for every call the spec lists', () => {
    // {id}, {slug}, :id(^\\d+) … are all one placeholder; the spec's paths are under /api unless they say so.
    const shape = (key: string) => {
      const [method, path] = key.split(' ') as [string, string];
      const full = path.startsWith('/api/') || path === '/graphql' ? path : `/api${path}`;
      return `${method} ${openApiPath(full).replace(/\{\w+\}/g, '{}')}`;
    };
    const routes = new Set(h.app.routeList.map((r) => shape(`${r.method} ${r.url}`)));
    const listed = Object.entries(SPEC_ROUTES).flatMap(([where, calls]) => calls.map((c) => [where, c]));
    const missing = listed.filter(([, call]) => !routes.has(shape(call as string)));
    expect(missing).toEqual([]);
    expect(listed.length).toBeGreaterThan(160);
  });

  it('answers the aliases with the same values as our names', async () => {
    const compliance = await h.app.inject({
      method: 'GET',
      url: fill('/api/compliance/{home}/role/{roleId}'),
      headers,
    });
    const row = compliance.json().data[0];
    expect([row.roleId, row.courseId]).toEqual([row.role_id, row.course_id]);
    const topic = (await h.app.inject({ method: 'GET', url: fill('/api/topics/{topicId}'), headers })).json()
      .data;
    expect(topic.h5ps).toEqual([topic.h5p]);
    const list = (await h.app.inject({ method: 'GET', url: '/api/entities', headers })).json().data;
    const single = (
      await h.app.inject({ method: 'GET', url: fill('/api/entities/{groupId}'), headers })
    ).json().data;
    expect(list.find((e: { id: number }) => e.id === single.id).children).toEqual(single.children);
    expect(single.children.map((c: { slug: string }) => c.slug)).toEqual([vars.home]);
  });

  it('answers 404 for another organisation under /entities/{slug}/roles|types (stats, details), as a missing one', async () => {
    const elsewhere = await buildEntity(h.db, { level: 'A' });
    const theirRole = await buildRole(h.db, elsewhere.id);
    for (const url of [
      `/api/entities/${elsewhere.slug}/roles/stats`,
      `/api/entities/${elsewhere.slug}/types/stats`,
      `/api/entities/${elsewhere.slug}/roles/${theirRole.id}/details`,
      fill(`/api/entities/{group}/roles/${theirRole.id}/details`),
      `/api/entities/no-such-slug/roles/stats`,
    ])
      expect((await h.app.inject({ method: 'GET', url, headers })).statusCode, url).toBe(404);
    expect(
      (await h.app.inject({ method: 'GET', url: fill('/api/entities/{group}/roles/stats') })).statusCode,
    ).toBe(401);
  });

  it('GET /users lists the organisation’s own people; deep=1 adds its sub-organisations, as documented', async () => {
    const own = (await h.app.inject({ method: 'GET', url: '/api/users?per_page=100', headers })).json();
    const deep = (
      await h.app.inject({ method: 'GET', url: '/api/users?per_page=100&deep=1', headers })
    ).json();
    expect(own.meta.total).toBe(2);
    expect(deep.meta.total).toBe(3);
    const doc = (await h.app.inject({ method: 'GET', url: '/api/docs/json', headers })).json();
    expect(doc.paths['/api/users'].get.description).toMatch(/deep=1 adds its sub-organisations/);
    const patch = JSON.stringify(doc.paths['/api/entities/{id}'].patch);
    expect(patch).toMatch(/Write-only: the restricted-access password is never returned/);
    expect(JSON.stringify(doc.paths['/api/entities/{id}'].get)).toMatch(/Write-only/);
    const entityJson = (
      await h.app.inject({ method: 'GET', url: fill('/api/entities/{groupId}'), headers })
    ).json().data;
    expect(entityJson).not.toHaveProperty('restricted_access_password');
    expect(entityJson).toHaveProperty('has_restricted_access_password');
  });
});
