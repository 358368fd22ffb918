import { inject } from 'vitest';

/**
 * Node's arguments for starting the real server process: the bundle `npm start` runs, with its flags, built once per
 * run by test/global-setup.ts (a start costs about 3 s of CPU against 9 s through tsx, which compiles every module
 * each time); src/main.ts through tsx when no bundle could be built.
 */
export function serverProgram(): string[] {
  return inject('serverProgram');
}
