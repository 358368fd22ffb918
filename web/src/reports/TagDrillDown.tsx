import type { ReactNode } from 'react';
import type { Params } from '../app/api';
import { Button, Card, DataTable, EmptyState } from '../ui';
import { useDrillTags, useDrillTagUsers } from './api';
import { ScoreBar } from './charts';
import { DrillLevel, DrillUsersTable } from './DrillDown';

export interface TagDrillState {
  /** The tag drilled into (else the tags are listed). */
  tag: { id: number; name: string } | null;
}

/**
 * Drill-down by tags (spec 2 §7 GET /reports/drill-down/tags, 13 and 97 tags use): the tags of the root entity and
 * its subtree with their users' figures → the users of one tag. Like the organisation drill-down, each level answers
 * 202 while the server computes and is polled every 5 s (spec 2 §4).
 */
export function TagDrillDown({
  root,
  state,
  onChange,
  params,
  actions,
}: {
  root: { id: number; name: string };
  state: TagDrillState;
  onChange: (s: TagDrillState) => void;
  params: Params;
  actions?: ReactNode;
}) {
  const tags = useDrillTags(root.id, params, state.tag === null);
  const users = useDrillTagUsers(root.id, state.tag?.id ?? null, params);

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
        <button
          type="button"
          className="focus-ring rounded text-primary-700 underline"
          onClick={() => onChange({ tag: null })}
        >
          Tags in {root.name}
        </button>
        {state.tag ? (
          <>
            <span aria-hidden="true">/</span>
            <span aria-current="page">{state.tag.name}</span>
          </>
        ) : null}
      </nav>

      {!state.tag ? (
        <DrillLevel query={tags}>
          {(rows) => (
            <DataTable
              caption={`Tags in ${root.name}`}
              rows={rows}
              rowKey={(r) => r.id}
              empty={
                <EmptyState
                  title="No tags"
                  description="Tags are made on an organisation's Tags page; tagged staff are reported here."
                />
              }
              columns={[
                {
                  key: 'name',
                  header: 'Tag',
                  render: (r) => (
                    <span className="font-medium">
                      {r.name}
                      {r.entity.id !== root.id ? (
                        <span className="ml-2 text-xs font-normal text-slate-600">({r.entity.name})</span>
                      ) : null}
                    </span>
                  ),
                },
                { key: 'users_count', header: 'Staff', render: (r) => r.users_count, hideOnMobile: true },
                { key: 'required', header: 'Required', render: (r) => r.required, hideOnMobile: true },
                { key: 'missing', header: 'Missing', render: (r) => r.missing, hideOnMobile: true },
                { key: 'exempt', header: 'Exempt', render: (r) => r.exempt, hideOnMobile: true },
                { key: 'score', header: 'Score', render: (r) => <ScoreBar score={r.score} label={r.name} /> },
              ]}
              rowActions={(r) => (
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => onChange({ tag: { id: r.id, name: r.name } })}
                >
                  Staff <span className="sr-only">tagged {r.name}</span>
                </Button>
              )}
            />
          )}
        </DrillLevel>
      ) : (
        <DrillLevel query={users}>
          {(rows) => (
            <DrillUsersTable caption={`Staff tagged ${state.tag?.name} in ${root.name}`} rows={rows} />
          )}
        </DrillLevel>
      )}
    </Card>
  );
}
