import { clearScores } from '../src/compliance/scores-cache';
import { clearDrillDownCache } from '../src/reports/drill-down';

/**
 * The PostgreSQL lane runs its files in one process per worker (isolate: false, vitest.config.ts): modules load once
 * instead of once per file, which was most of the lane's time. Each file still gets its own database, whose ids start
 * from 1 like the last file's, so the in-process caches keyed by ids are emptied before each file: a score or a
 * drill-down computed on the previous file's database is never served on this one's.
 */
clearScores();
clearDrillDownCache();
