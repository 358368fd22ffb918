/**
 * Test fixture (issue 30 §10): a process in start-up whose first exit hook fails as removing a folder that a killed
 * process was still writing into fails (ENOTEMPTY), and whose second one leaves a mark in MARK_FILE. Prints "ready",
 * then waits for a signal.
 */
import { writeFileSync } from 'node:fs';
import { guardStartupSignals, trackUntilExit } from '../../src/db/embedded/processes';

guardStartupSignals();
trackUntilExit(() => {
  throw Object.assign(new Error("ENOTEMPTY: directory not empty, rmdir '/tmp/postgres.init-1/base'"), {
    code: 'ENOTEMPTY',
  });
});
trackUntilExit(() => writeFileSync(process.env.MARK_FILE as string, 'the next hook ran'));
process.stdout.write('ready\n');
setInterval(() => {}, 60_000);
