import { ContentPerm, Messages, UpdateCourseCategoryBody } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { usePermissionChecker } from '../app/auth';
import { showModal } from '../app/modal';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import { errorEnvelope, LoadError, LoadingCard, useNotFoundRedirect } from '../entities/shared';
import { type NameItem, NameModal } from '../roles/NameModal';
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
} from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { type CategoryRow, deleteCategory, saveCategory, useCategories } from './api';

const MODAL = 'course-category-form';
const FETCH_FAILED = 'Failed to fetch course categories.';

/**
 * `/entities/{slug}/course-categories` (spec 2 §2; the calls are ours: GET/POST /course-categories, PATCH/DELETE
 * /course-categories/{id}). A category belongs to the organisation it was created for; the server takes that from
 * the acting-as entity, which this page sets to the page's entity. Categories of a parent organisation (or the
 * platform's) are listed read-only. 63 opens the list, 27 adds and 28 renames or deletes (courses/service.ts).
 */
export default function CourseCategoriesPage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  useNotFoundRedirect(entity.error, 'entity');
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<CategoryRow | null>(null);
  const canView = can([ContentPerm.contentCreator]);
  const list = useCategories(slug, { page, search, enabled: canView && Boolean(entity.data) });

  useEffect(() => {
    if (list.isError) notifyError(errorEnvelope(list.error, FETCH_FAILED), FETCH_FAILED);
  }, [list.isError, list.error]);

  if (entity.isLoading) return <LoadingCard lines={6} />;
  if (entity.isError || !entity.data)
    return (
      <LoadError
        error={entity.error}
        fallback={Messages.failedToFetchEntities}
        onRetry={() => void entity.refetch()}
      />
    );
  const e = entity.data;
  const canCreate = can([ContentPerm.contentCreator, ContentPerm.addCourses]);
  const canEdit = can([ContentPerm.contentCreator, ContentPerm.editCourses]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['entity-content', slug, 'categories'] });

  const save = async (item: NameItem, body: unknown) => {
    const { name } = body as { name: string };
    const res = await saveCategory(slug, item.id, name);
    notifySuccess(res.message ?? (item.id ? Messages.categoryUpdated : Messages.categoryCreated));
    await refresh();
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      notifySuccess((await deleteCategory(slug, deleting.id)) ?? Messages.categoryDeleted);
      await refresh();
    } catch (error) {
      notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
      throw error;
    }
  };

  const ownerLabel = (r: CategoryRow) =>
    r.entity_id === null
      ? 'Platform'
      : r.entity_id === e.parent?.id
        ? `From ${e.parent.name}`
        : 'From another organisation';

  const columns: Column<CategoryRow>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (r) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900">{r.name}</span>
          {r.entity_id !== e.id ? <Badge>{ownerLabel(r)}</Badge> : null}
        </span>
      ),
    },
  ];
  const addButton = canCreate ? (
    <Button onClick={() => showModal(MODAL, { name: '' })}>Add category</Button>
  ) : undefined;

  return (
    <div>
      <PageHeader
        title="Course categories"
        description={`Categories group the courses of ${e.name} in the content creator and learners' lists.`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: e.name, to: `/entities/${slug}` },
          { label: 'Course categories' },
        ]}
        actions={addButton}
      />
      {!canView ? (
        <EmptyState
          title="No access"
          description="You need the content creator permission to manage course categories."
        />
      ) : list.isError && !list.data ? (
        <LoadError error={list.error} fallback={FETCH_FAILED} onRetry={() => void list.refetch()} />
      ) : (
        <Card padded={false}>
          <div className="border-b border-slate-200 p-4">
            <div className="w-full sm:max-w-xs">
              <SearchInput
                label="Search course categories"
                onSearch={(v) => {
                  setSearch(v);
                  setPage(1);
                }}
              />
            </div>
          </div>
          <DataTable
            caption={`Course categories of ${e.name}`}
            columns={columns}
            rows={list.data?.data}
            rowKey={(r) => r.id}
            loading={list.isLoading}
            rowActions={(r) =>
              r.entity_id === e.id && canEdit ? (
                <>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => showModal(MODAL, { id: r.id, name: r.name })}
                    aria-label={`Rename ${r.name}`}
                  >
                    Rename
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-danger-700"
                    onClick={() => setDeleting(r)}
                    aria-label={`Delete ${r.name}`}
                  >
                    Delete
                  </Button>
                </>
              ) : null
            }
            empty={
              search ? (
                <EmptyState title="No categories match" description="Try another search." />
              ) : (
                <EmptyState
                  title="No course categories yet"
                  description={`Add the first category for ${e.name}.`}
                  action={addButton}
                />
              )
            }
          />
          <CardPagination meta={list.data?.meta} onPageChange={setPage} label="Course category pages" />
        </Card>
      )}
      <NameModal name={MODAL} noun="Category" schema={UpdateCourseCategoryBody} onSave={save} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete category?"
        message={
          deleting ? (
            <>
              <strong>{deleting.name}</strong> will be deleted. Its courses stay, without a category.
            </>
          ) : null
        }
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
