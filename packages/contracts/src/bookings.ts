import { z } from 'zod';
import { idParam, PageQuery, paged, queryBool, updateSchemaOf } from './common';
import { COURSE_STATUSES } from './course-status';
import { formatDate } from './dates';

/**
 * Face-to-face training (issue 15; spec 1 §1, §3, §6; spec 2 §3, §4, §6, §7): training sessions of a face2face
 * content item, the delegates booked on them, waitlists, training providers' settings, the marketplace and training
 * orders, and attendance that records face2face results.
 *
 * Who may do what (ours, where the spec only names the permissions; a super admin passes every check):
 * - `createBookings` (9): create sessions owned by an organisation in scope, add delegates in scope to them.
 * - `editBooking` (11): edit, cancel, complete or mark incomplete a session in scope.
 * - `ownBookings` (108): /your-bookings, book oneself onto a session one may see (available-training).
 * - `trainingProviderBookings` (109): a training company's staff see and manage every delegate on their company's
 *   sessions, whichever organisation the delegate belongs to (accept, decline, restore).
 * - `trainingProvider` (110): the company's training provider settings and publishing sessions to the marketplace.
 * - `requestBookings` (118): ask for a place (for oneself or staff in scope) that a manager then approves, where the
 *   delegate's organisation requires approval (delegate settings).
 * - `removeDelegates` (123): delete a delegate from a session (before the removal cut-off unless also 11).
 * - `markDelegates` (128): mark attendance; a session's own trainer may always mark their session.
 * - `createTrainer` (99): make a user a trainer (`is_trainer`).
 * The a_entity flags gate the areas: `can_manage_bookings` (/manage-bookings at all), `can_view_internal_bookings`
 * (sessions run by one's own organisation tree), `can_view_external_bookings` (the marketplace, training orders and
 * providers' sessions one's staff are booked on).
 */
export const BookingsPerm = {
  createBookings: 9,
  editBooking: 11,
  createTrainer: 99,
  ownBookings: 108,
  trainingProviderBookings: 109,
  trainingProvider: 110,
  requestBookings: 118,
  removeDelegates: 123,
  markDelegates: 128,
} as const;

/** spec 2 §3 "Enumerations": booking context. */
export const BOOKING_CONTEXTS = ['download', 'online'] as const;
export type BookingContext = (typeof BOOKING_CONTEXTS)[number];

/**
 * availableTo: who may book a session. `internal`: staff of the owning organisation and its descendants;
 * `external`: other organisations, through the marketplace (a training provider's public sessions); `all`: both.
 */
export const AVAILABLE_TO = ['internal', 'external', 'all'] as const;
export type AvailableTo = (typeof AVAILABLE_TO)[number];

/**
 * grading_method: how attendance becomes a result. `attendance`: attended = passed, partly attended or no-show =
 * not passed; `pass_fail`: the trainer records passed or not for those who attended; `score`: the trainer records a
 * score 0–100, passed when at least `pass_mark`.
 */
export const GRADING_METHODS = ['attendance', 'pass_fail', 'score'] as const;
export type GradingMethod = (typeof GRADING_METHODS)[number];

