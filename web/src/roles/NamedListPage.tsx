import type { Paged } from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { ZodType } from 'zod';
import { api, type Envelope, isApiError } from '../app/api';
import { usePermissionChecker } from '../app/auth';
import { showModal } from '../app/modal';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import { errorEnvelope, LoadError, useNotFoundRedirect } from '../entities/shared';
import {
  Badge,
  Button,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  PageHeader,
  SearchInput,
  Select,
} from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { type NameItem, NameModal } from './NameModal';

/** A job role or user type as listed under an entity (contracts Role / UserType). */
export interface NamedRow {
  id: number;
  name: string;
  inspectable?: boolean;
  inherited?: boolean;
  users_count?: number;
  entity?: { id: number; slug: string; name: string };
}

export interface NamedListConfig {
  /** 'roles' or 'types': the path segment of /entities/{slug}/… */
  resource: 'roles' | 'types';
  title: string;
  noun: string;
  schema: ZodType;
  withInspectable: boolean;
  perms: { create: number; update: number; delete: number };
  messages: { created: string; updated: string; deleted: string };
  /** Extra links shown first in each row's actions (e.g. a job role's courses). */
  rowLinks?: (row: NamedRow, slug: string) => ReactNode;
}

/**
 * The job roles (`/entities/{slug}/roles/`) and user types (`/entities/{slug}/types`) screens of spec 2 §2, §7:
 * a paged table, create and rename in the named modal, delete after a confirm; inherited rows (an ancestor's)
 * are read-only here. Success notices are the spec's (§8).
 */
