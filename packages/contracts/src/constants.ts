/** Business constants of spec 1 §9 and spec 2 §9. */
export const API_VERSION = { major: 1, minor: 0, patch: 0 } as const;
export const PRODUCT_NAME = 'CareCompliance';

export const STORAGE_KEYS = {
  actingAs: 'actingAs',
  graphQLActingAs: 'graphQLActingAs',
  authUser: 'authUser',
  token: 'token',
  whitelabel: 'whitelabel',
  /** Ours (issue 11 §5): the mobile app's known-device secret, kept across logouts so the login throttle knows it. */
  deviceToken: 'deviceToken',
} as const;

export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';
export const SESSION_COOKIE = 'cc_session';
/**
 * Issue 29 §1: on https the server's cookies carry this prefix (__Host-XSRF-TOKEN, __Host-cc_session): the browser
 * then takes them only Secure, Path=/ and without Domain, so a sibling subdomain (a package origin) cannot set or
 * shadow them. Plain http (local use) keeps the bare names.
 */
export const HOST_COOKIE_PREFIX = '__Host-';
export const ACTING_AS_HEADER = 'x-acting-as';

export const MOBILE_BREAKPOINT_PX = 768;
export const HASH_SCROLL_OFFSET_PX = 15;
export const SCORE_POLL_MS = 5000;
export const DRILL_DOWN_POLL_MS = 5000;
export const TOOLTIP_HIDE_DELAY_MS = 300;
export const MATRIX_TAKING_LONG_MS = 15000;
export const MODAL_DEFAULTS = { width: '600px', maxWidth: '1200px', zIndexStart: 99 } as const;
export const WS_SUBSCRIBE_RETRIES = 5;
export const THEME_CONTRAST_THRESHOLD = 0.5;
export const THEME_SHADES = [100, 200, 300, 400, 500, 600, 700, 800, 900] as const;
export const GRAPHQL_FETCH_ALL_PAGE_SIZE = 100;
export const COURSE_LIST_DEFAULT_FIRST = 10;

export const ENTITY_LEVELS = ['A', 'B'] as const;
export type EntityLevel = (typeof ENTITY_LEVELS)[number];
export const COMPROMISED_PASSWORD_SETTINGS = ['enforce_change', 'off'] as const;

export const SCORE_BANDS = { greenLowerMargin: 85, amberLowerMargin: 65 } as const;

export const DEFAULT_WHITELABEL = {
  primary: '#04b5e3',
  secondary: '#ffffff',
  accent: '#FF4382',
  danger: '#F56565',
  warning: '#F6AD55',
  success: '#48BB78',
  trafficLightOk: '#48bb78',
  trafficLightWarning: '#ffbf00',
  trafficLightDanger: '#e53e3e',
  entityAltName: 'Entity',
  entitiesAltName: 'Entities',
  certificateGroupMenuName: 'Care Certificate',
  primaryComplianceAltName: 'Mandatory',
  secondaryComplianceAltName: 'Required',
  greenScoreBandLowerMargin: SCORE_BANDS.greenLowerMargin,
  amberScoreBandLowerMargin: SCORE_BANDS.amberLowerMargin,
} as const;

/** Paging defaults (ours: the spec says only that lists are paged with data, meta, links). */
export const PAGE_SIZE_DEFAULT = 15;
export const PAGE_SIZE_MAX = 100;
