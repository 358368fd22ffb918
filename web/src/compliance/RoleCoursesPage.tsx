import {
  type Compliance,
  ComplianceMessages,
  CompliancePerm,
  type ComplianceType,
  formatDate,
  type Paged,
} from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Envelope, isApiError } from '../app/api';
import { usePermissionChecker } from '../app/auth';
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
  Select,
  TextField,
} from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { createCompliance, deleteCompliance, useRoleCompliance, validityLabel } from './api';
import { ComplianceFields, parseValidity, useComplianceSave } from './ComplianceForm';

interface RoleInfo {
  id: number;
  name: string;
}

export function useRole(slug: string, roleId: number) {
  return useQuery({
    queryKey: ['entities', slug, 'roles', 'one', roleId],
    enabled: Boolean(slug && roleId),
    queryFn: async () =>
      (await api.get<Envelope<RoleInfo>>(`/entities/${encodeURIComponent(slug)}/roles/${roleId}`)).data.data,
  });
}

/**
 * `/entities/{slug}/role/{role}/courses` (spec 2 §2): the courses a job role requires in this entity, own and
 * inherited from the level A parent, with their type (Mandatory / Required, white-label labels) and validity. With
 * 68 (edit entity courses) a course can be added, edited and (own rows) deleted.
 */
