import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { getDomain } from 'tldts';
import { z } from 'zod';
import { parseSecretsKey } from './security/secrets-key';

const wholeNumber = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const isPostgresUrl = (v: string) => {
  try {
    return ['postgres:', 'postgresql:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};
const isHttpUrl = (v: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

/**
 * TRUST_PROXY, as Fastify's trustProxy takes it: true (any peer may set X-Forwarded-For) or the addresses / CIDR
 * ranges of the proxies (comma separated). Unset or false: no proxy is trusted and X-Forwarded-For is ignored.
 * A hop count is refused: this Fastify treats a number as "trust nobody" (it cannot check the peer), which would
 * silently count every user behind the proxy as one address.
 */
function parseTrustProxy(value: string | undefined): boolean | string[] {
  const v = value?.trim().toLowerCase();
  if (!v || v === 'false') return false;
  if (v === 'true') return true;
  return v
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}
const isProxyList = (v: string) => {
  const t = v.trim().toLowerCase();
  if (['true', 'false'].includes(t)) return true;
  return t
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .every((entry) => {
      const [address, prefix, ...rest] = entry.split('/');
      if (rest.length || !address || isIP(address) === 0) return false;
      if (prefix === undefined) return true;
      const bits = Number(prefix);
      return /^\d+$/.test(prefix) && bits <= (isIP(address) === 4 ? 32 : 128);
    });
};

/** A Sentry DSN: https://<public key>@<host>/<project id> (http for a local relay). */
const isSentryDsn = (v: string) => {
  try {
    const url = new URL(v);
    return (
      ['http:', 'https:'].includes(url.protocol) && Boolean(url.username) && /^\/.*\d+$/.test(url.pathname)
    );
  } catch {
    return false;
  }
};

/** An http(s) origin and nothing more: no path, query, fragment or credentials. */
const isBareOrigin = (v: string) => {
  try {
    const url = new URL(v);
    return ['http:', 'https:'].includes(url.protocol) && url.origin === v.replace(/\/$/, '');
  } catch {
    return false;
  }
};

/**
 * The shell's page origins (issue 19): scheme and host only, https/http or an app's own scheme such as capacitor:
 * (WebKit gives a custom scheme's page a real origin, capacitor://localhost).
 */
const isAppOrigin = (v: string) => /^[a-z][a-z0-9+.-]*:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(v);
const originList = (v: string) =>
  v
    .split(',')
    .map((o) => o.trim().replace(/\/$/, ''))
    .filter(Boolean);

/** A frame-ancestors source we accept: 'self', or an https origin whose host may start with one "*." label. */
const isFrameAncestor = (v: string) =>
  v === "'self'" ||
  /^https:\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i.test(v);
const frameAncestorList = (v: string) =>
  v
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: wholeNumber(0, 65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().refine(isPostgresUrl).optional(),
  APP_URL: z.string().refine(isHttpUrl).optional(),
  /** Extra origins allowed to call the API with credentials (comma separated), for a separate web host. */
  CORS_ORIGINS: z
    .string()
    .refine((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .every(isHttpUrl),
    )
    .default(''),
  /**
   * The mobile shell's page origins (Capacitor: capacitor://localhost on iOS, https://localhost on Android), allowed
   * by CORS without credentials: the shell signs in with a bearer token, never a cookie. "none" allows none.
   */
  MOBILE_ORIGINS: z
    .string()
    .refine((v) => v.trim() === 'none' || originList(v).every(isAppOrigin))
    .default('capacitor://localhost,https://localhost'),
  TRUST_PROXY: z.string().refine(isProxyList).optional(),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: wholeNumber(1, 65535).default(587),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  SMTP_SECURE: z.enum(['true', 'false']).default('false'),
  MAIL_FROM: z.string().default('CareCompliance <no-reply@carecompliance.local>'),
  /** Shows the secrets of links in the outbox view (issue 11 §11): for test setups that read mail there only. */
  OUTBOX_SHOW_LINKS: z.enum(['true', 'false']).default('false'),
  SESSION_LIFETIME_MINUTES: z.coerce.number().int().min(5).default(120),
  /** ASVS 3.3.3 / 3.3.4: a web session ends this long after login, however active (the idle lifetime aside). */
  SESSION_ABSOLUTE_LIFETIME_HOURS: wholeNumber(1, 24 * 366).default(12),
  /** A device (bearer) token ends this long after it was issued; the device signs in again. */
  TOKEN_LIFETIME_DAYS: wholeNumber(1, 3660).default(30),
  /**
   * `fast`: argon2id at its smallest cost, for the test suites only (each standard hash is about 0.05 CPU-seconds, and
   * the suites sign in thousands of times); refused in production. Hashes record their own cost, so either kind
   * verifies under the other.
   */
  PASSWORD_HASHING: z.enum(['standard', 'fast']).default('standard'),
  /** Unset: the demo on a developer's machine, never in production (issue 29 §2: its passwords are published). */
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  /** How long a caller (session/token → user and permissions) is remembered; 0 turns it off (the test default). */
  ACTOR_CACHE_MS: wholeNumber(0, 60_000).optional(),
  /**
   * Connections to PostgreSQL (DATABASE_URL) this process holds at most. A request makes several short queries, each a
   * round trip: with 10, 200 clients queued behind ten round trips at a time (issue 12 §2's profile: the server idle
   * 60 % of the time, waiting for a free connection). Keep processes × this under PostgreSQL's max_connections.
   */
  DATABASE_POOL_SIZE: wholeNumber(1, 1000).default(30),
  /**
   * Connections of the sign-in lane (issue 36 §2): the sign-in routes (login, the csrf cookie before it, unlock,
   * forgot and reset password) run on a small pool of their own, so a person signing in never queues behind the read
   * load that keeps every connection of DATABASE_POOL_SIZE busy. A login is a few short statements and a password
   * hash that holds no connection: two serve a burst of sign-ins.
   */
  DATABASE_SIGN_IN_POOL_SIZE: wholeNumber(1, 100).default(2),
  /**
   * The embedded database's buffer cache (PostgreSQL shared_buffers inside PGlite's memory). PGlite's own 128MB
   * stays resident once a big report has read through it; pages past 32MB come from the OS file cache at no
   * measured cost (bench), and the server's memory is ~100 MB lower.
   */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/)
    .default('32MB'),
  /**
   * The database without DATABASE_URL (README "Embedded database"): real PostgreSQL binaries from npm, or PGlite
   * where they cannot run. auto: PostgreSQL when it can run here, else PGlite with one line saying why.
   */
  EMBEDDED_ENGINE: z.enum(['auto', 'postgres', 'pglite']).default('auto'),
  // Read at call time by packages/limits.ts; checked here so a typo stops the start instead of being ignored.
  PACKAGE_MAX_BYTES: wholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
  PACKAGE_MAX_UNCOMPRESSED_BYTES: wholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
  PACKAGE_MAX_ENTRIES: wholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
  PACKAGE_MAX_RATIO: wholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
  /**
   * Where uploaded SCORM / H5P files are served from (issue 11 finding 1): an origin of its own such as
   * http://packages.localhost:3000, never the app's. Unset: they run in an opaque sandboxed origin instead.
   */
  PACKAGE_ORIGIN: z.string().refine(isBareOrigin).optional(),
  /**
   * Who may frame the help-desk pages (/helpscout-app, /helpscout-auth): CSP frame-ancestors sources separated by
   * spaces or commas, e.g. https://secure.helpscout.net https://*.example.com. Unset: nobody ('none').
   */
  HELPDESK_FRAME_ANCESTORS: z
    .string()
    .refine((v) => frameAncestorList(v).every(isFrameAncestor))
    .optional(),
  /** How long a stopping server waits for the requests it received before cutting what is left (issue 12 §3). */
  SHUTDOWN_TIMEOUT_SECONDS: wholeNumber(1, 3600).default(10),
  /**
   * Issue 30 §5: a running job is taken as dead (its process was killed) and claimed again after this many seconds
   * when that is sooner than the job's own timeout (2 to 30 minutes). For tests that kill a process only.
   */
  JOB_RECLAIM_AFTER_SECONDS: wholeNumber(1, 3600).optional(),
  /** Issue 12 §4: uploaded files in an S3-compatible bucket (shared by every process) instead of DATA_DIR/files. */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/)
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/)
    .default('us-east-1'),
  S3_ENDPOINT: z.string().refine(isHttpUrl).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Issue 18: lets webhooks reach loopback and private addresses (tests and local development only: SSRF). */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(['true', 'false', '1', '0']).default('false'),
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*\/?$/)
    .refine((v) => !v.split('/').some((s) => s === '.' || s === '..'))
    .optional(),
  /** Issue 18: the server's own unhandled errors go to this Sentry-protocol DSN (system/error-reporting.ts); unset: off. */
  SENTRY_DSN: z.string().refine(isSentryDsn).optional(),
  /** The web app's error reporting DSN, sent to browsers at start (GET /api/client-config); unset: off. */
  SENTRY_BROWSER_DSN: z.string().refine(isSentryDsn).optional(),
  /** A GA4-style measurement id (G-XXXXXXX) for page-view analytics in the web app; unset: off. */
  ANALYTICS_MEASUREMENT_ID: z
    .string()
    .regex(/^G-[A-Z0-9]{4,20}$/)
    .optional(),
  /** Analytics waits for each user's consent (the banner's Accept) unless this is false. */
  ANALYTICS_REQUIRES_CONSENT: z.enum(['true', 'false']).default('true'),
  /** Issue 19: Android pushes by FCM HTTP v1 (README "Push notifications"); unset: no FCM. */
  FCM_PROJECT_ID: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/)
    .optional(),
  /** The Firebase service account (its JSON key file, or the JSON itself): read at start, never logged. */
  FCM_SERVICE_ACCOUNT_FILE: z.string().optional(),
  FCM_SERVICE_ACCOUNT_JSON: z.string().optional(),
  /** Overrides for tests and proxies: the OAuth2 token endpoint and the FCM origin. */
  FCM_TOKEN_URL: z.string().refine(isHttpUrl).optional(),
  FCM_API_URL: z.string().refine(isBareOrigin).default('https://fcm.googleapis.com'),
  /** Issue 19: iOS pushes by APNs with a token-based (.p8) key; unset: no APNs. */
  APNS_KEY_FILE: z.string().optional(),
  APNS_KEY_ID: z
    .string()
    .regex(/^[A-Z0-9]{10}$/)
    .optional(),
  APNS_TEAM_ID: z
    .string()
    .regex(/^[A-Z0-9]{10}$/)
    .optional(),
  APNS_BUNDLE_ID: z
    .string()
    .regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/)
    .optional(),
  /** https://api.push.apple.com (the default) or https://api.sandbox.push.apple.com for development builds. */
  APNS_HOST: z.string().refine(isBareOrigin).default('https://api.push.apple.com'),
  /**
   * Issue 35 §5: the bearer token a Prometheus scraper sends to GET /metrics (http/metrics.ts); unset: /metrics is a
   * 404 and nothing is collected. Long enough not to be guessed, and safe in a header (no spaces).
   */
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,512}$/)
    .optional(),
  /**
   * Issue 35 §1: the server writes a backup (npm run backup's file) into this folder once a day (backup/nightly.ts);
   * unset: no nightly backup.
   */
  BACKUP_DIR: z.string().optional(),
  /** How many nightly backups BACKUP_DIR keeps: older ones are removed after each new one. */
  BACKUP_KEEP: wholeNumber(1, 3650).default(7),
  /**
   * Issue 29 §14: the key that seals the secrets the server must read back (webhook signing secrets;
   * security/sealing.ts): 32 bytes as base64 or hex. Required in production; elsewhere, unset, a key is kept in
   * DATA_DIR/secrets.key (security/secrets-key.ts).
   */
  SECRETS_KEY: z
    .string()
    .refine((v) => parseSecretsKey(v) !== null)
    .optional(),
});
type EnvName = keyof typeof Env.shape;

