import type { App } from '../http/app-types';

/** Placeholder until its part of issue 15 lands. */
export async function delegateRoutes(_app: App) {}
