import type { App } from '../http/app-types';

/** Offline learning (issue 19): course downloads and attempt sync. Reserved; its helper writes it. */
export async function offlineRoutes(_app: App): Promise<void> {}