/** What each variable must be, for the one-line error (README "Configuration" has the meanings). */
const EXPECTED: Record<EnvName, string> = {
  NODE_ENV: 'must be development, production or test',
  PORT: 'must be a whole number from 0 to 65535',
  HOST: 'must be an address to listen on',
  DATA_DIR: 'must be a folder',
  DATABASE_URL:
    'must be a PostgreSQL address such as postgres://user:password@host:5432/carecompliance (leave it unset or empty for the embedded database)',
  APP_URL: 'must be an http:// or https:// address such as https://training.example.com',
  CORS_ORIGINS: 'must be a comma-separated list of origins such as https://app.example.com',
  MOBILE_ORIGINS:
    'must be none or a comma-separated list of origins such as capacitor://localhost,https://localhost',
  TRUST_PROXY:
    'must be true, false, or comma-separated proxy addresses or CIDR ranges such as 10.0.0.0/8,127.0.0.1',
  SMTP_HOST: 'must be a host name',
  SMTP_PORT: 'must be a whole number from 1 to 65535',
  SMTP_USER: 'must be a user name',
  SMTP_PASSWORD: 'must be a password',
  SMTP_SECURE: 'must be true or false',
  MAIL_FROM: 'must be a sender such as CareCompliance <no-reply@example.com>',
  OUTBOX_SHOW_LINKS: 'must be true or false',
  SESSION_LIFETIME_MINUTES: 'must be a whole number of minutes, at least 5',
  SESSION_ABSOLUTE_LIFETIME_HOURS: 'must be a whole number of hours from 1 to 8784',
  TOKEN_LIFETIME_DAYS: 'must be a whole number of days from 1 to 3660',
  SEED_DEMO: 'must be true or false',
  LOG_LEVEL: 'must be fatal, error, warn, info, debug, trace or silent',
  COOKIE_SECURE: 'must be auto, true or false',
  ACTOR_CACHE_MS: 'must be a whole number of milliseconds from 0 to 60000',
  EMBEDDED_ENGINE: 'must be auto, postgres or pglite',
  DATABASE_POOL_SIZE: 'must be a whole number from 1 to 1000',
  DATABASE_SIGN_IN_POOL_SIZE: 'must be a whole number from 1 to 100',
  PGLITE_SHARED_BUFFERS: 'must be a size such as 32MB (a whole number followed by kB, MB or GB)',
  PACKAGE_MAX_BYTES: 'must be a whole number of bytes above 0',
  PACKAGE_MAX_UNCOMPRESSED_BYTES: 'must be a whole number of bytes above 0',
  PACKAGE_MAX_ENTRIES: 'must be a whole number above 0',
  PACKAGE_MAX_RATIO: 'must be a whole number above 0',
  PACKAGE_ORIGIN:
    'must be an origin of its own such as https://packages.example.com (scheme, host and port only; not the APP_URL origin)',
  SHUTDOWN_TIMEOUT_SECONDS: 'must be a whole number of seconds from 1 to 3600',
  JOB_RECLAIM_AFTER_SECONDS: 'must be a whole number of seconds from 1 to 3600',
  HELPDESK_FRAME_ANCESTORS:
    "must be https origins (a leading *. allowed) or 'self', separated by spaces or commas, such as https://secure.helpscout.net",
  S3_BUCKET:
    'must be an S3 bucket name (3 to 63 lower-case letters, digits, dots and dashes), and is needed by every other S3_ setting',
  S3_REGION: 'must be a region such as eu-west-2',
  S3_ENDPOINT: 'must be an http:// or https:// address such as http://127.0.0.1:9000',
  S3_FORCE_PATH_STYLE: 'must be true or false',
  S3_ACCESS_KEY_ID: 'must be set together with S3_SECRET_ACCESS_KEY',
  S3_SECRET_ACCESS_KEY: 'must be set together with S3_ACCESS_KEY_ID',
  PASSWORD_HASHING: 'must be standard or fast, and standard in production (fast is for the test suites)',
  WEBHOOKS_ALLOW_PRIVATE:
    'must be true or false, and false in production (it lets webhooks reach private networks)',
  S3_PREFIX: 'must be a folder path inside the bucket such as carecompliance/production',
  SENTRY_DSN: 'must be a Sentry DSN such as https://public-key@o0.ingest.sentry.io/123',
  SENTRY_BROWSER_DSN: 'must be a Sentry DSN such as https://public-key@o0.ingest.sentry.io/456',
  ANALYTICS_MEASUREMENT_ID: 'must be a measurement id such as G-ABC123XYZ',
  ANALYTICS_REQUIRES_CONSENT: 'must be true or false',
  FCM_PROJECT_ID: 'must be a Firebase project id such as carecompliance-12345, set with a service account',
  FCM_SERVICE_ACCOUNT_FILE:
    'must be a readable Firebase service account JSON key file (with client_email and private_key), and needs FCM_PROJECT_ID',
  FCM_SERVICE_ACCOUNT_JSON:
    'must be a Firebase service account JSON key (with client_email and private_key), and needs FCM_PROJECT_ID',
  FCM_TOKEN_URL: 'must be an http:// or https:// address',
  FCM_API_URL: 'must be an origin such as https://fcm.googleapis.com',
  APNS_KEY_FILE:
    'must be a readable APNs .p8 key file, set together with APNS_KEY_ID, APNS_TEAM_ID and APNS_BUNDLE_ID',
  APNS_KEY_ID: 'must be the 10-character APNs key id, set together with APNS_KEY_FILE',
  APNS_TEAM_ID: 'must be the 10-character Apple team id, set together with APNS_KEY_FILE',
  APNS_BUNDLE_ID:
    'must be the app bundle id such as com.example.carecompliance, set together with APNS_KEY_FILE',
  APNS_HOST: 'must be an origin such as https://api.push.apple.com',
  METRICS_TOKEN: 'must be 16 to 512 characters without spaces, such as the output of openssl rand -hex 32',
  BACKUP_DIR: 'must be a folder for the nightly backups',
  BACKUP_KEEP: 'must be a whole number of backups to keep, from 1 to 3650',
  SECRETS_KEY:
    'must be 32 random bytes written as base64 or hex, such as the output of openssl rand -base64 32',
};

