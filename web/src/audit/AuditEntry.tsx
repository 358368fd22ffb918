import {
  type AuditEntryView,
  auditChangedFields,
  describeAuditEntry,
  formatDate,
  formatDateTime,
} from '@cc/contracts';
import { useWhitelabel } from '../app/whitelabel';
import { Badge, type BadgeTone } from '../ui';

const TONES: Record<AuditEntryView['action'], BadgeTone> = {
  created: 'success',
  approved: 'primary',
  updated: 'warning',
  deleted: 'danger',
};
const ACTION_WORDS: Record<AuditEntryView['action'], string> = {
  created: 'Added',
  approved: 'Approved',
  updated: 'Changed',
  deleted: 'Removed',
};

const FIELD_LABELS: Record<string, string> = {
  course_id: 'Course',
  completed_at: 'Date',
  passed: 'Outcome',
  score: 'Score',
  notes: 'Notes',
  evidence_file_id: 'Evidence',
  expires_at: 'Expires',
  deleted_at: 'Deleted',
  status: 'Status',
  role_id: 'Job role',
  type_id: 'User type',
  primary_entity_id: 'Works at',
  validity_months: 'Validity (months)',
  compliance_type: 'Type',
  start_date: 'Start date',
  is_trainer: 'Trainer',
  permissions: 'Permissions',
  permission_id: 'Permission',
  expiry_warning: 'Expiry warning (days)',
  starter_period: 'New starter period (days)',
  left_on: 'Leaving date',
  retention_years: 'Training record kept (years)',
  erased_at: 'Erased',
  records_removed_on: 'Training record removed on',
  removed_on: 'Removed on',
  format: 'Format',
};

/** A value in users' words: names instead of ids where the entry kept them, dates in the organisation's format. */
function shown(values: Record<string, unknown> | null, field: string): string {
  if (!values) return '—';
  const label = values[field.replace(/_id$/, '_label')] ?? values[`${field}_label`];
  const v = label ?? values[field];
  if (v === null || v === undefined || v === '') return '—';
  if (field === 'passed') return v ? 'Pass' : 'Fail';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (Array.isArray(v)) return v.join(', ');
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}(T|$)/.test(v)) return formatDate(v);
  return String(v);
}

/** One entry of the audit trail: the sentence, when and from where, and what changed. */
export function AuditEntryItem({ entry }: { entry: AuditEntryView }) {
  const wl = useWhitelabel();
  const changed = entry.action === 'updated' || entry.action === 'approved' ? auditChangedFields(entry) : [];
  return (
    <div className="flex flex-col gap-1.5">
      <p className="flex flex-wrap items-start gap-2 text-sm text-slate-900">
        <Badge tone={TONES[entry.action]}>{ACTION_WORDS[entry.action]}</Badge>
        <span className="min-w-0 flex-1 break-words">
          {describeAuditEntry(entry, { entity: wl.entityAltName.toLowerCase() })}
        </span>
      </p>
      <p className="flex flex-wrap gap-x-3 text-xs text-slate-600">
        <time dateTime={entry.occurred_at}>{formatDateTime(entry.occurred_at)}</time>
        {entry.ip ? <span>From address {entry.ip}</span> : null}
      </p>
      {changed.length ? (
        <details className="text-xs text-slate-700">
          <summary className="focus-ring cursor-pointer rounded text-primary-800">What changed</summary>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            {changed.map((field) => (
              <div key={field} className="contents">
                <dt className="font-medium">{FIELD_LABELS[field] ?? field.replaceAll('_', ' ')}</dt>
                <dd className="break-words">
                  {shown(entry.before, field)} → {shown(entry.after, field)}
                </dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
    </div>
  );
}
