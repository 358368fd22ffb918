import type { SequenceValue, TablePlan } from './catalogue';

export const BACKUP_FORMAT = 'carecompliance-backup';
/** Bumped when the archive's layout changes; a restore refuses a version it does not know. */
export const BACKUP_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';

/**
 * What a backup holds (its manifest.json, written last): the schema it was taken on (the migrations applied), each
 * table's entry with its row count and SHA-256, the sequences, and each uploaded file's key, size and SHA-256.
 */
export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  /** The snapshot's time (the database's clock, UTC). */
  createdAt: string;
  engine: 'postgres' | 'pglite';
  serverVersion: string;
  migrations: string[];
  /** In the order the restore loads them (parents first). */
  tables: (TablePlan & { entry: string; rows: number; bytes: number; sha256: string })[];
  sequences: SequenceValue[];
  files: {
    /** False when the files are not on the server's disk (S3): the backup holds the database alone. */
    included: boolean;
    note?: string;
    list: { key: string; size: number; sha256: string }[];
    vanished: string[];
  };
}
