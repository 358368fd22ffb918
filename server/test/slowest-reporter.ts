import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the 20 slowest test files of the run (wall time from their first hook to their last test, plus their
 * database set-up), so CI's log says where the suite's time goes (issue 27).
 */
export default class SlowestReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const rows = testModules
      .map((m) => {
        const d = m.diagnostic();
        return {
          file: m.relativeModuleId,
          seconds: (d.duration + d.setupDuration + d.collectDuration) / 1000,
        };
      })
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 20);
    const lane = process.env.SERVER_SUITE ?? (process.env.DATABASE_URL ? 'postgres' : 'embedded (PGlite)');
    console.log(`\nslowest 20 server test files (${lane}):`);
    for (const r of rows) console.log(`  ${r.seconds.toFixed(1).padStart(6)}s  ${r.file}`);
  }
}
