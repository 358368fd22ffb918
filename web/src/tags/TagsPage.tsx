import { type Tag, TagBody, TagsMessages, TagsPerm } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { isApiError } from '../app/api';
import { usePermissionChecker } from '../app/auth';
import { showModal } from '../app/modal';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import { errorEnvelope, LoadError, useNotFoundRedirect } from '../entities/shared';
import { type NameItem, NameModal } from '../roles/NameModal';
import {
  Button,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  PageHeader,
  SearchInput,
} from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { createTag, deleteTag, renameTag, useTags } from './api';
import { TagUsersPanel } from './TagUsersPanel';

const MODAL = 'tags-form';

/**
 * `/entities/{slug}/tags` (spec 1 §2): the entity's tags with their user counts; add and rename in the named modal,
 * delete after a confirm (95); "Users" opens the tag's panel, where its users are listed, added and removed (96).
 */
export default function TagsPage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const [openTagId, setOpenTagId] = useState<number | null>(null);
  const list = useTags(slug, { page, search });
  useNotFoundRedirect(entity.error ?? list.error, 'entity');
  useEffect(() => {
    if (list.isError && !(isApiError(list.error) && list.error.status === 404))
      notifyError(errorEnvelope(list.error, TagsMessages.failedToFetch), '');
  }, [list.isError, list.error]);

  const canManage = can([TagsPerm.manage]);
  const canLink = can([TagsPerm.link]);
  const entityName = entity.data?.name ?? slug;
  const openTag = list.data?.data.find((t) => t.id === openTagId) ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['tags'] });

  const save = async (item: NameItem, body: unknown) => {
    const res = item.id ? await renameTag(item.id, body) : await createTag(slug, body);
    notifySuccess(res.data.message ?? (item.id ? TagsMessages.updated : TagsMessages.created));
    await refresh();
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      const res = await deleteTag(deleting.id);
      notifySuccess(res.data?.message ?? TagsMessages.deleted);
      if (openTagId === deleting.id) setOpenTagId(null);
      await refresh();
    } catch (error) {
      notifyError(errorEnvelope(error, 'Could not delete.'), 'Could not delete.');
      throw error;
    }
  };
  const addTag = canManage ? (
    <Button onClick={() => showModal(MODAL, { name: '' })}>Add tag</Button>
  ) : undefined;

  const columns: Column<Tag>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (t) => <span className="font-medium text-slate-900">{t.name}</span>,
    },
    { key: 'users_count', header: 'Users', render: (t) => String(t.users_count) },
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        title="Tags"
        description={`Tags group the staff of ${entityName} (a shift, a team, a project) so they can be reported on together.`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: entityName, to: `/entities/${slug}` },
          { label: 'Tags' },
        ]}
        actions={addTag}
      />
      {list.isError && !list.data ? (
        <LoadError
          error={list.error}
          fallback={TagsMessages.failedToFetch}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <Card padded={false} className="relative overflow-hidden">
          <div className="border-b border-slate-200 p-4">
            <SearchInput
              label="Search tags"
              onSearch={(v) => {
                setSearch(v);
                setPage(1);
              }}
            />
          </div>
          <DataTable
            caption="Tags"
            columns={columns}
            rows={list.data?.data}
            rowKey={(t) => t.id}
            loading={list.isLoading}
            rowActions={(t) => (
              // Wraps under the name on a phone instead of pushing Delete off the card.
              <div className="flex flex-wrap justify-end gap-1">
                <Button
                  size="sm"
                  variant={openTagId === t.id ? 'secondary' : 'ghost'}
                  aria-expanded={openTagId === t.id}
                  aria-controls="tag-users"
                  onClick={() => setOpenTagId(openTagId === t.id ? null : t.id)}
                  aria-label={`Users of ${t.name}`}
                >
                  Users
                </Button>
                {canManage ? (
                  <>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => showModal(MODAL, { id: t.id, name: t.name })}
                      aria-label={`Rename ${t.name}`}
                    >
                      Rename
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-danger-700"
                      onClick={() => setDeleting(t)}
                      aria-label={`Delete ${t.name}`}
                    >
                      Delete
                    </Button>
                  </>
                ) : null}
              </div>
            )}
            empty={
              search ? (
                <EmptyState title="No tags match" description="Try another search." />
              ) : (
                <EmptyState
                  title="No tags yet"
                  description={`Add a tag, then add the staff of ${entityName} who belong to it.`}
                  action={addTag}
                />
              )
            }
          />
          <CardPagination meta={list.data?.meta} onPageChange={setPage} label="Tags pages" />
        </Card>
      )}
      {openTag ? (
        <TagUsersPanel
          key={openTag.id}
          tag={openTag}
          canLink={canLink}
          onChanged={refresh}
          onClose={() => setOpenTagId(null)}
        />
      ) : null}
      <NameModal name={MODAL} noun="Tag" schema={TagBody} onSave={save} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete tag?"
        message={
          deleting ? (
            <>
              <strong>{deleting.name}</strong> will be deleted.
              {deleting.users_count
                ? ` ${deleting.users_count} ${deleting.users_count === 1 ? 'user loses' : 'users lose'} the tag; their accounts stay as they are.`
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
