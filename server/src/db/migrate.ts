import { type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Db } from './connect';
import { StartupError } from './embedded/errors';
import * as m001 from './migrations/001_foundation';
import * as m002 from './migrations/002_auth';
import * as m003 from './migrations/003_content';
import * as m004 from './migrations/004_learning';
import * as m005 from './migrations/005_packages';
import * as m006 from './migrations/006_compliance';
import * as m007 from './migrations/007_results';
import * as m008 from './migrations/008_jobs_presets';
import * as m009 from './migrations/009_user_requirements';
import * as m010 from './migrations/010_tags';
import * as m011 from './migrations/011_exempt_status';
import * as m012 from './migrations/012_scorm_items';
import * as m013 from './migrations/013_concurrency';
import * as m015 from './migrations/015_email_change';
import * as m016 from './migrations/016_server_secrets';
import * as m017 from './migrations/017_login_throttle';
import * as m020 from './migrations/020_activity_search';
import * as m021 from './migrations/021_inspection_packs';
import * as m022 from './migrations/022_date_format';
import * as m023 from './migrations/023_messaging';
import * as m024 from './migrations/024_notifications';
import * as m025 from './migrations/025_help_articles';
import * as m026 from './migrations/026_bookings';
import * as m029 from './migrations/029_booking_notices';
import * as m030 from './migrations/030_care_certificates';
import * as m031 from './migrations/031_pathways_documents_designer';
import * as m032 from './migrations/032_pathway_role_lock';
import * as m033 from './migrations/033_integrations_foundation';
import * as m034 from './migrations/034_webhooks';
import * as m035 from './migrations/035_importer';
import * as m036 from './migrations/036_signup_links';
import * as m037 from './migrations/037_tasks_attempts';
import * as m038 from './migrations/038_personal_access_tokens';
import * as m039 from './migrations/039_offline_attempts';
import * as m040 from './migrations/040_push_devices';
import * as m041 from './migrations/041_offline_refusals';
import * as m042 from './migrations/042_care_certificate_criteria';
import * as m043 from './migrations/043_pending_signups';
import * as m044 from './migrations/044_password_confirmed';
import * as m045 from './migrations/045_email_change_old_address';
import * as m046 from './migrations/046_sign_in_unlock';
import * as m047 from './migrations/047_sealed_webhook_secrets';
import * as m048 from './migrations/048_training_company_approval';
import * as m051 from './migrations/051_audit_entries';
import * as m052 from './migrations/052_data_protection';
import * as m054 from './migrations/054_requirement_due_dates';
import * as m056 from './migrations/056_asc_wds_export';
import * as m060 from './migrations/060_behind_reminders';
import * as m061 from './migrations/061_attempt_client_writes';
import * as m062 from './migrations/062_audit_via';
import * as m063 from './migrations/063_exemption_end';
import * as m064 from './migrations/064_person_reference_indexes';

/** Ordered, forward-only. Add a file, import it here; never edit one that has shipped. */
const migrations: Record<string, Migration> = {
  '001_foundation': m001,
  '002_auth': m002,
  '003_content': m003,
  '004_learning': m004,
  '005_packages': m005,
  '006_compliance': m006,
  '007_results': m007,
  '008_jobs_presets': m008,
  '009_user_requirements': m009,
  '010_tags': m010,
  '011_exempt_status': m011,
  '012_scorm_items': m012,
  '013_concurrency': m013,
  '015_email_change': m015,
  '017_login_throttle': m017,
  '016_server_secrets': m016,
  '020_activity_search': m020,
  '021_inspection_packs': m021,
  '022_date_format': m022,
  '023_messaging': m023,
  '024_notifications': m024,
  '025_help_articles': m025,
  '026_bookings': m026,
  '029_booking_notices': m029,
  '030_care_certificates': m030,
  '031_pathways_documents_designer': m031,
  '032_pathway_role_lock': m032,
  '033_integrations_foundation': m033,
  '034_webhooks': m034,
  '035_importer': m035,
  '036_signup_links': m036,
  '037_tasks_attempts': m037,
  '038_personal_access_tokens': m038,
  '039_offline_attempts': m039,
  '040_push_devices': m040,
  '041_offline_refusals': m041,
  '042_care_certificate_criteria': m042,
  '043_pending_signups': m043,
  '044_password_confirmed': m044,
  '045_email_change_old_address': m045,
  '046_sign_in_unlock': m046,
  '047_sealed_webhook_secrets': m047,
  '048_training_company_approval': m048,
  '051_audit_entries': m051,
  '052_data_protection': m052,
  '054_requirement_due_dates': m054,
  '056_asc_wds_export': m056,
  '060_behind_reminders': m060,
  '061_attempt_client_writes': m061,
  '062_audit_via': m062,
  '063_exemption_end': m063,
  '064_person_reference_indexes': m064,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * A database migrated by a newer version of the code has migrations this code does not know: refuse in one line
 * rather than run old code on a new schema (issue 12 §1).
 */
async function refuseNewerSchema(db: Db): Promise<void> {
  const table = await sql<{
    name: string | null;
  }>`SELECT to_regclass('public.kysely_migration')::text AS name`.execute(db);
  if (!table.rows[0]?.name) return;
  const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
  const unknown = applied.rows.map((r) => r.name).filter((name) => !(name in migrations));
  if (unknown.length > 0)
    throw new StartupError(
      `The database was updated by a newer version of CareCompliance (migration ${unknown.join(', ')} is unknown to this one): run the newer version, or restore a backup made before it.`,
    );
}

/**
 * The migrations this code knows that the database has not applied (empty once migrate() has run): the readiness
 * check's "migrations" (issue 35 §5). A database without the migrations table has applied none.
 */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const table = await sql<{
    name: string | null;
  }>`SELECT to_regclass('public.kysely_migration')::text AS name`.execute(db);
  const applied = table.rows[0]?.name
    ? new Set(
        (await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db)).rows.map((r) => r.name),
      )
    : new Set<string>();
  return Object.keys(migrations).filter((name) => !applied.has(name));
}

/** Every migration this code knows, in the order they apply (Kysely's: by name). */
export function migrationNames(): string[] {
  return Object.keys(migrations).sort();
}

/**
 * Applies the migrations up to and including `name` and no further: a restore rebuilds the schema a backup was taken
 * on (backup/restore.ts), and the next start migrates it to the latest.
 */
export async function migrateTo(db: Db, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: false });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export async function migrate(db: Db): Promise<string[]> {
  await refuseNewerSchema(db);
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: false });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