/** The one line for a production server started without SECRETS_KEY. */
const SECRETS_KEY_REQUIRED =
  'is required in production: it seals the webhook signing secrets. Make one with openssl rand -base64 32, give every server process the same one, and keep it apart from the backups';

/**
 * A configuration the server cannot start with. Its message is one line per wrong variable, naming it and what
 * it must be (never its value: it may be a password); main.ts prints it and exits with status 1.
 */
export class ConfigError extends Error {
  /** `reasons`: a more precise line for a variable than EXPECTED's (a rule between two variables). */
  constructor(
    readonly variables: string[],
    reasons: Partial<Record<string, string>> = {},
  ) {
    super(
      variables
        .map(
          (name) =>
            `Configuration error: ${name} ${reasons[name] ?? EXPECTED[name as EnvName] ?? 'is not valid'}.`,
        )
        .join('\n'),
    );
    this.name = 'ConfigError';
  }
}

/**
 * The variables we read, with set-but-empty ones left out: `DATABASE_URL=` in an .env file means "not set" (the
 * embedded database), and so does an empty value for every other variable (its default applies).
 */
function presentVariables(source: NodeJS.ProcessEnv): Record<string, string> {
  const present: Record<string, string> = {};
  for (const name of Object.keys(Env.shape)) {
    const value = source[name];
    if (value !== undefined && value.trim() !== '') present[name] = value;
  }
  return present;
}

