/** A start-up problem the operator fixes (data folder, disk, schema): printed as its one-line message, without a stack trace. */
export class StartupError extends Error {}

const DISK_FULL = /No space left on device|ENOSPC|could not extend file|disk full/i;

/** "disk full" when the text (an engine's log or error) says so: the one cause an operator must hear plainly. */
export function diskFullIn(text: string): boolean {
  return DISK_FULL.test(text);
}
