import { MatrixPerm, ReportsPerm } from '@cc/contracts';
import type { ComponentType } from 'react';
import {
  createBrowserRouter,
  type LoaderFunctionArgs,
  matchRoutes,
  Navigate,
  type RouteObject,
} from 'react-router';
import { isLoggedIn, logout, unlockSignIn, verifyEmail } from './app/auth';
import { setNavigator } from './app/navigation';
import { setBuiltPathCheck } from './layouts/built-paths';
import { RequirePermission } from './layouts/guards';
import {
  AuthLayout,
  DashboardLayout,
  DefaultLayout,
  ExternalLayout,
  HelpLayout,
  LearnerDashboardRoute,
  PublicDefaultLayout,
  RequireAuthOutlet,
} from './layouts/layouts';
import { RootLayout } from './layouts/RootLayout';

/**
 * Every route of spec 1 §2 and spec 2 §2, in its layout, with lazy-loaded pages. A route whose capability
 * is not built yet uses `notBuilt(path, title)` (the shared placeholder page; list it in web/NOT_BUILT.md).
 * To build one: write web/src/<capability>/<Name>Page.tsx with a default export, then swap
 * `notBuilt('/users', 'Users')` for `built('/users', 'Users', () => import('./users/UsersPage'))`.
 */
type PageModule = { default: ComponentType };
const lazyPage = (load: () => Promise<PageModule>) => async () => ({ Component: (await load()).default });

export const built = (path: string, title: string, load: () => Promise<PageModule>): RouteObject => ({
  path,
  handle: { title },
  lazy: lazyPage(load),
});
export const notBuilt = (path: string, title: string): RouteObject => ({
  path,
  handle: { title, notBuilt: true },
  lazy: lazyPage(() => import('./layouts/NotBuiltPage')),
});

/** /login?temp_token=… logs out and reloads (spec 1 §2); once per token, so the reload cannot loop. */
export async function loginLoader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('temp_token');
  if (!token) return null;
  const key = 'cc_temp_token_handled';
  if (sessionStorage.getItem(key) === token) return null;
  sessionStorage.setItem(key, token);
  await logout({ redirect: false });
  window.location.reload();
  return null;
}

/** /forgot-password and /reset-password/{token} log a logged-in user out first (spec 1 §2). */
export async function logoutFirstLoader() {
  if (isLoggedIn()) await logout({ redirect: false });
  return null;
}

/** /verify-email/{token} verifies before entry (spec 1 §2, §7 POST /auth/verify-email). */
export async function verifyEmailLoader({ params }: LoaderFunctionArgs) {
  await verifyEmail(params.token ?? '');
  return null;
}

/** /unlock-sign-in/{token} follows the mailed link before entry (issue 29 §8, POST /auth/unlock-sign-in). */
export async function unlockSignInLoader({ params }: LoaderFunctionArgs) {
  await unlockSignIn(params.token ?? '');
  return null;
}

const dashboardRoutes: RouteObject[] = [
  built('/', 'My events', () => import('./dashboards/EventsPage')),
  {
    element: <LearnerDashboardRoute />,
    children: [
      built('/learner-dashboard', 'Learner dashboard', () => import('./dashboards/LearnerDashboardPage')),
    ],
  },
  built(
    '/management-dashboard',
    'Management dashboard',
    () => import('./dashboards/ManagementDashboardPage'),
  ),
  built('/management-area', 'Management area', () => import('./dashboards/ManagementDashboardPage')),
  built('/manager-dashboard', 'Manager dashboard', () => import('./dashboards/ManagerDashboardPage')),
  built('/manager-dashboard/behind', 'Who is behind', () => import('./dashboards/BehindPage')),
  built('/active-users', 'Active users', () => import('./activity/ActiveUsersPage')),
  built('/messages', 'Messages', () => import('./messaging/MessagesPage')),
  built('/care-certificate', 'Care certificate', () => import('./care-certificate/CareCertificatePage')),
  built('/manage-bookings', 'Manage bookings', () => import('./bookings/ManageBookingsPage')),
  built('/manage-bookings/new', 'New session', () => import('./bookings/SessionFormPage')),
  built('/manage-bookings/gaps/:courseId', 'People to book', () => import('./bookings/BookingGapPage')),
  built('/manage-bookings/:id', 'Training session', () => import('./bookings/SessionDetailPage')),
  built('/manage-bookings/:id/edit', 'Edit session', () => import('./bookings/SessionFormPage')),
  built('/your-bookings', 'Your bookings', () => import('./bookings/YourBookingsPage')),
  built(
    '/reports/care-certificate',
    'Care certificate report',
    () => import('./care-certificate/admin/ReportPage'),
  ),
];