export function parseEnv(source: NodeJS.ProcessEnv) {
  const parsed = Env.safeParse(presentVariables(source));
  if (!parsed.success) {
    const names = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? 'environment')))];
    throw new ConfigError(names);
  }
  return parsed.data;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  appUrl: string;
  corsOrigins: string[];
  /** The mobile shell's origins: CORS without credentials (bearer requests only). */
  mobileOrigins: string[];
  /** Fastify trustProxy: which proxies' X-Forwarded-For to believe (false: none, the client address is the peer). */
  trustProxy: boolean | string[];
  smtp?: { host: string; port: number; user?: string; password?: string; secure: boolean };
  mailFrom: string;
  /** The outbox view shows links whole instead of masking their secrets (browser tests only). */
  outboxShowLinks: boolean;
  sessionLifetimeMinutes: number;
  sessionAbsoluteLifetimeHours: number;
  tokenLifetimeDays: number;
  /** The cost of new password hashes (auth/passwords.ts): `fast` only in the test suites, never in production. */
  passwordHashing: 'standard' | 'fast';
  /** The demo organisation on an empty database; in production only when SEED_DEMO=true says so. */
  seedDemo: boolean;
  logLevel: string;
  cookieSecure: boolean;
  actorCacheMs: number;
  databasePoolSize: number;
  /** The sign-in lane's own connections (DATABASE_SIGN_IN_POOL_SIZE), besides databasePoolSize. */
  databaseSignInPoolSize: number;
  pgliteSharedBuffers: string;
  /** Which embedded database runs without DATABASE_URL (auto: PostgreSQL binaries when they can run, else PGlite). */
  embeddedEngine: 'auto' | 'postgres' | 'pglite';
  /** Origin package files are served from (no trailing slash); undefined: the opaque sandbox on the app's host. */
  packageOrigin?: string;
  /** CSP frame-ancestors of the help-desk pages (http/security-headers.ts); empty: nobody may frame them. */
  helpdeskFrameAncestors: string[];
  /** The bound on a graceful shutdown's wait (http/shutdown.ts). */
  shutdownTimeoutSeconds: number;
  /**
   * Caps every job's timeout, after which a running job is claimed again (jobs/queue.ts); undefined: each job's own.
   * Tests that kill a process set it to a few seconds; a live job running longer would then run twice.
   */
  jobReclaimAfterSeconds?: number;
  /** Uploaded files in an S3-compatible bucket; undefined: local disk under DATA_DIR/files. */
  s3?: S3Settings;
  /** Webhook endpoints may be loopback or private addresses (tests and local development only, never production). */
  webhooksAllowPrivate: boolean;
  /** Error reporting (system/error-reporting.ts, docs/error-reporting.md "Error reporting and analytics"); undefined: off. */
  sentryDsn?: string;
  sentryBrowserDsn?: string;
  /** Page-view analytics in the web app; undefined: off. */
  analytics?: { measurementId: string; requiresConsent: boolean };
  /** Push notifications (push/, README "Push notifications"); a platform left out is not pushed to. */
  push: PushSettings;
  /** The bearer token of GET /metrics (http/metrics.ts); undefined: /metrics is a 404. */
  metricsToken?: string;
  /** The nightly backup (backup/nightly.ts): its folder and how many it keeps; undefined: none. */
  backup?: { dir: string; keep: number };
  /**
   * SECRETS_KEY's 32 bytes (never logged); undefined outside production without it: openDeps then keeps a key in
   * DATA_DIR/secrets.key (security/secrets-key.ts).
   */
  secretsKey?: Buffer;
}

