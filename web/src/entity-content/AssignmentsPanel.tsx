import { Messages } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { showModal } from '../app/modal';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, LoadError } from '../entities/shared';
import {
  Badge,
  Button,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  SearchInput,
  Select,
  Toggle,
} from '../ui';
import { AddItemsModal, addModalName } from './AddItemsModal';
import {
  type AssignmentKind,
  type AssignmentRow,
  addAssignments,
  removeAssignment,
  updateAssignment,
  updateAssignments,
  useAssignments,
} from './api';

export const TYPE_LABELS: Record<string, string> = {
  elearning: 'E-learning',
  scorm: 'SCORM',
  historical: 'Historical',
  face2face: 'Face-to-face',
};

const OVERRIDE_OPTIONS = [
  { value: 'default', label: 'As authored' },
  { value: 'admin', label: 'Admins only' },
  { value: 'everyone', label: 'Everyone' },
];
const overrideValue = (v: boolean | null | undefined) =>
  v === true ? 'admin' : v === false ? 'everyone' : 'default';

/** What the signed-in user may do here (permissions 68/69, 63 to search the catalogue, 122 for the override). */
export interface AssignmentAbilities {
  /** 68 for courses, 69 for content: list, switch, add, remove. */
  manage: boolean;
  /** 63: the catalogue (GET /courses, /content) to pick new items from. */
  browse: boolean;
  /** 122: the admin-only override of a content item for this entity. */
  restrict: boolean;
}

/**
 * One list of the entity courses page: the courses or the content items made available to the entity, each switched
 * on or off there (spec 2 §7). Rows can be switched one by one, or selected and switched together through
 * updateMultiple; adding picks from the catalogue, removing asks first.
 */