/** A session's life: scheduled (open), confirmed (met its minimum at the decision cut-off), then one of the ends. */
export const SESSION_STATUSES = ['scheduled', 'confirmed', 'completed', 'incomplete', 'cancelled'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/**
 * A delegate's state (spec 2 §4: accepted, declined, restored, deleted):
 * - `requested`: asked for (118), waiting for the delegate's manager; holds no place.
 * - `pending`: booked, waiting for the provider to accept (auto-accepted after delegate_auto_accept_period hours);
 *   holds a place.
 * - `accepted`: holds a place.
 * - `waitlisted`: no place yet; ordered by waitlisted_at (longest waiting first).
 * - `offered`: a freed place is held for this delegate until offer_expires_at; claiming makes it accepted.
 * - `declined`: refused by the provider or the manager; holds no place. `restore` brings it back (a place if one
 *   is free, else the waitlist).
 * - `deleted`: removed (123) or cancelled by the delegate; holds no place; `restore` as for declined.
 */
export const DELEGATE_STATUSES = [
  'requested',
  'pending',
  'accepted',
  'waitlisted',
  'offered',
  'declined',
  'deleted',
] as const;
export type DelegateStatus = (typeof DELEGATE_STATUSES)[number];
/** The states that hold one of the session's places (sessions.places_taken counts them plus unnamed order places). */
export const PLACE_HOLDING_STATUSES: readonly DelegateStatus[] = ['pending', 'accepted', 'offered'];

export const ATTENDANCE = ['attended', 'partial', 'no_show'] as const;
export type Attendance = (typeof ATTENDANCE)[number];

export const UNDER_MINIMUM_ACTIONS = ['cancel', 'confirm'] as const;
export type UnderMinimumAction = (typeof UNDER_MINIMUM_ACTIONS)[number];

export const BookingsMessages = {
  sessionCreated: 'Training session created.',
  sessionUpdated: 'Training session updated.',
  sessionCancelled: 'Training session cancelled.',
  sessionCompleted: 'Training session completed.',
  sessionIncomplete: 'Training session marked incomplete.',
  delegatesAdded: 'Delegates added.',
  delegateUpdated: 'Delegate updated.',
  delegateDeleted: 'Delegate deleted.',
  attendanceSaved: 'Attendance saved.',
  booked: 'You are booked on this session.',
  waitlisted: 'This session is full: you are on the waiting list.',
  requested: 'Your request has been sent to your manager.',
  placeClaimed: 'The place is yours.',
  checkedIn: 'You are checked in.',
  bookingCancelled: 'Your booking has been cancelled.',
  settingsUpdated: 'Settings updated.',
  orderPlaced: 'Training order placed.',
  orderUpdated: 'Training order updated.',
  orderCancelled: 'Training order cancelled.',
  calendarFeedCreated: 'Calendar link created.',
  calendarFeedRevoked: 'Calendar link revoked.',
  // Refusals (409 or 422 with these texts).
  sessionFull: 'This session is full.',
  sessionClosed: 'This session is no longer open for booking.',
  alreadyBooked: 'Already booked on this session.',
  pastRemovalCutoff: 'It is too late to remove this delegate: the session starts soon.',
  offerExpired: 'This offer has expired.',
  wrongCheckInCode: 'That check-in code is not right for this session.',
  checkInClosed: 'Check-in is open on the day of the session only.',
  notFace2face: 'Choose face-to-face content.',
  notATrainer: 'Choose a trainer.',
  minAboveMax: 'The minimum cannot be more than the maximum.',
  maxBelowTaken: 'More places are already taken than this maximum.',
  endBeforeStart: 'The end time must be after the start time.',
  notEnoughPlaces: 'Not enough places left on this session.',
} as const;

// --- Sessions -------------------------------------------------------------------------------------------------

const time = z
  .string({ error: 'Enter a time.' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time as HH:MM.');
const isoDate = z.string({ error: 'Enter a date.' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date.');
const text = (max: number) => z.string().trim().max(max).nullable().optional();

/** The 422 of a session link that is not a web link (http or https). */
export const SESSION_LINK_ERROR = 'Enter a web link starting with https:// or http://.';

/** One day of a session (multi-day sessions have several). Times are local to the organisation (Europe/London). */
export const SessionDate = z.object({ date: isoDate, startTime: time, endTime: time });
export type SessionDate = z.infer<typeof SessionDate>;

/**
 * POST /training-sessions (9). spec 2 §3 "Training session" field names. date/startTime/endTime are the first day;
 * `additionalDates` the further days of a multi-day session. `entity_id` (ours) is the owning organisation
 * (default: the acting-as or primary entity); `pass_mark` (ours) is for grading_method `score`.
 */
export const TrainingSessionBody = z.object({
  contentId: z.number({ error: 'Choose face-to-face content.' }).int().positive(),
  entity_id: z.number().int().positive().optional(),
  date: isoDate,
  startTime: time,
  endTime: time,
  additionalDates: z.array(SessionDate).max(30).default([]),
  trainerId: z.number().int().positive().nullable().default(null),
  venue: text(200),
  room: text(100),
  virtual: z.boolean().default(false),
  /**
   * The joining link of a virtual session: a web link only (http or https; issue 29 §7), never javascript:, data: or
   * another scheme. Screens show its host beside it ("Join on meet.example") and open it in a new tab without
   * passing the opener or the referrer.
   */
  virtual_url: z
    .url({ protocol: /^https?$/, error: SESSION_LINK_ERROR })
    .max(500, 'Enter a link of 500 characters or fewer.')
    .nullable()
    .optional(),
  area: text(200),
  aim: text(2000),
  contentCovered: text(5000),
  learningOutcomes: text(5000),
  availableTo: z.enum(AVAILABLE_TO).default('internal'),
  minDelegates: z.number().int().min(0).max(500).default(0),
  maxDelegates: z.number({ error: 'Enter the most delegates.' }).int().min(1).max(500),
  grading_method: z.enum(GRADING_METHODS).default('attendance'),
  pass_mark: z.number().int().min(0).max(100).nullable().optional(),
});
export type TrainingSessionBody = z.infer<typeof TrainingSessionBody>;
/** PATCH /training-sessions/{id} (11): only the fields sent change. */
export const TrainingSessionUpdate = updateSchemaOf(TrainingSessionBody);
export type TrainingSessionUpdate = z.infer<typeof TrainingSessionUpdate>;

/** POST /training-sessions/{id}/cancel (11): a reason from GET /cancellation-reasons and notes. */
export const CancelSessionBody = z.object({
  cancellation_reason_id: z.number({ error: 'Choose a reason.' }).int().positive(),
  cancellation_notes: z.string().trim().max(2000).nullable().optional(),
});
export type CancelSessionBody = z.infer<typeof CancelSessionBody>;

export const CancellationReason = z.object({ id: z.number(), name: z.string() });
export type CancellationReason = z.infer<typeof CancellationReason>;

/** GET /training-sessions: sessions in scope (owned by the actor's organisations, or on the marketplace when asked). */
export const TrainingSessionsQuery = PageQuery.extend({
  /** ISO dates bounding the sessions' days (inclusive); the calendar asks for one month or week. */
  from: isoDate.optional(),
  to: isoDate.optional(),
  content_id: z.coerce.number().int().positive().optional(),
  trainer_id: z.coerce.number().int().positive().optional(),
  status: z.enum(SESSION_STATUSES).optional(),
  /** Only the caller's sessions as trainer. */
  mine: queryBool.optional(),
  /** Only sessions with a free place. */
  has_places: queryBool.optional(),
});
export type TrainingSessionsQuery = z.infer<typeof TrainingSessionsQuery>;

/**
 * GET /training-sessions/trainers (ours, issue 33 §3): the trainers a session may name, for the session form's
 * Trainer picker and the sessions filter: trainers (is_trainer) of the caller's own organisation tree, and of the
 * training companies it books with (its people booked on their sessions, or its orders of their places). A
 * trainerId outside that set is refused on save (422, notATrainer).
 */
export const TrainersQuery = PageQuery.pick({ page: true, per_page: true, search: true, actingAs: true });
export type TrainersQuery = z.infer<typeof TrainersQuery>;
export interface TrainerOption {
  id: number;
  name: string;
  /** The trainer's organisation (their primary entity), and whether it is a provider the caller books with. */
  entity: { id: number; name: string };
  provider: boolean;
}

export const PersonRef = z.object({ id: z.number(), uuid: z.string(), name: z.string() });
export type PersonRef = z.infer<typeof PersonRef>;
export const EntityRef = z.object({ id: z.number(), slug: z.string(), name: z.string() });
export type EntityRef = z.infer<typeof EntityRef>;

export const TrainingSessionView = z.object({
  id: z.number(),
  uuid: z.string(),
  entity: EntityRef,
  contentId: z.number(),
  content: z.object({ id: z.number(), title: z.string() }),
  course: z.object({ id: z.number(), title: z.string() }),
  /** First day, as the spec's fields. */
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  /** Every day, first included, in order. */
  dates: z.array(SessionDate),
  /** ISO instants of the first start and the last end. */
  starts_at: z.string(),
  ends_at: z.string(),
  trainerId: z.number().nullable(),
  trainer: PersonRef.nullable(),
  venue: z.string().nullable(),
  room: z.string().nullable(),
  virtual: z.boolean(),
  virtual_url: z.string().nullable(),
  area: z.string().nullable(),
  aim: z.string().nullable(),
  contentCovered: z.string().nullable(),
  learningOutcomes: z.string().nullable(),
  availableTo: z.enum(AVAILABLE_TO),
  minDelegates: z.number(),
  maxDelegates: z.number(),
  grading_method: z.enum(GRADING_METHODS),
  pass_mark: z.number().nullable(),
  status: z.enum(SESSION_STATUSES),
  cancelled: z.boolean(),
  cancellation_reason_id: z.number().nullable(),
  cancellation_reason: z.string().nullable(),
  cancellation_notes: z.string().nullable(),
  /** Places held (delegates pending/accepted/offered plus unnamed order places) and free. */
  places_taken: z.number(),
  places_free: z.number(),
  waitlist_count: z.number(),
  /** Shown to the trainer and to those who may mark delegates; null for everyone else. */
  check_in_code: z.string().nullable(),
  /** What the caller may do with it (the web shows only these actions). */
  can: z.object({
    edit: z.boolean(),
    manage_delegates: z.boolean(),
    mark: z.boolean(),
    book: z.boolean(),
  }),
  /** The caller's own booking on this session, if any. */
  my_booking: z.object({ id: z.number(), status: z.enum(DELEGATE_STATUSES) }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TrainingSessionView = z.infer<typeof TrainingSessionView>;
export const TrainingSessionsPage = paged(TrainingSessionView);

/** Messages of the sessions' and attendance's own checks (ours; beside BookingsMessages). */
export const SessionMessages = {
  chooseOrganisation: 'Choose an organisation.',
  chooseReason: 'Choose a reason.',
  passMarkRequired: 'Enter the pass mark.',
  notAccepted: 'Only delegates with a confirmed place can be marked.',
  passedRequired: 'Say whether they passed.',
  scoreRequired: 'Enter a score.',
  markedTwice: 'Each delegate can be marked once per save.',
} as const;

/**
 * Attendance, and the completion or pass it records, can be marked from the start of the session's first day (UK
 * time) on, never before: a pass for training that has not happened would count as in date from today (issue 28
 * §2). `firstDay` is the session's first date ('YYYY-MM-DD'), `today` calendarDay(now).
 */
export const attendanceOpen = (firstDay: string, today: string): boolean => today >= firstDay;
/** The 422 (and the page's note) for a mark before the session's first day. */
export const attendanceNotYet = (firstDay: string): string =>
  `Attendance can be marked from the day the session starts (${formatDate(firstDay)}).`;

// --- Delegates ------------------------------------------------------------------------------------------------

/** POST /training-sessions/{id}/delegates (9 on own sessions, 109 on the provider's): people in scope. */
export const AddDelegatesBody = z.object({
  users: z.array(z.number().int().positive()).min(1, 'Choose who to add.').max(500),
  context: z.enum(BOOKING_CONTEXTS).default('online'),
  /** A training order (external sessions): the places come out of the order's reserved places. */
  order_id: z.number().int().positive().optional(),
});
export type AddDelegatesBody = z.infer<typeof AddDelegatesBody>;

/**
 * POST /training-sessions/{id}/book (108 for oneself; 118 for someone in scope with `user_id`): a place if free,
 * else the waitlist; `requested` when the delegate's organisation requires manager approval.
 */
export const BookSessionBody = z.object({
  context: z.enum(BOOKING_CONTEXTS).default('online'),
  user_id: z.number().int().positive().optional(),
});
export type BookSessionBody = z.infer<typeof BookSessionBody>;

/** POST /training-sessions/{id}/attendance (128 or the session's trainer): one mark per delegate. */
export const AttendanceMark = z.object({
  delegate_id: z.number().int().positive(),
  attendance: z.enum(ATTENDANCE),
  /** grading_method pass_fail: required for attended/partial. */
  passed: z.boolean().optional(),
  /** grading_method score: 0–100, required for attended/partial. */
  score: z.number().min(0).max(100).optional(),
  notes: z.string().trim().max(1000).nullable().optional(),
});
export type AttendanceMark = z.infer<typeof AttendanceMark>;
export const AttendanceBody = z.object({ marks: z.array(AttendanceMark).min(1).max(500) });
export type AttendanceBody = z.infer<typeof AttendanceBody>;

/** POST /training-sessions/{id}/check-in: the learner's own check-in on the day, with the trainer's code. */
export const CheckInBody = z.object({ code: z.string().trim().min(4).max(12) });
export type CheckInBody = z.infer<typeof CheckInBody>;

export const DelegatesQuery = PageQuery.extend({ status: z.enum(DELEGATE_STATUSES).optional() });
export type DelegatesQuery = z.infer<typeof DelegatesQuery>;

export const DelegateView = z.object({
  id: z.number(),
  session_id: z.number(),
  user: PersonRef,
  entity: EntityRef,
  status: z.enum(DELEGATE_STATUSES),
  context: z.enum(BOOKING_CONTEXTS),
  order_id: z.number().nullable(),
  /** 1-based place in the waitlist (waitlisted only). */
  waitlist_position: z.number().nullable(),
  offer_expires_at: z.string().nullable(),
  attendance: z.enum(ATTENDANCE).nullable(),
  passed: z.boolean().nullable(),
  score: z.number().nullable(),
  notes: z.string().nullable(),
  checked_in_at: z.string().nullable(),
  marked_at: z.string().nullable(),
  result_id: z.number().nullable(),
  booked_by: PersonRef.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DelegateView = z.infer<typeof DelegateView>;
export const DelegatesPage = paged(DelegateView);

/** GET /users/{id}/bookings: the user's bookings, each with its session. */
export const USER_BOOKING_SCOPES = ['upcoming', 'waitlisted', 'past', 'all'] as const;
export const UserBookingsQuery = PageQuery.pick({ page: true, per_page: true }).extend({
  scope: z.enum(USER_BOOKING_SCOPES).default('upcoming'),
});
export type UserBookingsQuery = z.infer<typeof UserBookingsQuery>;
export const UserBookingView = DelegateView.extend({ session: TrainingSessionView });
export type UserBookingView = z.infer<typeof UserBookingView>;
export const UserBookingsPage = paged(UserBookingView);

// --- Training providers, delegate settings --------------------------------------------------------------------

/**
 * GET/PATCH /entities/{slug}/training-provider-settings (110; the entity must be a training company). spec 2 §3
 * names the first six; the rest are ours (the waitlist and the minimum-delegates decision).
 */
export const TrainingProviderSettingsBody = z.object({
  /** Hours after which a pending delegate is accepted without the provider acting (0: at once). */
  delegate_auto_accept_period: z.number().int().min(0).max(720).default(48),
  /** Hours before the start after which delegates cannot be removed or cancel (except with 11). */
  delegate_removal_cutoff_hours: z.number().int().min(0).max(720).default(48),
  practical_min_delegates: z.number().int().min(0).max(500).default(4),
  practical_max_delegates: z.number().int().min(1).max(500).default(12),
  theory_min_delegates: z.number().int().min(0).max(500).default(4),
  theory_max_delegates: z.number().int().min(1).max(500).default(20),
  /** Hours a waitlisted delegate has to claim a freed place. */
  waitlist_claim_hours: z.number().int().min(1).max(168).default(24),
  /** No promotion from the waitlist within this many hours of the start. */
  waitlist_cutoff_hours: z.number().int().min(0).max(720).default(24),
  /** Hours before the start at which a session under its minimum is decided. */
  minimum_decision_hours: z.number().int().min(0).max(720).default(72),
  under_minimum_action: z.enum(UNDER_MINIMUM_ACTIONS).default('cancel'),
});
export type TrainingProviderSettingsBody = z.infer<typeof TrainingProviderSettingsBody>;
/** What a training company's sessions run by until it saves settings (the table's column defaults are the same). */
export const TRAINING_PROVIDER_DEFAULTS: TrainingProviderSettingsBody = TrainingProviderSettingsBody.parse(
  {},
);
export const TrainingProviderSettingsUpdate = updateSchemaOf(TrainingProviderSettingsBody);
export type TrainingProviderSettingsUpdate = z.infer<typeof TrainingProviderSettingsUpdate>;
export const TrainingProviderSettings = TrainingProviderSettingsBody.required().extend({
  entity_id: z.number(),
});
export type TrainingProviderSettings = z.infer<typeof TrainingProviderSettings>;

/**
 * GET/PATCH /entities/{slug}/delegate-settings (9 or 11 on the entity): how the organisation's staff are booked
 * (ours; the spec names the page only).
 */
export const DelegateSettingsBody = z.object({
  /** Self-bookings and requests (118) wait for a manager's approval. */
  require_approval: z.boolean().default(false),
  /** Learners may cancel their own booking before the provider's removal cut-off. */
  allow_self_cancel: z.boolean().default(true),
  /** E-mail calendar invites (iCal) to delegates. */
  send_calendar_invites: z.boolean().default(true),
  /** Tell the delegate's managers when they are booked, waitlisted or removed. */
  notify_managers: z.boolean().default(true),
});
export type DelegateSettingsBody = z.infer<typeof DelegateSettingsBody>;
/** What applies where neither an organisation nor any organisation above it saved delegate settings. */
export const DELEGATE_SETTINGS_DEFAULTS: DelegateSettingsBody = DelegateSettingsBody.parse({});
export const DelegateSettingsUpdate = updateSchemaOf(DelegateSettingsBody);
export type DelegateSettingsUpdate = z.infer<typeof DelegateSettingsUpdate>;
export const DelegateSettings = DelegateSettingsBody.required().extend({ entity_id: z.number() });
export type DelegateSettings = z.infer<typeof DelegateSettings>;

// --- Marketplace and training orders --------------------------------------------------------------------------

/**
 * GET /marketplace: training providers' sessions with availableTo external/all, open and in the future, for
 * organisations with can_view_external_bookings (and 9 or 118). Same query as the sessions list.
 */
export const MarketplaceQuery = TrainingSessionsQuery.omit({ mine: true, trainer_id: true, status: true });
export type MarketplaceQuery = z.infer<typeof MarketplaceQuery>;

/** POST /training-orders (9, external bookings): places on a provider's session, delegates named now or later. */
export const TrainingOrderBody = z.object({
  session_id: z.number().int().positive(),
  places: z.number({ error: 'Enter how many places.' }).int().min(1).max(500),
  users: z.array(z.number().int().positive()).max(500).default([]),
  notes: z.string().trim().max(2000).nullable().optional(),
});
export type TrainingOrderBody = z.infer<typeof TrainingOrderBody>;
/** POST /training-orders/{id}/delegates: name delegates on an order's unnamed places. */
export const NameOrderDelegatesBody = z.object({
  users: z.array(z.number().int().positive()).min(1).max(500),
});
export type NameOrderDelegatesBody = z.infer<typeof NameOrderDelegatesBody>;

/** GET /training-orders: the orderer's and the provider's orders; `session_id` narrows to one session's. */
export const TrainingOrdersQuery = PageQuery.extend({
  session_id: z.coerce.number().int().positive().optional(),
});
export type TrainingOrdersQuery = z.infer<typeof TrainingOrdersQuery>;

export const TRAINING_ORDER_STATUSES = ['placed', 'cancelled'] as const;
export const TrainingOrderView = z.object({
  id: z.number(),
  uuid: z.string(),
  session: TrainingSessionView,
  entity: EntityRef,
  places: z.number(),
  named: z.number(),
  status: z.enum(TRAINING_ORDER_STATUSES),
  notes: z.string().nullable(),
  ordered_by: PersonRef.nullable(),
  created_at: z.string(),
});
export type TrainingOrderView = z.infer<typeof TrainingOrderView>;
export const TrainingOrdersPage = paged(TrainingOrderView);

// --- Calendar -------------------------------------------------------------------------------------------------

/**
 * GET/POST/DELETE /users/{id}/calendar-feed (oneself): a personal iCal feed of one's sessions at
 * GET /calendar/{token}.ics (no sign-in; the token is the secret, stored as a hash). POST makes a new link and
 * revokes the old; DELETE revokes. The URL is shown once, when made.
 */
export const CalendarFeedView = z.object({
  active: z.boolean(),
  url: z.string().nullable(),
  created_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type CalendarFeedView = z.infer<typeof CalendarFeedView>;

// --- Dashboards -----------------------------------------------------------------------------------------------

/**
 * GET /dashboards/bookings (manager dashboard; 9, 11 or 109 with can_manage_bookings, over the dashboard's scope:
 * actingAs, deep): this week's sessions with their free places, and the compliance gaps a session would close: the
 * Mandatory/Required face-to-face courses with people in scope not in date, each with the next open session of
 * that course they could be booked on.
 */
export const BookingsDashboardQuery = PageQuery.pick({ actingAs: true, deep: true });
export type BookingsDashboardQuery = z.infer<typeof BookingsDashboardQuery>;
export const BookingGap = z.object({
  course: z.object({ id: z.number(), title: z.string() }),
  /** People in scope for whom the course is Mandatory/Required and who are not in date. */
  people_not_in_date: z.number(),
  /** Of those, how many already hold a place (or a waitlist spot) on an upcoming session of the course. */
  people_booked: z.number(),
  next_session: TrainingSessionView.nullable(),
});
export type BookingGap = z.infer<typeof BookingGap>;
export const BookingsDashboard = z.object({
  sessions_this_week: z.array(TrainingSessionView),
  places_free_this_week: z.number(),
  gaps: z.array(BookingGap),
});
export type BookingsDashboard = z.infer<typeof BookingsDashboard>;

// --- Booking the gaps (issue 33 §2) ----------------------------------------------------------------------------

/**
 * GET /booking-gaps/{courseId} (ours; same permission and scope as GET /dashboards/bookings: 9, 11 or 109 with
 * can_manage_bookings, over `actingAs` and `deep`): the people behind a gap's "N people to book" — those in scope
 * for whom the course is Mandatory/Required, not in date, and without a place or a waitlist spot on an upcoming
 * session of it — most overdue first (the order places are given in), and the upcoming open sessions of the course
 * the caller may add people to.
 */
export const CourseIdParams = z.object({ courseId: idParam });
export type CourseIdParams = z.infer<typeof CourseIdParams>;
export const BookingGapQuery = BookingsDashboardQuery;
export type BookingGapQuery = z.infer<typeof BookingGapQuery>;
export const GapPerson = z.object({
  user: PersonRef,
  entity: EntityRef,
  /** The one status of the person x course (contracts course-status.ts): expired, missing, due or pending. */
  status: z.enum(COURSE_STATUSES),
  /** The date the status is about (expired on, due by); null for never done. */
  date: z.string().nullable(),
  /** A result exists but is not a pass ("Not passed" rather than "Never done"). */
  attempted: z.boolean(),
});
export type GapPerson = z.infer<typeof GapPerson>;
export const BookingGapView = z.object({
  course: z.object({ id: z.number(), title: z.string() }),
  /** Most overdue first: never done, then expired longest ago, then awaiting approval, then due by a date. */
  people: z.array(GapPerson),
  /** Upcoming open sessions of the course the caller may add people to (9 on their own, 109 on their company's). */
  sessions: z.array(TrainingSessionView),
});
export type BookingGapView = z.infer<typeof BookingGapView>;

/**
 * POST /training-sessions/{id}/gap-bookings (ours; 9 on one's organisations' sessions, 109 on one's training
 * company's): "Book these people" in one action. Places are given most overdue first (the order of GET
 * /booking-gaps), the rest go to the waiting list in that order; people already on the session are left as they
 * are. A person the caller may not book is a 404; a past, cancelled or completed session, or a full one whose
 * waiting list is closed (inside the provider's waitlist cut-off), a 422.
 */
export const GapBookingBody = z.object({
  users: z.array(z.number().int().positive()).min(1, 'Choose who to book.').max(500),
  context: z.enum(BOOKING_CONTEXTS).default('online'),
});
export type GapBookingBody = z.infer<typeof GapBookingBody>;
export const GAP_BOOKING_OUTCOMES = ['booked', 'waitlisted', 'already_booked'] as const;
export const GapBookingPerson = z.object({
  user: PersonRef,
  outcome: z.enum(GAP_BOOKING_OUTCOMES),
  /** The delegate row on the session (null for nobody). */
  delegate_id: z.number().nullable(),
  /** 1-based place on the waiting list (waitlisted only). */
  waitlist_position: z.number().nullable(),
});
export type GapBookingPerson = z.infer<typeof GapBookingPerson>;
export const GapBookingResult = z.object({
  session_id: z.number(),
  booked: z.number(),
  waitlisted: z.number(),
  already_booked: z.number(),
  /** In the order places were given (most overdue first), then those already on the session. */
  people: z.array(GapBookingPerson),
});
export type GapBookingResult = z.infer<typeof GapBookingResult>;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
/** The answer's message: "3 people booked, 2 on the waiting list." */
export function gapBookedMessage(r: Pick<GapBookingResult, 'booked' | 'waitlisted' | 'already_booked'>) {
  const parts = [`${count(r.booked, 'person', 'people')} booked`];
  if (r.waitlisted) parts.push(`${r.waitlisted} on the waiting list`);
  if (r.already_booked) parts.push(`${r.already_booked} already on this session`);
  return `${parts.join(', ')}.`;
}
