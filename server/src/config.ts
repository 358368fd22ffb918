import path from 'node:path';
import { z } from 'zod';

const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  APP_URL: z.string().url().optional(),
  /** Extra origins allowed to call the API with credentials (comma separated), for a separate web host. */
  CORS_ORIGINS: z.string().default(''),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().default(587),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  SMTP_SECURE: z.enum(['true', 'false']).default('false'),
  MAIL_FROM: z.string().default('CareCompliance <no-reply@carecompliance.local>'),
  SESSION_LIFETIME_MINUTES: z.coerce.number().int().min(5).default(120),
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  /** How long a caller (session/token → user and permissions) is remembered; 0 turns it off (the test default). */
  ACTOR_CACHE_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  /**
   * The embedded database's buffer cache (PostgreSQL shared_buffers inside PGlite's memory). PGlite's own 128MB
   * stays resident once a big report has read through it; pages past 32MB come from the OS file cache at no
   * measured cost (bench), and the server's memory is ~100 MB lower.
   */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, 'a size such as 32MB')
    .default('32MB'),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  appUrl: string;
  corsOrigins: string[];
  smtp?: { host: string; port: number; user?: string; password?: string; secure: boolean };
  mailFrom: string;
  sessionLifetimeMinutes: number;
  seedDemo: boolean;
  logLevel: string;
  cookieSecure: boolean;
  actorCacheMs: number;
  pgliteSharedBuffers: string;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const env = Env.parse(source);
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR);
  const port = overrides.port ?? env.PORT;
  const appUrl = (overrides.appUrl ?? env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
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
    sessionLifetimeMinutes: env.SESSION_LIFETIME_MINUTES,
    seedDemo: env.SEED_DEMO === 'true',
    logLevel: env.LOG_LEVEL,
    cookieSecure: env.COOKIE_SECURE === 'auto' ? appUrl.startsWith('https://') : env.COOKIE_SECURE === 'true',
    actorCacheMs: env.ACTOR_CACHE_MS ?? (env.NODE_ENV === 'test' ? 0 : 5000),
    pgliteSharedBuffers: env.PGLITE_SHARED_BUFFERS,
    ...overrides,
  };
}
