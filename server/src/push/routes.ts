import type { App } from '../http/app-types';

/** Push notifications (issue 19): device registration for the mobile shell. Reserved; its helper writes it. */
export async function pushRoutes(_app: App): Promise<void> {}
