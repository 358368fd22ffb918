import { ComplianceMessages, CompliancePerm, type ComplianceType, formatDate } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { usePermissionChecker } from '../app/auth';
import { notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import { LoadError, LoadingCard, useNotFoundRedirect } from '../entities/shared';
import { Badge, Button, Card, PageHeader, TextField } from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { updateCompliance, useRoleCourseCompliance, validityLabel } from './api';
import { ComplianceFields, parseValidity, useComplianceSave } from './ComplianceForm';
import { useRole } from './RoleCoursesPage';

/**
 * `/entities/{slug}/update/role/{role}/course/{course}/compliance` (spec 2 §2, §4): change the type and validity of
 * a role's course. A validity change with existing results asks whether to apply it to previous results or only
 * future ones; afterwards the row is reloaded and the marker cleared. An inherited row saved here becomes this
 * entity's own override.
 */
export default function ComplianceUpdatePage() {
  const { slug = '', role = '', course = '' } = useParams();
  const roleId = Number(role);
  const courseId = Number(course);
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  const roleQuery = useRole(slug, roleId);
  const row = useRoleCourseCompliance(slug, roleId, courseId);
  useNotFoundRedirect(entity.error ?? roleQuery.error ?? row.error, 'role');
  const [type, setType] = useState<ComplianceType>('primary');
  const [validity, setValidity] = useState('');
  // Issue 33 §4: days to complete, from the day the course was required; empty leaves the due date as it is.
  const [graceDays, setGraceDays] = useState('');
  // The form takes the loaded row's values during the render that first shows it (not in an effect after it), so
  // the fields never show empty for a frame; a reload after saving does the same.
  const [shown, setShown] = useState(row.data);
  if (row.data && row.data !== shown) {
    setShown(row.data);
    setType(row.data.type);
    setValidity(row.data.validity === null ? '' : String(row.data.validity));
  }

  const save = useComplianceSave(
    (input) => {
      if (!row.data) throw new Error('not loaded');
      return updateCompliance(slug, row.data.id, input);
    },
    async (res) => {
      notifySuccess(res.message ?? ComplianceMessages.updated);
      setGraceDays('');
      // Reload the role-course compliance (spec 2 §4); the marker is cleared with the pending input.
      await queryClient.invalidateQueries({ queryKey: ['compliance', slug, roleId] });
    },
  );

  const entityName = entity.data?.name ?? slug;
  const roleName = roleQuery.data?.name ?? 'Job role';
  const coursesUrl = `/entities/${encodeURIComponent(slug)}/role/${roleId}/courses`;
  const canEdit = can([CompliancePerm.editEntityCourses]);

  return (
    <div className="space-y-6">
      <PageHeader
        title={row.data ? `${row.data.course.title} compliance` : 'Course compliance'}
        description={`${roleName} at ${entityName}.`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: entityName, to: `/entities/${slug}` },
          { label: roleName, to: coursesUrl },
          { label: 'Compliance' },
        ]}
      />
      {row.isLoading ? (
        <LoadingCard label="Loading compliance" />
      ) : row.isError || !row.data ? (
        <LoadError
          error={row.error}
          fallback={ComplianceMessages.failedToFetch}
          onRetry={() => void row.refetch()}
        />
      ) : (
        <Card>
          <dl className="mb-4 grid grid-cols-1 gap-2 text-sm sm:grid-cols-2" data-testid="compliance-current">
            <div>
              <dt className="text-slate-600">Currently</dt>
              <dd className="font-medium text-slate-900">
                {row.data.type === 'primary' ? wl.primaryComplianceAltName : wl.secondaryComplianceAltName},{' '}
                {validityLabel(row.data.validity).toLowerCase()}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Set by</dt>
              <dd className="flex flex-wrap items-center gap-2 text-slate-900">
                {row.data.entity.name}
                {row.data.inherited ? <Badge>Inherited</Badge> : null}
              </dd>
            </div>
          </dl>
          {row.data.inherited ? (
            <p className="mb-4 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
              This row comes from {row.data.entity.name}. Saving here gives {entityName} its own setting for
              this course; {row.data.entity.name}'s setting stays as it is.
            </p>
          ) : null}
          {canEdit ? (
            <form
              noValidate
              className="space-y-4"
              onSubmit={(e) => {
                e.preventDefault();
                void save.run({
                  type,
                  validity: parseValidity(validity),
                  ...(graceDays.trim() === '' ? {} : { grace_days: Number(graceDays) }),
                });
              }}
            >
              {save.formError}
              <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
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
                  hint={`Counted from the day it was required; 0: due now. Empty: unchanged (${
                    row.data.due_at && Date.parse(row.data.due_at) > Date.now()
                      ? `due by ${formatDate(row.data.due_at)}`
                      : 'due now'
                  }).`}
                />
              </div>
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Link
                  to={coursesUrl}
                  className="focus-ring rounded-lg px-4 py-2 text-center text-sm font-medium text-slate-700 hover:bg-slate-100"
                >
                  Back to courses
                </Link>
                <Button type="submit" loading={save.busy}>
                  Save
                </Button>
              </div>
            </form>
          ) : (
            <p className="text-sm text-slate-600">You can see this setting but not change it.</p>
          )}
          {save.dialog}
        </Card>
      )}
    </div>
  );
}
