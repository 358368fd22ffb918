import type { DashboardTrend } from '@cc/contracts';
import { useSearchParams } from 'react-router';
import { isApiError } from '../app/api';
import { useWhitelabel } from '../app/whitelabel';
import { Card, Select, Spinner } from '../ui';
import { organisationWord } from '../whitelabel/words';
import { type DashboardType, useScopeEntities } from './ManagerDashboardApi';

/** The pieces both dashboards share: the entity and compliance-type choice (in the URL), the trend, errors. */

const TYPES: readonly DashboardType[] = ['all', 'primary', 'secondary'];

/** `?entity=` (an id of the caller's scope; none = the server's default) and `?compliance_type=` (default all). */
export function useDashboardParams() {
  const [search, setSearch] = useSearchParams();
  const entity = search.get('entity') || undefined;
  const raw = search.get('compliance_type') as DashboardType | null;
  const type: DashboardType = raw && TYPES.includes(raw) ? raw : 'all';
  const set = (key: 'entity' | 'compliance_type', value: string | undefined) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === undefined || (key === 'compliance_type' && value === 'all')) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  return {
    entity,
    type,
    setEntity: (id: number) => set('entity', String(id)),
    setType: (t: DashboardType) => set('compliance_type', t),
  };
}

/** What a compliance type counts, in the white-label's words. */
export function useTypeLabel() {
  const wl = useWhitelabel();
  return (type: DashboardType | 'primary' | 'secondary') =>
    type === 'primary'
      ? wl.primaryComplianceAltName
      : type === 'secondary'
        ? wl.secondaryComplianceAltName
        : `${wl.primaryComplianceAltName} and ${wl.secondaryComplianceAltName}`;
}

/**
 * The entity switcher (the entities the caller may see: GET /entities, scoped by the server to the acting-as
 * entity and its descendants) and the compliance type. `levels` narrows the choice (the management view needs
 * entities with children: level A).
 */
export function DashboardControls({
  entityId,
  onEntity,
  type,
  onType,
  levels,
}: {
  entityId: number | undefined;
  onEntity: (id: number) => void;
  type: DashboardType;
  onType: (t: DashboardType) => void;
  levels?: ('A' | 'B')[];
}) {
  const typeLabel = useTypeLabel();
  const entities = useScopeEntities(true);
  const options = (entities.data?.data ?? []).filter((e) => !levels || levels.includes(e.level));
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 sm:items-end">
      {options.length > 1 ? (
        <Select
          label="Show"
          value={entityId ?? ''}
          onChange={(e) => onEntity(Number(e.target.value))}
          options={options
            .slice()
            .sort((a, b) => a.name.localeCompare(b.name))
            .map((o) => ({ value: o.id, label: o.name }))}
        />
      ) : (
        <span className="hidden sm:block" />
      )}
      <Select
        label="Courses counted"
        value={type}
        onChange={(e) => onType(e.target.value as DashboardType)}
        options={TYPES.map((t) => ({
          value: t,
          label: t === 'all' ? `All (${typeLabel(t)})` : typeLabel(t),
        }))}
      />
    </div>
  );
}

/** "▲ 3 points since October 2026", in words and arrows (colour is not the only signal). */
export function TrendText({ trend, className }: { trend: DashboardTrend; className?: string }) {
  if (!trend.previous || trend.change === null)
    return (
      <span className={className ?? 'text-sm text-slate-600'}>No month-end figures yet to compare with</span>
    );
  const month = new Date(`${trend.previous.month}-01T00:00:00Z`).toLocaleDateString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return <ChangeText change={trend.change} since={month} className={className} />;
}

export function ChangeText({
  change,
  since,
  className,
}: {
  change: number;
  since: string;
  className?: string;
}) {
  const points = Math.abs(change);
  const unit = points === 1 ? 'point' : 'points';
  const text =
    change > 0
      ? `▲ up ${points} ${unit} since ${since}`
      : change < 0
        ? `▼ down ${points} ${unit} since ${since}`
        : `no change since ${since}`;
  const tone = change > 0 ? 'text-success-800' : change < 0 ? 'text-danger-700' : 'text-slate-600';
  return <span className={className ?? `text-sm font-medium ${tone}`}>{text}</span>;
}

/** A failed dashboard call in words: no access, not in scope, or anything else. */
export function DashboardError({ error, name }: { error: unknown; name: string }) {
  const wl = useWhitelabel();
  const status = isApiError(error) ? error.status : 0;
  const text =
    status === 403
      ? `You do not have access to the ${name}. Ask an administrator if you need it.`
      : status === 404
        ? `This ${organisationWord(wl).toLowerCase()} is not one you can see. Choose another above.`
        : `The ${name} could not be loaded. Please try again, or contact support if it keeps failing.`;
  return (
    <Card>
      <p role="alert" className="text-sm text-danger-700">
        {text}
      </p>
    </Card>
  );
}

/** The organisation a dashboard shows (its name, large) with the switcher and the counted courses. */
export function DashboardScope({
  entity,
  type,
  onEntity,
  onType,
}: {
  entity: { id: number; name: string; level: 'A' | 'B' } | undefined;
  type: DashboardType;
  onEntity: (id: number) => void;
  onType: (type: DashboardType) => void;
}) {
  const wl = useWhitelabel();
  return (
    <Card>
      <div className="space-y-4">
        <div>
          <p className="text-xs font-medium tracking-wide text-slate-600 uppercase">
            {entity?.level === 'A' ? 'Organisation' : organisationWord(wl)}
          </p>
          <h2 className="text-2xl font-semibold text-slate-900" data-testid="dashboard-entity">
            {entity?.name ?? '…'}
          </h2>
        </div>
        <DashboardControls entityId={entity?.id} onEntity={onEntity} type={type} onType={onType} />
      </div>
    </Card>
  );
}

export function DashboardLoading() {
  return (
    <Card>
      <div className="flex items-center gap-3 text-sm text-slate-600" aria-live="polite">
        <Spinner /> Loading the dashboard…
      </div>
    </Card>
  );
}

/** '1 person', '3 people': a count with its noun. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
