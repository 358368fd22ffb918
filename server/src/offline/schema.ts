import type { OfflineRefusal } from '@cc/contracts';
import type { ColumnType, Generated } from 'kysely';

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T | undefined, string | T>;

/** Migration 039 (issue 19): the copies learners took offline and the attempts their devices sent back. */
export interface OfflineDownloadsTable {
  id: Generated<string>;
  user_id: number;
  content_id: number;
  course_id: number;
  downloaded_at: DefaultTimestamp;
}

export type OfflineAttemptStatus = 'passed' | 'failed' | 'completed' | 'incomplete';

export interface OfflineAttemptsTable {
  id: Generated<number>;
  user_id: number;
  client_uuid: string;
  download_id: string;
  content_id: number;
  course_id: number;
  attempt_id: number | null;
  /** The body the device sent, kept whatever the outcome (the learner's data is never dropped). */
  payload: Json<Record<string, unknown>>;
  device_started_at: Date;
  device_completed_at: Date | null;
  /** The completion time recorded: the device's, bounded by the download and sync times (rules.ts). */
  completed_at: Date | null;
  status: Generated<OfflineAttemptStatus>;
  score: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  counted: Generated<boolean>;
  rule: Generated<string>;
  /** Migration 041: the steps the rules refused, with their reasons (contracts OfflineRefusal). */
  refused: Json<OfflineRefusal[]>;
  synced_at: DefaultTimestamp;
}

// Declared beside the capability instead of in db/schema.ts: Database is an interface, so this merges into it.
declare module '../db/schema' {
  interface Database {
    offline_downloads: OfflineDownloadsTable;
    offline_attempts: OfflineAttemptsTable;
  }
}
