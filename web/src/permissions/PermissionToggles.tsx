import { useMemo, useState } from 'react';
import { Badge, Card, EmptyState, SearchInput, Toggle } from '../ui';
import { filterPermissions, groupByCategory, permissionLabel } from './group';

export interface GrantedPermission {
  id: number;
  name: string;
  description: string;
  category: string;
  granted: boolean;
}

/**
 * The permission catalogue grouped by category, one Toggle per permission (spec 2 §6). `blocked` says why a
 * toggle is disabled (the server would refuse); `onToggle` resolves when the server has answered.
 */
export function PermissionToggles({
  permissions,
  blocked,
  onToggle,
}: {
  permissions: GrantedPermission[];
  blocked: (p: GrantedPermission) => string | null;
  onToggle: (p: GrantedPermission, next: boolean) => Promise<void>;
}) {
  const [filter, setFilter] = useState('');
  const [pending, setPending] = useState<Set<number>>(new Set());
  const groups = useMemo(
    () => groupByCategory(filterPermissions(permissions, filter)),
    [permissions, filter],
  );
  const toggle = async (p: GrantedPermission, next: boolean) => {
    setPending((s) => new Set(s).add(p.id));
    try {
      await onToggle(p, next);
    } catch {
      // the caller reported it; the toggle shows the server's state again
    } finally {
      setPending((s) => {
        const copy = new Set(s);
        copy.delete(p.id);
        return copy;
      });
    }
  };
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchInput
          label="Filter permissions"
          placeholder="Filter permissions…"
          onSearch={setFilter}
          delay={150}
        />
        <p className="text-sm text-slate-600">
          {permissions.filter((p) => p.granted).length} of {permissions.length} granted
        </p>
      </div>
      {groups.length === 0 ? (
        <Card>
          <EmptyState title="No permissions match" description="Try another word or a permission number." />
        </Card>
      ) : null}
      {groups.map((g) => (
        <Card
          key={g.category}
          title={g.label}
          actions={
            <Badge>{`${g.permissions.filter((p) => p.granted).length} / ${g.permissions.length}`}</Badge>
          }
          padded={false}
          data-testid={`category-${g.category}`}
        >
          <ul className="divide-y divide-slate-100">
            {g.permissions.map((p) => {
              const reason = blocked(p);
              return (
                <li key={p.id} className="flex items-start justify-between gap-4 px-5 py-3">
                  <div className="min-w-0">
                    {/* The plain description is the label (issue 33 §1): the catalogue's names are the spec's
                        shorthand ("add entity", "2x permission"); the number stays for finding it. */}
                    <p className="text-sm font-medium text-slate-900">{permissionLabel(p)}</p>
                    <p className="text-xs text-slate-500">Permission {p.id}</p>
                    {reason ? <p className="mt-0.5 text-xs text-slate-500">{reason}</p> : null}
                  </div>
                  <div className="shrink-0 pt-0.5">
                    <Toggle
                      label={permissionLabel(p)}
                      hideLabel
                      checked={p.granted}
                      disabled={Boolean(reason) || pending.has(p.id)}
                      onChange={(next) => void toggle(p, next)}
                    />
                  </div>
                </li>
              );
            })}
          </ul>
        </Card>
      ))}
    </div>
  );
}
