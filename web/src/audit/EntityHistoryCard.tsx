import { AUDIT_ACTIONS, type AuditAction, type AuditKind, AuditPerm } from '@cc/contracts';
import { useState } from 'react';
import { usePermission } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope } from '../entities/shared';
import { Card, CardPagination, EmptyState, FoldingFilters, Select, TextField } from '../ui';
import { AuditEntryItem } from './AuditEntry';
import { type AuditFilters, useEntityHistory } from './api';

const ACTION_LABELS: Record<AuditAction, string> = {
  created: 'Added',
  updated: 'Changed',
  approved: 'Approved',
  deleted: 'Removed',
};

/** The kinds users filter by, in their words (the organisation's own word for "organisation"). */
function kindOptions(entityWord: string): { value: AuditKind; label: string }[] {
  return [
    { value: 'result', label: 'Training records' },
    { value: 'exemption', label: 'Exemptions' },
    { value: 'compliance_rule', label: 'Required courses of a role' },
    { value: 'user', label: 'People' },
    { value: 'entity', label: `${entityWord} settings` },
    { value: 'role', label: 'Job roles' },
    { value: 'type', label: 'User types' },
    { value: 'type_permissions', label: 'Permissions of a user type' },
    { value: 'user_permission', label: 'Permissions of a person' },
    { value: 'entity_permissions', label: `Permissions of the ${entityWord.toLowerCase()}` },
    { value: 'personal_data', label: 'Personal data (downloads, erasure)' },
  ];
}

/**
 * "History" on a home's page (issue 35 §3): every audited change there and in its sites, newest first, filtered by
 * what changed, how and when. Shown to holders of 24 (search training records).
 */
export function EntityHistoryCard({ entityRef }: { entityRef: string }) {
  const allowed = usePermission([AuditPerm.viewHistory]);
  if (!allowed) return null;
  return <EntityHistory entityRef={entityRef} />;
}

function EntityHistory({ entityRef }: { entityRef: string }) {
  const wl = useWhitelabel();
  const [f, setF] = useState<AuditFilters>({ page: 1, kind: '', action: '', from: '', to: '' });
  const history = useEntityHistory(entityRef, f);
  const set = (patch: Partial<AuditFilters>) => setF((old) => ({ ...old, ...patch, page: patch.page ?? 1 }));
  const error = history.isError ? errorEnvelope(history.error, 'Please try again.') : null;
  const fieldErrors = error?.errors ?? {};
  const filtered = Boolean(f.kind || f.action || f.from || f.to);
  return (
    <Card title="History" padded={false} data-testid="entity-history">
      <div className="border-b border-slate-200">
        <FoldingFilters
          summary={filtered ? 'Filtered' : 'Every change'}
          onClear={filtered ? () => setF({ page: 1, kind: '', action: '', from: '', to: '' }) : null}
        >
          <Select
            label="What changed"
            value={f.kind}
            placeholder="Everything"
            options={kindOptions(wl.entityAltName)}
            onChange={(e) => set({ kind: e.target.value as AuditKind | '' })}
          />
          <Select
            label="Change"
            value={f.action}
            placeholder="Any"
            options={AUDIT_ACTIONS.map((a) => ({ value: a, label: ACTION_LABELS[a] }))}
            onChange={(e) => set({ action: e.target.value as AuditAction | '' })}
          />
          <TextField
            label="From"
            type="date"
            value={f.from}
            max={f.to || undefined}
            error={fieldErrors.from}
            onChange={(e) => set({ from: e.target.value })}
          />
          <TextField
            label="To"
            type="date"
            value={f.to}
            min={f.from || undefined}
            error={fieldErrors.to}
            onChange={(e) => set({ to: e.target.value })}
          />
        </FoldingFilters>
      </div>
      {error ? (
        <EmptyState title="The history could not be loaded" description={error.message} />
      ) : history.isLoading ? (
        <div className="space-y-3 p-5" role="status" aria-busy="true" aria-label="Loading history">
          {[0, 1, 2].map((i) => (
            <div key={i} className="cc-skeleton h-4 w-2/3 rounded bg-slate-200" />
          ))}
        </div>
      ) : !history.data?.data.length ? (
        <EmptyState
          title={filtered ? 'No changes match' : 'No changes yet'}
          description={
            filtered
              ? 'Try another filter or a wider date range.'
              : 'Training recorded, requirements changed and people moved here will appear, with who did it.'
          }
        />
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="History">
          {history.data.data.map((e) => (
            <li key={e.id} className="px-5 py-3">
              <AuditEntryItem entry={e} />
            </li>
          ))}
        </ul>
      )}
      <CardPagination
        meta={history.data?.meta}
        onPageChange={(page) => set({ page })}
        label="History pages"
      />
    </Card>
  );
}
