import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serverProgram } from '../test/server-program';
import { ConfigError, loadConfig, parseEnv } from './config';

/**
 * The configuration parser (issue 10 §5): a variable set but empty (`DATABASE_URL=` in an .env file) is unset, and a
 * wrong value stops the start with one clear line naming the variable, never a raw ZodError.
 */
const OPTIONAL = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'APP_URL',
  'CORS_ORIGINS',
  'MOBILE_ORIGINS',
  'TRUST_PROXY',
  'SMTP_HOST',
  'SMTP_PORT',
  'SMTP_USER',
  'SMTP_PASSWORD',
  'SMTP_SECURE',
  'MAIL_FROM',
  'SESSION_LIFETIME_MINUTES',
  'SESSION_ABSOLUTE_LIFETIME_HOURS',
  'TOKEN_LIFETIME_DAYS',
  'SEED_DEMO',
  'LOG_LEVEL',
  'COOKIE_SECURE',
  'ACTOR_CACHE_MS',
  'DATABASE_SIGN_IN_POOL_SIZE',
  'PGLITE_SHARED_BUFFERS',
  'PACKAGE_MAX_BYTES',
  'PACKAGE_MAX_UNCOMPRESSED_BYTES',
  'PACKAGE_MAX_ENTRIES',
  'PACKAGE_MAX_RATIO',
  'SHUTDOWN_TIMEOUT_SECONDS',
  'JOB_RECLAIM_AFTER_SECONDS',
  'HELPDESK_FRAME_ANCESTORS',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_PREFIX',
  'METRICS_TOKEN',
  'SECRETS_KEY',
];

const errorOf = (env: NodeJS.ProcessEnv): ConfigError => {
  try {
    parseEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('empty means unset', () => {
  it('PACKAGE_ORIGIN: as set; by default packages.localhost on a local APP_URL, none elsewhere', () => {
    expect(loadConfig({ PACKAGE_ORIGIN: 'https://pk.example.com/' }).packageOrigin).toBe(
      'https://pk.example.com',
    );
    expect(loadConfig({ PORT: '3000' }).packageOrigin).toBe('http://packages.localhost:3000');
    expect(loadConfig({ APP_URL: 'http://127.0.0.1:4000' }).packageOrigin).toBe(
      'http://packages.localhost:4000',
    );
    expect(loadConfig({ APP_URL: 'https://training.example.com' }).packageOrigin).toBeUndefined();
    // Package content on the app's own origin is what the package origin prevents.
    expect(() => loadConfig({ PACKAGE_ORIGIN: 'http://localhost:3000' })).toThrow(/PACKAGE_ORIGIN/);
  });

  it('DATABASE_SIGN_IN_POOL_SIZE: the sign-in lane beside the main pool (issue 36 §2)', () => {
    expect(loadConfig({ DATABASE_SIGN_IN_POOL_SIZE: '4', DATABASE_POOL_SIZE: '12' })).toMatchObject({
      databaseSignInPoolSize: 4,
      databasePoolSize: 12,
    });
  });

  it('DATABASE_URL= selects the embedded database', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: '   ' }).databaseUrl).toBeUndefined();
  });

  it.each(OPTIONAL)('%s= (empty) gives the same configuration as %s unset', (name) => {
    expect(loadConfig({ [name]: '' })).toEqual(loadConfig({}));
  });

  it('every variable empty at once still starts with the defaults', () => {
    const config = loadConfig(Object.fromEntries(OPTIONAL.map((n) => [n, ''])));
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      appUrl: 'http://localhost:3000',
      corsOrigins: [],
      smtp: undefined,
      sessionLifetimeMinutes: 120,
      sessionAbsoluteLifetimeHours: 12,
      tokenLifetimeDays: 30,
      seedDemo: true,
      logLevel: 'info',
      cookieSecure: false,
      actorCacheMs: 30_000,
      databasePoolSize: 30,
      databaseSignInPoolSize: 2,
      pgliteSharedBuffers: '32MB',
      shutdownTimeoutSeconds: 10,
      jobReclaimAfterSeconds: undefined,
    });
  });

  it('set values are used', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://cc:secret@db.example:5432/cc',
      PORT: '8080',
      APP_URL: 'https://training.example.com/',
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com',
      SMTP_HOST: 'smtp.example.com',
      SMTP_SECURE: 'true',
      SHUTDOWN_TIMEOUT_SECONDS: '30',
      JOB_RECLAIM_AFTER_SECONDS: '5',
    });
    expect(config).toMatchObject({
      shutdownTimeoutSeconds: 30,
      jobReclaimAfterSeconds: 5,
      databaseUrl: 'postgres://cc:secret@db.example:5432/cc',
      port: 8080,
      appUrl: 'https://training.example.com',
      corsOrigins: ['https://a.example.com', 'https://b.example.com'],
      smtp: { host: 'smtp.example.com', port: 587, secure: true },
      cookieSecure: true,
    });
  });
});