export default function RoleCoursesPage() {
  const { slug = '', role = '' } = useParams();
  const roleId = Number(role);
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  const roleQuery = useRole(slug, roleId);
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<Compliance | null>(null);
  const list = useRoleCompliance(slug, roleId, page);
  useNotFoundRedirect(entity.error ?? roleQuery.error ?? list.error, 'role');
  useEffect(() => {
    if (list.isError && !(isApiError(list.error) && list.error.status === 404))
      notifyError(errorEnvelope(list.error, ComplianceMessages.failedToFetch), '');
  }, [list.isError, list.error]);

  const canEdit = can([CompliancePerm.editEntityCourses]);
  const entityName = entity.data?.name ?? slug;
  const roleName = roleQuery.data?.name ?? 'Job role';
  const typeLabel = (t: ComplianceType) =>
    t === 'primary' ? wl.primaryComplianceAltName : wl.secondaryComplianceAltName;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['compliance', slug, roleId] });
  const editUrl = (r: Compliance) =>
    `/entities/${encodeURIComponent(slug)}/update/role/${roleId}/course/${r.course_id}/compliance`;

  const columns: Column<Compliance>[] = [
    {
      key: 'course',
      header: 'Course',
      render: (r) => (
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900">{r.course.title}</span>
          {r.inherited ? (
            <Badge>
              Inherited<span className="hidden sm:inline"> from {r.entity.name}</span>
            </Badge>
          ) : null}
          <span className="text-xs text-slate-600 sm:hidden">
            {typeLabel(r.type)}, {validityLabel(r.validity).toLowerCase()}
            {r.due_at && Date.parse(r.due_at) > Date.now() ? `, due by ${formatDate(r.due_at)}` : ''}
          </span>
        </span>
      ),
    },
    {
      key: 'type',
      header: 'Type',
      hideOnMobile: true,
      render: (r) => <Badge tone={r.type === 'primary' ? 'primary' : 'neutral'}>{typeLabel(r.type)}</Badge>,
    },
    { key: 'validity', header: 'Validity', hideOnMobile: true, render: (r) => validityLabel(r.validity) },
    {
      key: 'due',
      header: 'Due by',
      hideOnMobile: true,
      // A new requirement's due date (issue 33 §4): shown while it is ahead.
      render: (r) => (r.due_at && Date.parse(r.due_at) > Date.now() ? formatDate(r.due_at) : '—'),
    },
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        title={`${roleName}: courses`}
        description={`The courses ${roleName.toLowerCase()}s at ${entityName} must keep in date.`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: entityName, to: `/entities/${slug}` },
          { label: 'Job roles', to: `/entities/${slug}/roles/` },
          { label: roleName },
        ]}
        actions={
          <Link
            to={`/entities/${encodeURIComponent(slug)}/role/${roleId}/pathways`}
            className="focus-ring rounded px-2 text-sm text-primary-800 hover:underline"
          >
            Pathways
          </Link>
        }
      />
      {canEdit ? (
        <AddCourse slug={slug} roleId={roleId} taken={list.data?.data ?? []} onAdded={refresh} />
      ) : null}
      {list.isError && !list.data ? (
        <LoadError
          error={list.error}
          fallback={ComplianceMessages.failedToFetch}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <Card padded={false}>
          <DataTable
            caption={`Courses of ${roleName}`}
            columns={columns}
            rows={list.data?.data}
            rowKey={(r) => r.id}
            loading={list.isLoading}
            rowActions={(r) =>
              canEdit ? (
                <>
                  <Link
                    to={editUrl(r)}
                    className="focus-ring rounded px-2 py-1 text-sm font-medium text-primary-800 hover:underline"
                    aria-label={`Edit ${r.course.title}`}
                  >
                    Edit
                  </Link>
                  {r.inherited ? null : (
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-danger-700"
                      onClick={() => setDeleting(r)}
                      aria-label={`Remove ${r.course.title}`}
                    >
                      Remove
                    </Button>
                  )}
                </>
              ) : null
            }
            empty={
              <EmptyState
                title="No courses yet"
                description={`No course is required of ${roleName.toLowerCase()}s at ${entityName} yet.`}
              />
            }
          />
          <CardPagination meta={list.data?.meta} onPageChange={setPage} label="Course pages" />
        </Card>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Remove course?"
        confirmLabel="Remove"
        message={
          deleting ? (
            <>
              <strong>{deleting.course.title}</strong> will no longer be required of this job role here.
            </>
          ) : null
        }
        onConfirm={async () => {
          if (!deleting) return;
          try {
            notifySuccess(await deleteCompliance(deleting.id));
            await refresh();
          } catch (error) {
            notifyError(errorEnvelope(error, 'Could not remove.'), 'Could not remove.');
            throw error;
          }
        }}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

interface CourseOption {
  id: number;
  title: string;
}

function AddCourse({
  slug,
  roleId,
  taken,
  onAdded,
}: {
  slug: string;
  roleId: number;
  taken: Compliance[];
  onAdded: () => Promise<unknown>;
}) {
  const [courseId, setCourseId] = useState('');
  const [type, setType] = useState<ComplianceType>('primary');
  const [validity, setValidity] = useState('12');
  const [graceDays, setGraceDays] = useState('');
  // The courses this entity may require (GET /compliance/{entity}/courses, permission 68 like adding a row).
  const courses = useQuery({
    queryKey: ['compliance', slug, 'course-options'],
    queryFn: async () =>
      (
        await api.get<Paged<CourseOption>>(`/compliance/${encodeURIComponent(slug)}/courses`, {
          params: { per_page: 100 },
        })
      ).data.data,
  });
  const ownIds = new Set(taken.filter((t) => !t.inherited).map((t) => t.course_id));
  const options = (courses.data ?? []).filter((c) => !ownIds.has(c.id));
  const save = useComplianceSave(
    (input) => createCompliance(slug, roleId, Number(courseId), input),
    (res) => {
      notifySuccess(res.message ?? ComplianceMessages.updated);
      setCourseId('');
      setGraceDays('');
      void onAdded();
    },
  );
  return (
    <Card title="Add a course">
      <form
        noValidate
        className="grid grid-cols-1 gap-4 sm:grid-cols-4 sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          void save.run({
            type,
            validity: parseValidity(validity),
            ...(graceDays.trim() === '' ? {} : { grace_days: Number(graceDays) }),
          });
        }}
      >
        <div className="sm:col-span-4">{save.formError}</div>
        <Select
          label="Course"
          value={courseId}
          placeholder={courses.isLoading ? 'Loading courses…' : 'Choose a course'}
          options={options.map((c) => ({ value: String(c.id), label: c.title }))}
          onChange={(e) => setCourseId(e.target.value)}
          error={save.errors.courseId}
          required
        />
        <ComplianceFields
          type={type}
          validity={validity}
          onType={setType}
          onValidity={setValidity}
          errors={save.errors}
        />
        <TextField
          label="Days to complete"
          type="number"
          inputMode="numeric"
          min={0}
          max={365}
          value={graceDays}
          onChange={(e) => setGraceDays(e.target.value)}
          error={save.errors.grace_days}
          hint="Until then it is due, not out of date. Empty: as the organisation sets."
        />
        <div>
          <Button type="submit" loading={save.busy} disabled={!courseId} className="w-full">
            Add course
          </Button>
        </div>
      </form>
      {save.dialog}
    </Card>
  );
}