/** FCM and APNs credentials, read from the environment at start (never from the repository). */
export interface PushSettings {
  fcm?: {
    projectId: string;
    clientEmail: string;
    privateKey: string;
    tokenUrl: string;
    apiUrl: string;
  };
  apns?: { key: string; keyId: string; teamId: string; bundleId: string; host: string };
}

/** S3_* settings (docs/file-storage.md "File storage"). The secret is never logged nor printed (ConfigError names, never values). */
export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Without a trailing '/'; '' for the bucket's root. */
  prefix: string;
}

/** The S3 settings, or undefined without S3_BUCKET; a setting without the bucket, or half the keys, is refused. */
function s3Settings(env: ReturnType<typeof parseEnv>): S3Settings | undefined {
  const wrong: string[] = [];
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY))
    wrong.push(env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID');
  const others = [env.S3_ENDPOINT, env.S3_FORCE_PATH_STYLE, env.S3_ACCESS_KEY_ID, env.S3_PREFIX];
  if (!env.S3_BUCKET && others.some((v) => v !== undefined)) wrong.unshift('S3_BUCKET');
  if (wrong.length) throw new ConfigError(wrong);
  if (!env.S3_BUCKET) return undefined;
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT?.replace(/\/$/, ''),
    // Self-hosted servers (MinIO and the like) answer on one host name: path-style unless told otherwise.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : Boolean(env.S3_ENDPOINT),
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    prefix: env.S3_PREFIX?.replace(/\/$/, '') ?? '',
  };
}