describe('TRUST_PROXY (issue 11 §5)', () => {
  it('trusts no proxy unless set: X-Forwarded-For is then ignored', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('takes true, or proxy addresses and CIDR ranges as Fastify does', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1 ,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
  });
});

describe('HELPDESK_FRAME_ANCESTORS (issue 14)', () => {
  it('is empty unless set, and takes https origins (with *.) and self, by spaces or commas', () => {
    expect(loadConfig({}).helpdeskFrameAncestors).toEqual([]);
    expect(
      loadConfig({ HELPDESK_FRAME_ANCESTORS: "https://secure.helpscout.net, https://*.example.com 'self'" })
        .helpdeskFrameAncestors,
    ).toEqual(['https://secure.helpscout.net', 'https://*.example.com', "'self'"]);
  });
});

describe('METRICS_TOKEN (issue 35 §5)', () => {
  it('is unset by default (no /metrics), and taken as given', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'f00dcafe'.repeat(4) }).metricsToken).toBe('f00dcafe'.repeat(4));
  });
});

/** A production environment: SECRETS_KEY is required there (issue 29 §14). */
const PRODUCTION = { NODE_ENV: 'production', SECRETS_KEY: randomBytes(32).toString('base64') };

describe('SECRETS_KEY (issue 29 §14)', () => {
  const loadError = (env: NodeJS.ProcessEnv): ConfigError => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error;
      throw error;
    }
    throw new Error('expected a ConfigError');
  };

  it('is required in production, in one line naming it and how to make one', () => {
    const error = loadError({ NODE_ENV: 'production' });
    expect(error.variables).toEqual(['SECRETS_KEY']);
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message).toMatch(/^Configuration error: SECRETS_KEY is required in production: /);
    expect(error.message).toContain('openssl rand -base64 32');
  });

  it('is 32 bytes as base64 or hex; unset elsewhere (a key kept in DATA_DIR then)', () => {
    const key = randomBytes(32);
    expect(loadConfig({ ...PRODUCTION, SECRETS_KEY: key.toString('base64') }).secretsKey?.equals(key)).toBe(
      true,
    );
    expect(loadConfig({ SECRETS_KEY: key.toString('hex') }).secretsKey?.equals(key)).toBe(true);
    expect(loadConfig({}).secretsKey).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test' }).secretsKey).toBeUndefined();
    const wrong = loadError({ NODE_ENV: 'production', SECRETS_KEY: randomBytes(16).toString('base64') });
    expect(wrong.message).toBe(
      'Configuration error: SECRETS_KEY must be 32 random bytes written as base64 or hex, such as the output of openssl rand -base64 32.',
    );
  });

  it('the production server refuses to start without it, before touching any database', () => {
    const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const run = spawnSync(process.execPath, serverProgram(), {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'production',
        DATA_DIR: '/nonexistent/never-created',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^Configuration error: SECRETS_KEY is required in production: .*openssl rand -base64 32/,
    );
    expect(run.stdout).toBe('');
  }, 60_000);
});

describe('SEED_DEMO (issue 29 §2)', () => {
  it('seeds the demo on a developer machine by default, never in production unless asked', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).seedDemo).toBe(true);
    expect(loadConfig(PRODUCTION).seedDemo).toBe(false);
    expect(loadConfig({ ...PRODUCTION, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });
});

