// node --test: the native check finds what a project lacks (it runs in npm run build -w mobile).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { missingNativeEntries } from './check-native.mjs';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const plist = readFileSync(path.join(here, 'ios/App/App/Info.plist'), 'utf8');
const manifest = readFileSync(path.join(here, 'android/app/src/main/AndroidManifest.xml'), 'utf8');
const dependencies = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8')).dependencies;
const project = { dependencies, plist, manifest, pluginManifest: () => '' };

test('the projects as they are lack nothing', () => {
  const pluginManifest = () => '<uses-permission android:name="android.permission.ACCESS_NETWORK_STATE" />';
  assert.deepEqual(missingNativeEntries({ ...project, pluginManifest }), []);
});

test('an Info.plist without the camera description is refused (iOS would end the app on "Take Photo")', () => {
  const withoutCamera = plist.replace(/<key>NSCameraUsageDescription<\/key>\s*<string>[^<]*<\/string>/, '');
  const missing = missingNativeEntries({ ...project, plist: withoutCamera });
  assert.ok(
    missing.some((m) => m.includes('Info.plist lacks NSCameraUsageDescription')),
    missing.join('\n'),
  );
});

test('a manifest without POST_NOTIFICATIONS, and a plugin nobody wrote down, are refused', () => {
  const missing = missingNativeEntries({
    ...project,
    dependencies: { ...dependencies, '@capacitor/camera': '^8.0.0' },
    manifest: manifest.replace(
      /<uses-permission android:name="android.permission.POST_NOTIFICATIONS" \/>/,
      '',
    ),
  });
  assert.ok(
    missing.some((m) => m.includes('AndroidManifest.xml lacks android.permission.POST_NOTIFICATIONS')),
  );
  assert.ok(missing.some((m) => m.startsWith('@capacitor/camera: not in')));
});