export function NamedListPage({ config }: { config: NamedListConfig }) {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [inspectable, setInspectable] = useState<'all' | '1' | '0'>('all');
  const [deleting, setDeleting] = useState<NamedRow | null>(null);
  const modal = `${config.resource}-form`;
  const base = `/entities/${encodeURIComponent(slug)}/${config.resource}`;

  const list = useQuery({
    queryKey: ['entities', slug, config.resource, { page, search, inspectable }],
    queryFn: async () =>
      (
        await api.get<Paged<NamedRow>>(base, {
          params: {
            page,
            search: search || undefined,
            inspectable: config.withInspectable && inspectable !== 'all' ? inspectable : undefined,
          },
        })
      ).data,
    placeholderData: (previous) => previous,
  });
  useNotFoundRedirect(entity.error ?? list.error, 'entity');
  useEffect(() => {
    if (list.isError && !(isApiError(list.error) && list.error.status === 404))
      notifyError(errorEnvelope(list.error, `Failed to fetch ${config.title.toLowerCase()}.`), '');
  }, [list.isError, list.error, config.title]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['entities', slug, config.resource] });
  const save = async (item: NameItem, body: unknown) => {
    const res = item.id
      ? await api.patch<Envelope<NamedRow>>(`${base}/${item.id}`, body)
      : await api.post<Envelope<NamedRow>>(base, body);
    notifySuccess(res.data.message ?? (item.id ? config.messages.updated : config.messages.created));
    await refresh();
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      const res = await api.delete<{ message?: string }>(`${base}/${deleting.id}`);
      notifySuccess(res.data?.message ?? config.messages.deleted);
      await refresh();
    } catch (error) {
      notifyError(errorEnvelope(error, 'Could not delete.'), 'Could not delete.');
      throw error;
    }
  };

  const canCreate = can([config.perms.create]);
  const canUpdate = can([config.perms.update]);
  const canDelete = can([config.perms.delete]);
  const noun = config.noun.toLowerCase();
  const entityName = entity.data?.name ?? slug;

  const columns: Column<NamedRow>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (r) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900">{r.name}</span>
          {r.inherited ? <Badge>{`Inherited from ${r.entity?.name ?? 'parent'}`}</Badge> : null}
        </span>
      ),
    },
    ...(config.withInspectable
      ? [
          {
            key: 'inspectable',
            header: 'Inspectable',
            render: (r: NamedRow) =>
              r.inspectable ? <Badge tone="success">Yes</Badge> : <span className="text-slate-600">No</span>,
          },
        ]
      : []),
    { key: 'users_count', header: 'Users', hideOnMobile: true, render: (r) => String(r.users_count ?? 0) },
  ];

  return (
    <div>
      <PageHeader
        title={config.title}
        description={`${config.title} of ${entityName}.`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: entityName, to: `/entities/${slug}` },
          { label: config.title },
        ]}
        actions={
          canCreate ? (
            <Button onClick={() => showModal(modal, { name: '', inspectable: false })}>Add {noun}</Button>
          ) : undefined
        }
      />
      {list.isError && !list.data ? (
        <LoadError
          error={list.error}
          fallback={`Failed to fetch ${config.title.toLowerCase()}.`}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <Card padded={false}>
          <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-center">
            <SearchInput
              label={`Search ${config.title.toLowerCase()}`}
              onSearch={(v) => {
                setSearch(v);
                setPage(1);
              }}
            />
            {config.withInspectable ? (
              <div className="w-full sm:w-48">
                <Select
                  label="Inspectable"
                  hideLabel
                  options={[
                    { value: 'all', label: 'Inspectable: all' },
                    { value: '1', label: 'Inspectable: yes' },
                    { value: '0', label: 'Inspectable: no' },
                  ]}
                  value={inspectable}
                  onChange={(e) => {
                    setInspectable(e.target.value as 'all' | '1' | '0');
                    setPage(1);
                  }}
                />
              </div>
            ) : null}
          </div>
          <DataTable
            caption={config.title}
            columns={columns}
            rows={list.data?.data}
            rowKey={(r) => r.id}
            loading={list.isLoading}
            rowActions={(r) => (
              <>
                {config.rowLinks?.(r, slug)}
                {r.inherited ? (
                  <Link
                    to={`/entities/${r.entity?.slug ?? ''}/${config.resource}${config.resource === 'roles' ? '/' : ''}`}
                    className="focus-ring rounded px-2 text-sm text-primary-800 hover:underline"
                  >
                    <span className="hidden sm:inline">Manage at </span>
                    {r.entity?.name ?? 'parent'}
                  </Link>
                ) : (
                  <>
                    {canUpdate ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() =>
                          showModal(modal, { id: r.id, name: r.name, inspectable: r.inspectable })
                        }
                        aria-label={`Edit ${r.name}`}
                      >
                        Edit
                      </Button>
                    ) : null}
                    {canDelete ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        className="text-danger-700"
                        onClick={() => setDeleting(r)}
                        aria-label={`Delete ${r.name}`}
                      >
                        Delete
                      </Button>
                    ) : null}
                  </>
                )}
              </>
            )}
            empty={
              search || inspectable !== 'all' ? (
                <EmptyState
                  title={`No ${config.title.toLowerCase()} match`}
                  description="Try another search or filter."
                />
              ) : (
                <EmptyState
                  title={`No ${config.title.toLowerCase()} yet`}
                  description={`Add the first ${noun} for ${entityName}.`}
                  action={
                    canCreate ? (
                      <Button onClick={() => showModal(modal, { name: '', inspectable: false })}>
                        Add {noun}
                      </Button>
                    ) : undefined
                  }
                />
              )
            }
          />
          <CardPagination meta={list.data?.meta} onPageChange={setPage} label={`${config.title} pages`} />
        </Card>
      )}
      <NameModal
        name={modal}
        noun={config.noun}
        schema={config.schema}
        withInspectable={config.withInspectable}
        onSave={save}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${noun}?`}
        message={
          deleting ? (
            <>
              <strong>{deleting.name}</strong> will be deleted.
              {deleting.users_count
                ? ` ${deleting.users_count} ${deleting.users_count === 1 ? 'user holds' : 'users hold'} it.`
                : ''}
            </>
          ) : null
        }
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
