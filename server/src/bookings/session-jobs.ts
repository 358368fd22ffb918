/** Placeholder until its part of issue 15 lands. */
export function registerSessionJobs(): void {}