const e = (rest: string) => `/entities/:slug${rest}`;
const entityViewing = async () => ({ Component: (await import('./entities/EntityViewing')).EntityViewing });
const entityRoutes: RouteObject[] = [
  built(e(''), 'Organisation', () => import('./entities/EntityPage')),
  built(e('/update'), 'Edit organisation', () => import('./entities/EntityUpdatePage')),
  built(e('/branding'), 'Branding', () => import('./whitelabel/BrandingPage')),
  built(e('/course-categories'), 'Course categories', () => import('./entity-content/CourseCategoriesPage')),
  built(
    e('/password-requirements'),
    'Password requirements',
    () => import('./entities/PasswordRequirementsPage'),
  ),
  built(e('/courses'), 'Organisation courses', () => import('./entity-content/EntityCoursesPage')),
  built(e('/permissions'), 'Permissions', () => import('./permissions/EntityPermissionsPage')),
  built(e('/types/permissions'), 'User type permissions', () => import('./permissions/TypePermissionsPage')),
  built(e('/role/:role/courses'), 'Job role courses', () => import('./compliance/RoleCoursesPage')),
  built(e('/role/:role/pathways'), 'Job role pathways', () => import('./compliance/RolePathwaysPage')),
  built(
    e('/update/role/:role/course/:course/compliance'),
    'Course compliance',
    () => import('./compliance/ComplianceUpdatePage'),
  ),
  built(e('/roles'), 'Job roles', () => import('./roles/RolesPage')),
  // Issue 37 §2: the care sector's starter training matrix, previewed and applied (ours: the spec names no route).
  built(e('/starter-matrix'), 'Starter training matrix', () => import('./starter-matrix/StarterMatrixPage')),
  built(e('/types'), 'User types', () => import('./roles/TypesPage')),
  built(e('/tags'), 'Tags', () => import('./tags/TagsPage')),
  built(
    e('/certificate-branding'),
    'Certificate branding',
    () => import('./entity-content/CertificateBrandingPage'),
  ),
  built(e('/delegate-settings'), 'Delegate settings', () => import('./bookings/DelegateSettingsPage')),
  built(
    e('/training-provider-settings'),
    'Training provider settings',
    () => import('./bookings/TrainingProviderSettingsPage'),
  ),
];
const defaultRoutes: RouteObject[] = [
  // users
  built('/users', 'Users', () => import('./users/UsersPage')),
  built('/users/create', 'Add a user', () => import('./users/UserCreatePage')),
  built(
    '/users/bulk-add-events-history',
    'Bulk add event history',
    () => import('./results/BulkHistoryPage'),
  ),
  built('/users/bulk-add-events', 'Bulk add events', () => import('./results/BulkAddEventsPage')),
  // Issue 18: a sign-up link adds users (3), so its page sits under /users (the spec names no route for it).
  built('/users/signup-links', 'Sign-up links', () => import('./signup-links/SignupLinksPage')),
  built('/users/:uuid', 'User', () => import('./users/UserPage')),
  built('/users/update/:uuid', 'Edit user', () => import('./users/UserUpdatePage')),
  // the user's own account (issue 11 §10; /account itself issue 31 §6: the spec names no route for it)
  built('/account', 'My account', () => import('./account/AccountPage')),
  built('/account/sessions', 'Sessions and devices', () => import('./account/SessionsPage')),
  built(
    '/account/notifications',
    'Notification settings',
    () => import('./notifications/NotificationSettingsPage'),
  ),
  // attempts
  built('/attempt/:attemptId', 'Course attempt', () => import('./learning/AttemptPage')),
  built('/cattempt/:attemptId', 'Course attempt', () => import('./learning/CourseAttemptPage')),
  // Offline learning (issue 19, mobile build): courses saved on the device, and the player that takes them offline.
  built('/offline', 'Offline learning', () =>
    import('./native/offline/pages').then((m) => ({ default: m.OfflinePage })),
  ),
  built('/offline/:contentId', 'Offline course', () =>
    import('./native/offline/pages').then((m) => ({ default: m.OfflinePlayerPage })),
  ),
  // entities
  built('/entities', 'Organisations', () => import('./entities/EntitiesPage')),
  built('/entities/create', 'Add an organisation', () => import('./entities/EntityCreatePage')),
  // An organisation's pages: Viewing follows the address for someone who may choose it (issue 38 §3).
  { lazy: entityViewing, children: entityRoutes },
  // results
  built(
    '/results/historical/create',
    'Add a historical result',
    () => import('./results/HistoricalFormPage'),
  ),
  built(
    '/results/historical/update/:id',
    'Edit historical result',
    () => import('./results/HistoricalFormPage'),
  ),
  built('/results/pending/:type', 'Pending results', () => import('./results/PendingPage')),
  built('/results/exempt', 'Exemptions', () => import('./results/ExemptListPage')),
  built('/results/exempt/create', 'Add an exemption', () => import('./results/ExemptFormPage')),
  built('/results/exempt/update/:id', 'Edit exemption', () => import('./results/ExemptFormPage')),
  // search, pathways
  built('/system/search', 'Search', () => import('./activity/SystemSearchPage')),
  // platform help articles (issue 14; ours: super admins)
  built('/help-articles', 'Help articles', () => import('./help/HelpArticlesPage')),
  built('/pathways', 'Pathways', () => import('./pathways/PathwaysPage')),
  built('/pathways/create', 'Add a pathway', () => import('./pathways/PathwayEditorPage')),
  built('/pathways/update/:id', 'Edit pathway', () => import('./pathways/PathwayEditorPage')),
  built('/pathways/:id', 'Pathway', () => import('./pathways/PathwayPage')),
  // content creator (spec 2 §2)
  built('/content-creator', 'Content creator', () => import('./content/ContentCreatorPage')),
  built('/content-creator/content/:type', 'Content', () => import('./content/ContentListPage')),
  built('/content-creator/courses', 'Courses', () => import('./content/CoursesPage')),
  built('/content-creator/courses/create', 'Add a course', () => import('./content/CourseFormPage')),
  built('/content-creator/courses/update/:id', 'Edit course', () => import('./content/CourseFormPage')),
  built('/content-creator/quizzes', 'Quizzes', () => import('./content/QuizzesPage')),
  built('/content-creator/quizzes/create', 'Add a quiz', () => import('./content/QuizFormPage')),
  built('/content-creator/quizzes/update/:id', 'Edit quiz', () => import('./content/QuizFormPage')),
  built('/content-creator/lessons', 'Lessons', () => import('./content/LessonsPage')),
  built('/content-creator/lessons/create', 'Add a lesson', () => import('./content/LessonFormPage')),
  built('/content-creator/lessons/update/:id', 'Edit lesson', () => import('./content/LessonFormPage')),
  built('/content-creator/topics', 'Topics', () => import('./content/TopicsPage')),
  built('/content-creator/topics/create', 'Add a topic', () => import('./content/TopicFormPage')),
  built('/content-creator/topics/update/:id', 'Edit topic', () => import('./content/TopicFormPage')),
  built('/content-creator/h5ps', 'H5P items', () => import('./content/H5psPage')),
  built('/content-creator/h5ps/create', 'Add an H5P item', () => import('./content/H5pFormPage')),
  built('/content-creator/h5ps/update/:id', 'Edit H5P item', () => import('./content/H5pFormPage')),
  ...['elearning', 'scorm', 'historical', 'face2face'].flatMap((type) => [
    built(
      `/content-creator/content/${type}/create`,
      'Add content',
      () => import('./content/ContentFormPage'),
    ),
    built(
      `/content-creator/content/${type}/update/:id`,
      'Edit content',
      () => import('./content/ContentFormPage'),
    ),
  ]),
  // care certificate, documents, integrations (spec 2 §2)
  built(
    '/care-certificate/historical',
    'Historical care certificates',
    () => import('./care-certificate/admin/HistoricalPage'),
  ),
  built(
    '/care-certificate/historical/update/:uuid',
    'Edit historical care certificate',
    () => import('./care-certificate/admin/HistoricalEditPage'),
  ),
  built(
    '/care-certificate/standards',
    'Care certificate standards',
    () => import('./care-certificate/admin/StandardsPage'),
  ),
  built(
    '/care-certificate/settings',
    'Care certificate settings',
    () => import('./care-certificate/admin/SettingsPage'),
  ),
  built('/care-certificate/:uuid', 'Care certificate', () => import('./care-certificate/CertificatePage')),
  built('/importer/logs', 'Importer logs', () => import('./importer/ImporterLogsPage')),
  built('/personal-access-tokens', 'Personal access tokens', () => import('./tokens/TokensPage')),
  built('/webhooks', 'Webhooks', () => import('./webhooks/WebhooksPage')),
  built('/libraries', 'Libraries', () => import('./documents/LibrariesPage')),
  built('/libraries/:id', 'Library', () => import('./documents/LibraryPage')),
  built('/document/:id', 'Document', () => import('./documents/DocumentPage')),
  built('/content-designer', 'Content designer', () => import('./designer/DesignsPage')),
  built('/content-designer/create', 'New design', () => import('./designer/DesignEditorPage')),
  built('/content-designer/:id', 'Design', () => import('./designer/DesignEditorPage')),
  built('/tasks-in-progress', 'Tasks in progress', () => import('./tasks/TasksPage')),
  // reports (spec 2 §2)
  built('/reports/presets', 'Report presets', () => import('./presets/PresetsPage')),
  built('/reports/schedules', 'Report schedules', () => import('./presets/SchedulesPage')),
  {
    // The matrix reads the websocket: without permission 12 it goes to /403 as the other report pages do.
    element: <RequirePermission ids={[MatrixPerm.report]} />,
    children: [
      built(
        '/reports/matrix-legacy',
        'Compliance matrix (legacy)',
        () => import('./matrix/MatrixLegacyPage'),
      ),
      built('/reports/matrix', 'Compliance matrix', () => import('./matrix/MatrixPage')),
    ],
  },
  built(
    '/reports/compliance-legacy',
    'Compliance report (legacy)',
    () => import('./reports/ComplianceLegacyPage'),
  ),
  built('/reports/compliance', 'Compliance report', () => import('./reports/ComplianceReportPage')),
  built('/reports/certificate', 'Certificate report', () => import('./reports/CertificateReportPage')),
  built('/reports/role', 'Role report', () => import('./reports/RoleReportPage')),
  {
    // Issue 33 §6: every pack asks for 13 (the compliance report's); without it the page goes to /403.
    element: <RequirePermission ids={[ReportsPerm.complianceReport]} />,
    children: [
      built('/reports/inspection-pack', 'Inspection pack', () => import('./reports/InspectionPackPage')),
    ],
  },
  {
    // Issue 37 §1: the export asks for 13 and 17 (the compliance report and its spreadsheet), as the staff export.
    element: <RequirePermission ids={[ReportsPerm.complianceReport, ReportsPerm.complianceExcel]} />,
    children: [
      built('/reports/asc-wds', 'ASC-WDS training export', () => import('./reports/AscWdsExportPage')),
    ],
  },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { element: <DashboardLayout />, children: dashboardRoutes },
      { element: <DefaultLayout />, children: defaultRoutes },
      {
        element: <PublicDefaultLayout />,
        children: [built('/signUpOnMonday', 'Sign up', () => import('./signup-links/SignUpPage'))],
      },
      {
        element: <AuthLayout />,
        children: [
          { ...built('/login', 'Sign in', () => import('./auth/LoginPage')), loader: loginLoader },
          built('/register/:plan', 'Create an account', () => import('./auth/RegisterPage')),
          {
            ...built('/forgot-password', 'Forgotten password', () => import('./auth/ForgotPasswordPage')),
            loader: logoutFirstLoader,
          },
          {
            ...built('/reset-password/:token', 'Reset password', () => import('./auth/ResetPasswordPage')),
            loader: logoutFirstLoader,
          },
          {
            ...built('/verify-email/:token', 'Verify e-mail', () => import('./auth/VerifyEmailPage')),
            loader: verifyEmailLoader,
          },
          {
            ...built(
              '/unlock-sign-in/:token',
              'Sign in from this browser',
              () => import('./auth/UnlockSignInPage'),
            ),
            loader: unlockSignInLoader,
          },
          {
            element: <RequireAuthOutlet />,
            children: [
              built('/update-password', 'Change password', () => import('./auth/UpdatePasswordPage')),
            ],
          },
        ],
      },
      {
        element: <ExternalLayout />,
        children: [
          built('/404', 'Not found', () => import('./errors/NotFoundPage')),
          built('/403', 'Access denied', () => import('./errors/ForbiddenPage')),
          {
            element: <RequireAuthOutlet />,
            children: [
              built(
                '/request/verify-email',
                'Verify your e-mail',
                () => import('./auth/RequestVerifyEmailPage'),
              ),
            ],
          },
        ],
      },
      {
        element: <HelpLayout />,
        children: [
          built('/helpscout-app', 'Help desk customer', () => import('./help/HelpscoutAppPage')),
          built('/helpscout-auth', 'Help desk sign-in', () => import('./help/HelpscoutAuthPage')),
        ],
      },
      // Any unknown path goes to /404 with resource page (spec 1 §2).
      { path: '*', element: <Navigate to="/404?resource=page" replace /> },
    ],
  },
];

/**
 * True when `path` (a real address such as /entities/oakfield-house/roles/) opens a built page, not the
 * placeholder of `notBuilt` nor the catch-all 404. The navigation hides entries that fail it, so an entry appears
 * by itself once its route is switched to `built`.
 */
export function isBuiltPath(path: string): boolean {
  const matches = matchRoutes(routes, path.split(/[?#]/)[0] ?? path);
  const leaf = matches?.[matches.length - 1]?.route;
  if (!leaf || leaf.path === '*') return false;
  return !(leaf.handle as { notBuilt?: boolean } | undefined)?.notBuilt;
}
setBuiltPathCheck(isBuiltPath);

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  setNavigator((to, options) => void router.navigate(to, options));
  return router;
}