describe('PACKAGE_ORIGIN beside APP_URL: no cookie tossing (issue 29 §1)', () => {
  const loadError = (env: NodeJS.ProcessEnv): ConfigError => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error;
      throw error;
    }
    throw new Error('expected a ConfigError');
  };

  it('refuses a sibling subdomain on plain http, in one line saying why', () => {
    const error = loadError({
      APP_URL: 'http://app.example.com',
      PACKAGE_ORIGIN: 'http://packages.example.com',
    });
    expect(error.variables).toEqual(['PACKAGE_ORIGIN']);
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message).toContain(
      "must not share APP_URL's domain (example.com) while APP_URL is plain http",
    );
    // The registrable domain comes from the Public Suffix List, not the last two labels.
    expect(() =>
      loadConfig({ APP_URL: 'http://app.care.co.uk', PACKAGE_ORIGIN: 'http://packages.care.co.uk' }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig({ APP_URL: 'http://example.com', PACKAGE_ORIGIN: 'http://packages.example.com' }),
    ).toThrow(ConfigError);
  });

  it('refuses the app host name at another port, on http and https (cookies ignore ports)', () => {
    for (const scheme of ['http', 'https'])
      expect(
        loadError({
          APP_URL: `${scheme}://app.example.com`,
          PACKAGE_ORIGIN: `${scheme}://app.example.com:8443`,
        }).message,
      ).toContain('cookies are shared across ports');
  });

  it('takes a sibling subdomain on https (__Host- cookies), another domain, or a localhost-style host', () => {
    const origin = (env: NodeJS.ProcessEnv) => loadConfig(env).packageOrigin;
    expect(
      origin({ APP_URL: 'https://app.example.com', PACKAGE_ORIGIN: 'https://packages.example.com' }),
    ).toBe('https://packages.example.com');
    expect(origin({ APP_URL: 'http://app.example.com', PACKAGE_ORIGIN: 'http://example-packages.net' })).toBe(
      'http://example-packages.net',
    );
    // Private suffixes count as browsers count them: two github.io sites cannot set each other's cookies.
    expect(origin({ APP_URL: 'http://app.github.io', PACKAGE_ORIGIN: 'http://pk.github.io' })).toBe(
      'http://pk.github.io',
    );
    expect(
      origin({ APP_URL: 'http://app.localhost:3000', PACKAGE_ORIGIN: 'http://packages.localhost:3000' }),
    ).toBe('http://packages.localhost:3000');
    expect(origin({ APP_URL: 'http://127.0.0.1:3000' })).toBe('http://packages.localhost:3000');
  });

  it('refuses a sibling subdomain when COOKIE_SECURE=false makes the cookies plain on https too', () => {
    expect(() =>
      loadConfig({
        APP_URL: 'https://app.example.com',
        PACKAGE_ORIGIN: 'https://packages.example.com',
        COOKIE_SECURE: 'false',
      }),
    ).toThrow(/PACKAGE_ORIGIN must not share/);
  });
});