/** FCM service account JSON with what the OAuth2 JWT needs, or null. */
function serviceAccount(
  json: string,
): { client_email: string; private_key: string; token_uri?: string } | null {
  try {
    const v = JSON.parse(json) as Record<string, unknown>;
    if (typeof v.client_email !== 'string' || typeof v.private_key !== 'string') return null;
    createPrivateKey(v.private_key);
    return {
      client_email: v.client_email,
      private_key: v.private_key,
      token_uri: typeof v.token_uri === 'string' ? v.token_uri : undefined,
    };
  } catch {
    return null;
  }
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function fcmSettings(env: ReturnType<typeof parseEnv>): PushSettings['fcm'] {
  const source = env.FCM_SERVICE_ACCOUNT_FILE ? 'FCM_SERVICE_ACCOUNT_FILE' : 'FCM_SERVICE_ACCOUNT_JSON';
  const json = env.FCM_SERVICE_ACCOUNT_FILE
    ? readText(env.FCM_SERVICE_ACCOUNT_FILE)
    : (env.FCM_SERVICE_ACCOUNT_JSON ?? null);
  if (!env.FCM_PROJECT_ID && json === null && !env.FCM_SERVICE_ACCOUNT_FILE) return undefined;
  if (!env.FCM_PROJECT_ID) throw new ConfigError(['FCM_PROJECT_ID']);
  const account = json === null ? null : serviceAccount(json);
  if (!account) throw new ConfigError([source]);
  return {
    projectId: env.FCM_PROJECT_ID,
    clientEmail: account.client_email,
    privateKey: account.private_key,
    tokenUrl: env.FCM_TOKEN_URL ?? account.token_uri ?? 'https://oauth2.googleapis.com/token',
    apiUrl: env.FCM_API_URL.replace(/\/$/, ''),
  };
}

function apnsSettings(env: ReturnType<typeof parseEnv>): PushSettings['apns'] {
  const parts = {
    APNS_KEY_FILE: env.APNS_KEY_FILE,
    APNS_KEY_ID: env.APNS_KEY_ID,
    APNS_TEAM_ID: env.APNS_TEAM_ID,
    APNS_BUNDLE_ID: env.APNS_BUNDLE_ID,
  };
  const missing = Object.entries(parts).filter(([, v]) => !v);
  if (missing.length === 4) return undefined;
  if (missing.length) throw new ConfigError(missing.map(([name]) => name));
  const key = readText(env.APNS_KEY_FILE as string);
  if (key === null || !isPrivateKey(key)) throw new ConfigError(['APNS_KEY_FILE']);
  return {
    key,
    keyId: env.APNS_KEY_ID as string,
    teamId: env.APNS_TEAM_ID as string,
    bundleId: env.APNS_BUNDLE_ID as string,
    host: env.APNS_HOST.replace(/\/$/, ''),
  };
}

function isPrivateKey(pem: string): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

/**
 * The package origin when none is configured: on a machine of its own (APP_URL on localhost or a loopback address)
 * packages.localhost on the same port, which browsers resolve to this machine; elsewhere none (the opaque sandbox),
 * because a learner's browser cannot reach the server as *.localhost.
 */
export function localPackageOrigin(appUrl: string): string | undefined {
  const url = new URL(appUrl);
  if (!['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return undefined;
  return `${url.protocol}//packages.localhost${url.port ? `:${url.port}` : ''}`;
}

/** A host name the browser keeps on this machine: localhost, *.localhost and loopback addresses. */
const isLocalhostStyle = (hostname: string) =>
  hostname === 'localhost' || hostname.endsWith('.localhost') || /^127\.|^\[::1\]$/.test(hostname);

/**
 * The registrable domain ("site") a host's cookies can be set for, by the Public Suffix List (private section
 * included, as browsers use it: one github.io page cannot set cookies for another); an address or a single label is
 * its own site.
 */
const siteOf = (hostname: string) => getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;

/**
 * Why the package origin cannot be used beside this APP_URL (issue 29 §1), or null. Package content on the app's
 * origin is what the package origin exists to prevent; on the app's host name at another port it shares the app's
 * cookies (cookies ignore ports). On the app's site without Secure cookies a package could toss cookies: plain http
 * cannot have the __Host- cookies that stop it (http/cookies.ts), so a sibling subdomain is refused there unless it
 * is localhost-style (local use).
 */
function packageOriginConflict(packageOrigin: string, appUrl: string, cookieSecure: boolean): string | null {
  const pkg = new URL(packageOrigin);
  const app = new URL(appUrl);
  if (pkg.origin === app.origin) return EXPECTED.PACKAGE_ORIGIN;
  if (pkg.hostname === app.hostname)
    return 'must be on another host name than APP_URL (cookies are shared across ports)';
  if (!cookieSecure && !isLocalhostStyle(pkg.hostname) && siteOf(pkg.hostname) === siteOf(app.hostname))
    return `must not share APP_URL's domain (${siteOf(app.hostname)}) while APP_URL is plain http: a package could set the app's cookies. Use https for APP_URL, or a package host on another domain (docs/package-content.md "Cookies and the package origin")`;
  return null;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const env = parseEnv(source);
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR);
  const port = overrides.port ?? env.PORT;
  const appUrl = (overrides.appUrl ?? env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  const cookieSecure =
    env.COOKIE_SECURE === 'auto' ? appUrl.startsWith('https://') : env.COOKIE_SECURE === 'true';
  const conflict = env.PACKAGE_ORIGIN && packageOriginConflict(env.PACKAGE_ORIGIN, appUrl, cookieSecure);
  if (conflict) throw new ConfigError(['PACKAGE_ORIGIN'], { PACKAGE_ORIGIN: conflict });
  const webhooksAllowPrivate = ['true', '1'].includes(env.WEBHOOKS_ALLOW_PRIVATE);
  // SSRF: the test and development escape hatch must not reach a production server.
  if (webhooksAllowPrivate && env.NODE_ENV === 'production')
    throw new ConfigError(['WEBHOOKS_ALLOW_PRIVATE']);
  if (env.PASSWORD_HASHING === 'fast' && env.NODE_ENV === 'production')
    throw new ConfigError(['PASSWORD_HASHING']);
  // Issue 29 §14: a key made on the machine would be lost with DATA_DIR, and differ between processes.
  if (!env.SECRETS_KEY && env.NODE_ENV === 'production')
    throw new ConfigError(['SECRETS_KEY'], { SECRETS_KEY: SECRETS_KEY_REQUIRED });
  return {
    env: env.NODE_ENV,
    port,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    appUrl,
    corsOrigins: env.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    mobileOrigins: env.MOBILE_ORIGINS.trim() === 'none' ? [] : originList(env.MOBILE_ORIGINS),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    smtp: env.SMTP_HOST
      ? {
          host: env.SMTP_HOST,
          port: env.SMTP_PORT,
          user: env.SMTP_USER,
          password: env.SMTP_PASSWORD,
          secure: env.SMTP_SECURE === 'true',
        }
      : undefined,
    mailFrom: env.MAIL_FROM,
    outboxShowLinks: env.OUTBOX_SHOW_LINKS === 'true',
    sessionLifetimeMinutes: env.SESSION_LIFETIME_MINUTES,
    sessionAbsoluteLifetimeHours: env.SESSION_ABSOLUTE_LIFETIME_HOURS,
    tokenLifetimeDays: env.TOKEN_LIFETIME_DAYS,
    passwordHashing: env.PASSWORD_HASHING,
    seedDemo: env.SEED_DEMO ? env.SEED_DEMO === 'true' : env.NODE_ENV !== 'production',
    logLevel: env.LOG_LEVEL,
    cookieSecure,
    actorCacheMs: env.ACTOR_CACHE_MS ?? (env.NODE_ENV === 'test' ? 0 : 30_000),
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseSignInPoolSize: env.DATABASE_SIGN_IN_POOL_SIZE,
    pgliteSharedBuffers: env.PGLITE_SHARED_BUFFERS,
    embeddedEngine: env.EMBEDDED_ENGINE,
    packageOrigin: env.PACKAGE_ORIGIN?.replace(/\/$/, '') ?? localPackageOrigin(appUrl),
    shutdownTimeoutSeconds: env.SHUTDOWN_TIMEOUT_SECONDS,
    jobReclaimAfterSeconds: env.JOB_RECLAIM_AFTER_SECONDS,
    helpdeskFrameAncestors: env.HELPDESK_FRAME_ANCESTORS
      ? frameAncestorList(env.HELPDESK_FRAME_ANCESTORS)
      : [],
    s3: s3Settings(env),
    webhooksAllowPrivate,
    sentryDsn: env.SENTRY_DSN,
    sentryBrowserDsn: env.SENTRY_BROWSER_DSN,
    analytics: env.ANALYTICS_MEASUREMENT_ID
      ? {
          measurementId: env.ANALYTICS_MEASUREMENT_ID,
          requiresConsent: env.ANALYTICS_REQUIRES_CONSENT === 'true',
        }
      : undefined,
    push: { fcm: fcmSettings(env), apns: apnsSettings(env) },
    metricsToken: env.METRICS_TOKEN,
    backup: env.BACKUP_DIR ? { dir: path.resolve(env.BACKUP_DIR), keep: env.BACKUP_KEEP } : undefined,
    secretsKey: env.SECRETS_KEY ? (parseSecretsKey(env.SECRETS_KEY) ?? undefined) : undefined,
    ...overrides,
  };
}
