import type { DrillDownUserRow } from '@cc/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Params } from '../app/api';
import { Button, Card, DataTable, EmptyState, Spinner } from '../ui';
import { type Drill, useDrillEntities, useDrillRoles, useDrillUsers } from './api';
import { ScoreBar } from './charts';
import { ReportMessages } from './messages';

export interface DrillState {
  /** Entities drilled into, outermost first (the last one is shown). */
  path: { id: number; name: string }[];
  role: { id: number; name: string } | null;
  /** Showing the roles of the last entity (else its child entities). */
  roles: boolean;
}

function Preparing() {
  return (
    <div className="flex items-center gap-3 p-5 text-sm text-slate-600" aria-live="polite">
      <Spinner /> Preparing the figures… this page checks again every 5 seconds.
    </div>
  );
}
function Failed() {
  return (
    <p className="p-5 text-sm text-danger-700" role="alert">
      {ReportMessages.fetchFailed}
    </p>
  );
}

/** One level of a drill-down: the failure, "preparing" while the server answers 202, else its rows. */
export function DrillLevel<T>({
  query,
  children,
}: {
  query: { isError: boolean; data?: Drill<T> };
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isError) return <Failed />;
  if (!query.data?.ready) return <Preparing />;
  return <>{children(query.data.rows)}</>;
}

/**
 * Drill-down (spec 2 §7 /reports/drill-down/...): an entity's children → its roles → the users of a role.
 * Each level answers 202 while the server computes and is polled every 5 s (spec 2 §4).
 */
export function DrillDown({
  root,
  state,
  onChange,
  params,
  actions,
}: {
  root: { id: number; name: string };
  state: DrillState;
  onChange: (s: DrillState) => void;
  params: Params;
  /** Shown in the card's header (the compliance report's "By organisation / By tag" switch). */
  actions?: ReactNode;
}) {
  const current = state.path[state.path.length - 1] ?? root;
  const entities = useDrillEntities(state.roles ? null : current.id, params);
  const roles = useDrillRoles(state.roles && !state.role ? current.id : null, params);
  const users = useDrillUsers(state.role ? current.id : null, state.role?.id ?? null, params);
  const crumbs = [root, ...state.path.filter((p) => p.id !== root.id)];

  return (
    <Card
      title="Drill down"
      actions={actions}
      padded={false}
      data-testid="drill-down"
      className="relative overflow-hidden"
    >
      <nav
        aria-label="Drill-down path"
        className="flex flex-wrap items-center gap-1 border-b border-slate-200 px-5 py-3 text-sm"
      >
        {crumbs.map((c, i) => (
          <span key={c.id} className="flex items-center gap-1">
            {i > 0 ? <span aria-hidden="true">/</span> : null}
            <button
              type="button"
              className="focus-ring rounded text-primary-700 underline"
              onClick={() => onChange({ path: crumbs.slice(1, i + 1), roles: false, role: null })}
            >
              {c.name}
            </button>
          </span>
        ))}
        {state.roles ? (
          <>
            <span aria-hidden="true">/</span>
            <button
              type="button"
              className="focus-ring rounded text-primary-700 underline"
              onClick={() => onChange({ ...state, role: null })}
            >
              Roles
            </button>
          </>
        ) : null}
        {state.role ? (
          <>
            <span aria-hidden="true">/</span>
            <span aria-current="page">{state.role.name}</span>
          </>
        ) : null}
      </nav>

      {!state.roles ? (
        <DrillLevel query={entities}>
          {(rows) => (
            <DataTable
              caption={`Organisations in ${current.name}`}
              rows={rows}
              rowKey={(r) => r.id}
              empty={<EmptyState title="No organisations" />}
              columns={[
                {
                  key: 'name',
                  header: 'Organisation',
                  render: (r) => <span className="font-medium">{r.name}</span>,
                },
                { key: 'users', header: 'Staff', render: (r) => r.users, hideOnMobile: true },
                { key: 'required', header: 'Required', render: (r) => r.required, hideOnMobile: true },
                { key: 'score', header: 'Score', render: (r) => <ScoreBar score={r.score} label={r.name} /> },
              ]}
              rowActions={(r) => (
                <div className="flex justify-end gap-2">
                  {r.has_children && r.id !== current.id ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() =>
                        onChange({
                          path: [...state.path, { id: r.id, name: r.name }],
                          roles: false,
                          role: null,
                        })
                      }
                    >
                      Open <span className="sr-only">{r.name}</span>
                    </Button>
                  ) : null}
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() =>
                      onChange({
                        path: r.id === current.id ? state.path : [...state.path, { id: r.id, name: r.name }],
                        roles: true,
                        role: null,
                      })
                    }
                  >
                    Roles <span className="sr-only">of {r.name}</span>
                  </Button>
                </div>
              )}
            />
          )}
        </DrillLevel>
      ) : !state.role ? (
        <DrillLevel query={roles}>
          {(rows) => (
            <DataTable
              caption={`Roles in ${current.name}`}
              rows={rows}
              rowKey={(r) => r.id}
              empty={
                <EmptyState
                  title="No roles with requirements"
                  description="Nobody here holds a role with required courses."
                />
              }
              columns={[
                { key: 'name', header: 'Role', render: (r) => <span className="font-medium">{r.name}</span> },
                { key: 'users', header: 'Staff', render: (r) => r.users, hideOnMobile: true },
                { key: 'missing', header: 'Missing', render: (r) => r.missing, hideOnMobile: true },
                { key: 'exempt', header: 'Exempt', render: (r) => r.exempt, hideOnMobile: true },
                { key: 'score', header: 'Score', render: (r) => <ScoreBar score={r.score} label={r.name} /> },
              ]}
              rowActions={(r) => (
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => onChange({ ...state, role: { id: r.id, name: r.name } })}
                >
                  Staff <span className="sr-only">with role {r.name}</span>
                </Button>
              )}
            />
          )}
        </DrillLevel>
      ) : (
        <DrillLevel query={users}>
          {(rows) => <DrillUsersTable caption={`${state.role?.name} staff in ${current.name}`} rows={rows} />}
        </DrillLevel>
      )}
    </Card>
  );
}

/** The users level of a drill-down (by role or by tag): each user's cells and score. */
export function DrillUsersTable({ caption, rows }: { caption: string; rows: DrillDownUserRow[] }) {
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(r) => r.id}
      empty={<EmptyState title="No staff" />}
      columns={[
        {
          key: 'name',
          header: 'Name',
          render: (r) => (
            <span>
              <Link
                to={`/users/${r.uuid}`}
                className="focus-ring rounded font-medium text-primary-800 underline-offset-2 hover:underline"
              >
                {r.name}
              </Link>
              {r.new_starter ? (
                <span className="ml-2 text-xs font-normal text-slate-600">(new starter)</span>
              ) : null}
            </span>
          ),
        },
        { key: 'entity', header: 'Organisation', render: (r) => r.entity.name, hideOnMobile: true },
        {
          key: 'cells',
          header: 'In date / required',
          render: (r) => `${r.in_date + r.expiring} / ${r.required}`,
          hideOnMobile: true,
        },
        { key: 'exempt', header: 'Exempt', render: (r) => r.exempt, hideOnMobile: true },
        { key: 'expired', header: 'Expired', render: (r) => r.expired, hideOnMobile: true },
        { key: 'score', header: 'Score', render: (r) => <ScoreBar score={r.score} label={r.name} /> },
      ]}
    />
  );
}
