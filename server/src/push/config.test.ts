import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';

/**
 * Push settings from the environment (issue 19): credentials come from files (or, for FCM, a JSON value) named by
 * variables, read and checked at start; a half-configured platform stops the start naming what is missing, and
 * nothing set means push is off. Keys are made here, per run.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'push-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
});
const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({
  type: 'pkcs8',
  format: 'pem',
});
const account = JSON.stringify({
  type: 'service_account',
  client_email: 'push@demo-project.iam.gserviceaccount.com',
  private_key: rsa.toString(),
  token_uri: 'https://oauth2.googleapis.com/token',
});
const accountFile = path.join(dir, 'service-account.json');
const p8 = path.join(dir, 'AuthKey_KEY1234567.p8');
writeFileSync(accountFile, account);
writeFileSync(p8, ec);
const APNS = {
  APNS_KEY_FILE: p8,
  APNS_KEY_ID: 'KEY1234567',
  APNS_TEAM_ID: 'TEAM123456',
  APNS_BUNDLE_ID: 'com.example.app',
};

const variablesOf = (env: NodeJS.ProcessEnv) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.variables;
  }
  throw new Error('expected a ConfigError');
};

describe('push settings', () => {
  it('are off when nothing is set', () => {
    expect(loadConfig({}).push).toEqual({ fcm: undefined, apns: undefined });
  });

  it('read FCM from a key file or a JSON value, and APNs from its .p8 key', () => {
    const fromFile = loadConfig({
      FCM_PROJECT_ID: 'demo-project',
      FCM_SERVICE_ACCOUNT_FILE: accountFile,
      ...APNS,
    });
    expect(fromFile.push.fcm).toMatchObject({
      projectId: 'demo-project',
      clientEmail: 'push@demo-project.iam.gserviceaccount.com',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      apiUrl: 'https://fcm.googleapis.com',
    });
    expect(fromFile.push.apns).toMatchObject({
      keyId: 'KEY1234567',
      teamId: 'TEAM123456',
      bundleId: 'com.example.app',
      host: 'https://api.push.apple.com',
    });
    const fromJson = loadConfig({
      FCM_PROJECT_ID: 'demo-project',
      FCM_SERVICE_ACCOUNT_JSON: account,
      FCM_TOKEN_URL: 'http://127.0.0.1:9/token',
    });
    expect(fromJson.push.fcm?.tokenUrl).toBe('http://127.0.0.1:9/token');
    expect(fromJson.push.apns).toBeUndefined();
  });

  it('refuse half a platform, a missing file or a key that is not one, naming the variable and never the value', () => {
    expect(variablesOf({ FCM_PROJECT_ID: 'demo-project' })).toEqual(['FCM_SERVICE_ACCOUNT_JSON']);
    expect(variablesOf({ FCM_SERVICE_ACCOUNT_FILE: accountFile })).toEqual(['FCM_PROJECT_ID']);
    expect(
      variablesOf({
        FCM_PROJECT_ID: 'demo-project',
        FCM_SERVICE_ACCOUNT_FILE: path.join(dir, 'missing.json'),
      }),
    ).toEqual(['FCM_SERVICE_ACCOUNT_FILE']);
    expect(
      variablesOf({ FCM_PROJECT_ID: 'demo-project', FCM_SERVICE_ACCOUNT_JSON: '{"client_email":"x"}' }),
    ).toEqual(['FCM_SERVICE_ACCOUNT_JSON']);
    expect(variablesOf({ APNS_KEY_FILE: p8, APNS_KEY_ID: 'KEY1234567' })).toEqual([
      'APNS_TEAM_ID',
      'APNS_BUNDLE_ID',
    ]);
    expect(variablesOf({ ...APNS, APNS_KEY_FILE: accountFile })).toEqual(['APNS_KEY_FILE']);
    expect(variablesOf({ ...APNS, APNS_KEY_ID: 'short' })).toEqual(['APNS_KEY_ID']);
    try {
      loadConfig({
        FCM_PROJECT_ID: 'demo-project',
        FCM_SERVICE_ACCOUNT_JSON: '{"private_key":"secret-value"}',
      });
    } catch (error) {
      expect(String(error)).not.toContain('secret-value');
    }
  });
});
