#!/usr/bin/env node
// Issue 31 §7: the native projects declare what the app's plugins and pages need, read from the files a device build
// uses (ios/App/App/Info.plist, android/app/src/main/AndroidManifest.xml). iOS ends an app that opens the camera or
// Face ID without its usage description, and Android 13 never shows a push without POST_NOTIFICATIONS; neither can be
// seen without a device, so this runs with every build of the shell (npm run build -w mobile, part of npm test).
// A new Capacitor plugin fails the check until its needs are written down here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * What each plugin (and the web pages' own features) needs on each platform: Info.plist keys with a non-empty string,
 * UIBackgroundModes entries, and Android permissions (declared by the app, or merged from the plugin's own manifest).
 */
export const NEEDS = {
  '@capacitor/app': {},
  '@capacitor/core': {},
  '@capacitor/cli': {},
  '@capacitor/android': {},
  '@capacitor/ios': {},
  '@capacitor/device': {},
  '@capacitor/filesystem': {},
  '@aparajita/capacitor-secure-storage': {},
  '@capacitor/network': { androidFromPlugin: ['android.permission.ACCESS_NETWORK_STATE'] },
  '@capacitor-community/file-opener': {},
  '@aparajita/capacitor-biometric-auth': { iosKeys: ['NSFaceIDUsageDescription'] },
  '@capacitor/push-notifications': {
    iosBackgroundModes: ['remote-notification'],
    android: ['android.permission.POST_NOTIFICATIONS'],
  },
  // The evidence upload (web/src/care-certificate/EvidenceDialog.tsx) is a file input for images: iOS offers
  // "Take Photo" and "Photo Library", and ends the app without these descriptions.
  'pages: photo upload': { iosKeys: ['NSCameraUsageDescription', 'NSPhotoLibraryUsageDescription'] },
};

/** The string of a top-level key of an Info.plist (a flat reading: the keys this check needs are top-level). */
function plistString(plist, key) {
  const match = new RegExp(`<key>${key}</key>\\s*<string>([^<]*)</string>`).exec(plist);
  return match ? match[1].trim() : null;
}

function plistArray(plist, key) {
  const match = new RegExp(`<key>${key}</key>\\s*<array>([\\s\\S]*?)</array>`).exec(plist);
  return match ? [...match[1].matchAll(/<string>([^<]*)<\/string>/g)].map((m) => m[1]) : [];
}

function permissions(manifest) {
  return [...manifest.matchAll(/<uses-permission[^>]*android:name="([^"]+)"/g)].map((m) => m[1]);
}

/** Every missing entry, in words; empty when the projects declare all that is needed. */
export function missingNativeEntries({ dependencies, plist, manifest, pluginManifest }) {
  const missing = [];
  const declared = permissions(manifest);
  for (const name of Object.keys(dependencies)) {
    if (!(name in NEEDS))
      missing.push(`${name}: not in mobile/scripts/check-native.mjs (write down what it needs)`);
  }
  for (const [name, needs] of Object.entries(NEEDS)) {
    if (!name.startsWith('pages:') && !(name in dependencies)) continue;
    for (const key of needs.iosKeys ?? [])
      if (!plistString(plist, key)) missing.push(`${name}: Info.plist lacks ${key} (a sentence telling why)`);
    for (const mode of needs.iosBackgroundModes ?? [])
      if (!plistArray(plist, 'UIBackgroundModes').includes(mode))
        missing.push(`${name}: Info.plist UIBackgroundModes lacks ${mode}`);
    for (const permission of needs.android ?? [])
      if (!declared.includes(permission)) missing.push(`${name}: AndroidManifest.xml lacks ${permission}`);
    for (const permission of needs.androidFromPlugin ?? [])
      if (!declared.includes(permission) && !permissions(pluginManifest(name)).includes(permission))
        missing.push(
          `${name}: neither the app's nor the plugin's AndroidManifest.xml declares ${permission}`,
        );
  }
  return missing;
}

function readPluginManifest(name) {
  try {
    return readFileSync(
      path.join(here, '..', 'node_modules', name, 'android/src/main/AndroidManifest.xml'),
      'utf8',
    );
  } catch {
    return '';
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pkg = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
  const missing = missingNativeEntries({
    dependencies: pkg.dependencies ?? {},
    plist: readFileSync(path.join(here, 'ios/App/App/Info.plist'), 'utf8'),
    manifest: readFileSync(path.join(here, 'android/app/src/main/AndroidManifest.xml'), 'utf8'),
    pluginManifest: readPluginManifest,
  });
  if (missing.length) {
    console.error(
      `The native projects lack what the app needs:\n${missing.map((m) => `  - ${m}`).join('\n')}`,
    );
    process.exit(1);
  }
  console.log(`native projects: every plugin's entries are declared (${Object.keys(NEEDS).length} checked)`);
}