describe('a wrong value is one clear line naming the variable', () => {
  it.each([
    ['DATABASE_URL', 'not a url', 'must be a PostgreSQL address'],
    ['DATABASE_URL', 'mysql://root@localhost/cc', 'must be a PostgreSQL address'],
    ['PORT', 'eighty', 'must be a whole number from 0 to 65535'],
    ['PORT', '70000', 'must be a whole number from 0 to 65535'],
    ['APP_URL', 'training.example.com', 'must be an http:// or https:// address'],
    ['CORS_ORIGINS', 'https://ok.example.com,nope', 'must be a comma-separated list of origins'],
    ['MOBILE_ORIGINS', 'capacitor://localhost,*', 'must be none or a comma-separated list of origins'],
    ['NODE_ENV', 'staging', 'must be development, production or test'],
    ['SMTP_PORT', '0', 'must be a whole number from 1 to 65535'],
    ['SMTP_SECURE', 'yes', 'must be true or false'],
    ['SESSION_LIFETIME_MINUTES', '2', 'at least 5'],
    ['SEED_DEMO', '1', 'must be true or false'],
    ['LOG_LEVEL', 'verbose', 'must be fatal, error, warn, info, debug, trace or silent'],
    ['COOKIE_SECURE', 'maybe', 'must be auto, true or false'],
    ['ACTOR_CACHE_MS', '-1', 'from 0 to 60000'],
    ['DATABASE_SIGN_IN_POOL_SIZE', '0', 'must be a whole number from 1 to 100'],
    ['DATABASE_SIGN_IN_POOL_SIZE', '101', 'must be a whole number from 1 to 100'],
    ['PGLITE_SHARED_BUFFERS', '32', 'must be a size such as 32MB'],
    ['PACKAGE_MAX_BYTES', '200MB', 'must be a whole number of bytes above 0'],
    ['PACKAGE_MAX_ENTRIES', '0', 'must be a whole number above 0'],
    ['TRUST_PROXY', '2', 'must be true, false, or comma-separated proxy addresses'],
    ['TRUST_PROXY', '10.0.0.0/8,proxy.local', 'must be true, false, or comma-separated proxy addresses'],
    ['TRUST_PROXY', '10.0.0.0/33', 'must be true, false, or comma-separated proxy addresses'],
    ['PACKAGE_ORIGIN', 'https://packages.example.com/files', 'must be an origin of its own'],
    ['SHUTDOWN_TIMEOUT_SECONDS', '0', 'must be a whole number of seconds from 1 to 3600'],
    ['SHUTDOWN_TIMEOUT_SECONDS', '10s', 'must be a whole number of seconds from 1 to 3600'],
    ['JOB_RECLAIM_AFTER_SECONDS', '0', 'must be a whole number of seconds from 1 to 3600'],
    ['HELPDESK_FRAME_ANCESTORS', 'http://insecure.example.com', 'must be https origins'],
    ['HELPDESK_FRAME_ANCESTORS', "https://ok.example.com 'unsafe-inline'", 'must be https origins'],
    ['HELPDESK_FRAME_ANCESTORS', '*', 'must be https origins'],
    ['METRICS_TOKEN', 'short', 'must be 16 to 512 characters without spaces'],
    ['SECRETS_KEY', 'short', 'must be 32 random bytes written as base64 or hex'],
    ['SECRETS_KEY', 'ab'.repeat(31), 'must be 32 random bytes written as base64 or hex'],
    ['METRICS_TOKEN', 'a token with spaces in it', 'must be 16 to 512 characters without spaces'],
  ])('%s=%j', (name, value, expected) => {
    const error = errorOf({ [name]: value });
    expect(error.variables).toEqual([name]);
    expect(error.message).toContain(expected);
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message.startsWith(`Configuration error: ${name} `)).toBe(true);
  });

  it('never prints the value (it may be a password)', () => {
    const error = errorOf({ DATABASE_URL: 'mysql://root:hunter2@db/cc' });
    expect(error.message).not.toContain('hunter2');
  });

  it('several wrong variables give one line each', () => {
    const error = errorOf({ PORT: 'x', LOG_LEVEL: 'loud', DATABASE_URL: '' });
    expect(error.variables.sort()).toEqual(['LOG_LEVEL', 'PORT']);
    expect(error.message.split('\n')).toHaveLength(2);
  });
});

describe('the server process', () => {
  const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, serverProgram(), {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('exits 1 with the one line on a wrong setting, before touching any database', () => {
    const run = start({ PORT: 'eighty', DATA_DIR: '/nonexistent/never-created' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('Configuration error: PORT must be a whole number from 0 to 65535.');
    expect(run.stdout).toBe('');
  }, 60_000);

  it('refuses a sibling-subdomain package origin on plain http at start, in one line (issue 29 §1)', () => {
    const run = start({
      APP_URL: 'http://app.example.test',
      PACKAGE_ORIGIN: 'http://packages.example.test',
      DATA_DIR: '/nonexistent/never-created',
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^Configuration error: PACKAGE_ORIGIN must not share APP_URL's domain \(example\.test\)/,
    );
    expect(run.stdout).toBe('');
  }, 60_000);
});

describe('PASSWORD_HASHING (issue 27: the suites hash at the smallest cost)', () => {
  it('is standard unless set, and fast is refused in production', () => {
    expect(loadConfig({}).passwordHashing).toBe('standard');
    expect(loadConfig({ PASSWORD_HASHING: 'fast' }).passwordHashing).toBe('fast');
    expect(() => loadConfig({ ...PRODUCTION, PASSWORD_HASHING: 'fast' })).toThrow(/PASSWORD_HASHING/);
    expect(loadConfig(PRODUCTION).passwordHashing).toBe('standard');
  });
});