export function AssignmentsPanel({
  slug,
  entityName,
  kind,
  can,
}: {
  slug: string;
  entityName: string;
  kind: AssignmentKind;
  can: AssignmentAbilities;
}) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [busyRow, setBusyRow] = useState<number | null>(null);
  const [bulkBusy, setBulkBusy] = useState<'on' | 'off' | null>(null);
  const [removing, setRemoving] = useState<AssignmentRow | null>(null);
  const list = useAssignments(slug, kind, { page, search, enabled: can.manage });
  const noun = kind === 'course' ? 'course' : 'content item';
  const plural = kind === 'course' ? 'courses' : 'content items';
  const label = kind === 'course' ? 'Courses' : 'Content';
  const fetchFailed = kind === 'course' ? 'Failed to fetch courses.' : Messages.failedToFetchContent;

  useEffect(() => {
    if (list.isError) notifyError(errorEnvelope(list.error, fetchFailed), fetchFailed);
  }, [list.isError, list.error, fetchFailed]);

  const rows = list.data?.data ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['entity-content', slug, kind] });

  const patchRow = async (
    row: AssignmentRow,
    body: { enabled?: boolean; admin_only_override?: boolean | null },
  ) => {
    setBusyRow(row.id);
    try {
      // An inherited course has no row here yet: switching it writes this organisation's own row.
      const message =
        row.inherited && body.enabled !== undefined
          ? await addAssignments(slug, kind, [row.id], body.enabled)
          : await updateAssignment(slug, kind, row.id, body);
      notifySuccess(message ?? Messages.successfullyUpdated);
      await refresh();
    } catch (error) {
      notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
    } finally {
      setBusyRow(null);
    }
  };

  // spec 2 §8: a failed multi-update shows the server's message when there is one, else the generic one.
  const applyMany = async (enabled: boolean) => {
    setBulkBusy(enabled ? 'on' : 'off');
    try {
      notifySuccess(
        (await updateAssignments(slug, kind, [...selected], enabled)) ?? Messages.successfullyUpdated,
      );
      setSelected(new Set());
      await refresh();
    } catch (error) {
      notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
    } finally {
      setBulkBusy(null);
    }
  };

  const remove = async () => {
    if (!removing) return;
    try {
      notifySuccess((await removeAssignment(slug, kind, removing.id)) ?? Messages.successfullyUpdated);
      setSelected((s) => {
        const next = new Set(s);
        next.delete(removing.id);
        return next;
      });
      await refresh();
    } catch (error) {
      notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
      throw error;
    }
  };

  const toggleOne = (id: number, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));

  const columns: Column<AssignmentRow>[] = [
    {
      key: 'select',
      header: (
        <input
          type="checkbox"
          className="focus-ring h-4 w-4 rounded border-slate-400 accent-[var(--cc-primary-700)]"
          aria-label={`Select every ${noun} on this page`}
          checked={allOnPage}
          disabled={!rows.length}
          onChange={(e) =>
            setSelected((s) => {
              const next = new Set(s);
              for (const r of rows) {
                if (e.target.checked) next.add(r.id);
                else next.delete(r.id);
              }
              return next;
            })
          }
        />
      ),
      className: 'w-10',
      render: (r) => (
        <input
          type="checkbox"
          className="focus-ring h-4 w-4 rounded border-slate-400 accent-[var(--cc-primary-700)]"
          aria-label={`Select ${r.title}`}
          checked={selected.has(r.id)}
          onChange={(e) => toggleOne(r.id, e.target.checked)}
        />
      ),
    },
    {
      key: 'title',
      header: 'Title',
      render: (r) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900">{r.title}</span>
          {r.type ? <Badge>{TYPE_LABELS[r.type] ?? r.type}</Badge> : null}
          {r.inherited ? <Badge>Inherited</Badge> : null}
        </span>
      ),
    },
    {
      key: 'enabled',
      header: 'Available',
      render: (r) => (
        <span className="inline-flex items-center gap-2">
          <Toggle
            label={`${r.title} available at ${entityName}`}
            hideLabel
            checked={r.enabled}
            disabled={busyRow === r.id}
            onChange={(on) => void patchRow(r, { enabled: on })}
          />
          <span
            aria-hidden="true"
            className={r.enabled ? 'text-xs font-medium text-success-800' : 'text-xs text-slate-600'}
          >
            {r.enabled ? 'On' : 'Off'}
          </span>
        </span>
      ),
    },
    ...(kind === 'content' && can.restrict
      ? [
          {
            key: 'admin_only',
            header: 'Who sees it',
            hideOnMobile: true,
            render: (r: AssignmentRow) => (
              <div className="w-40">
                <Select
                  label={`Who sees ${r.title}`}
                  hideLabel
                  options={OVERRIDE_OPTIONS}
                  value={overrideValue(r.admin_only_override)}
                  disabled={busyRow === r.id}
                  onChange={(e) => {
                    const v = e.target.value;
                    void patchRow(r, {
                      admin_only_override: v === 'admin' ? true : v === 'everyone' ? false : null,
                    });
                  }}
                />
              </div>
            ),
          },
        ]
      : []),
  ];

  const addButton =
    can.browse && can.manage ? (
      <Button variant="secondary" onClick={() => showModal(addModalName(kind))}>
        Add {kind === 'course' ? 'courses' : 'content'}
      </Button>
    ) : undefined;

  if (list.isError && !list.data)
    return <LoadError error={list.error} fallback={fetchFailed} onRetry={() => void list.refetch()} />;

  return (
    <Card padded={false}>
      <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="w-full sm:max-w-xs">
          <SearchInput
            label={`Search ${plural}`}
            onSearch={(v) => {
              setSearch(v);
              setPage(1);
            }}
          />
        </div>
        {addButton}
      </div>
      {selected.size ? (
        <section
          aria-label={`Change the selected ${plural}`}
          className="flex flex-col gap-2 border-b border-primary-200 bg-primary-50 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
        >
          <p className="text-sm font-medium text-primary-900" aria-live="polite">
            {selected.size} selected
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              onClick={() => void applyMany(true)}
              loading={bulkBusy === 'on'}
              disabled={bulkBusy !== null}
            >
              Switch on
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => void applyMany(false)}
              loading={bulkBusy === 'off'}
              disabled={bulkBusy !== null}
            >
              Switch off
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => setSelected(new Set())}
              disabled={bulkBusy !== null}
            >
              Clear selection
            </Button>
          </div>
        </section>
      ) : null}
      <DataTable
        caption={`${label} of ${entityName}`}
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        loading={list.isLoading}
        rowActions={(r) =>
          r.inherited ? (
            <span className="text-xs text-slate-600">From the parent organisation</span>
          ) : (
            <Button
              size="sm"
              variant="ghost"
              className="text-danger-700"
              onClick={() => setRemoving(r)}
              aria-label={`Remove ${r.title}`}
            >
              Remove
            </Button>
          )
        }
        empty={
          search ? (
            <EmptyState title={`No ${plural} match`} description="Try another search." />
          ) : (
            <EmptyState
              title={`No ${plural} yet`}
              description={`Add ${plural} from the catalogue to make them available to ${entityName}.`}
              action={addButton}
            />
          )
        }
      />
      <CardPagination meta={list.data?.meta} onPageChange={setPage} label={`${label} pages`} />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove this ${noun}?`}
        message={
          removing ? (
            <>
              <strong>{removing.title}</strong> will no longer be listed for {entityName}. The {noun} itself
              is not deleted.
            </>
          ) : null
        }
        confirmLabel="Remove"
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      />
      <AddItemsModal
        slug={slug}
        kind={kind}
        entityName={entityName}
        assigned={new Set(rows.map((r) => r.id))}
        onAdded={refresh}
      />
    </Card>
  );
}
