import {
  CELL_STATUS_LABELS,
  CELL_STATUSES,
  type CellStatus,
  ComplianceMessages,
  CompliancePerm,
  formatDate,
  type Paged,
  type UserComplianceCourse,
} from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { api, type Envelope } from '../app/api';
import { useAuth, usePermissionChecker } from '../app/auth';
import { scrollToHash } from '../app/hash-scroll';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope, LoadError, serverFieldErrors } from '../entities/shared';
import { todayInput } from '../results/api';
import { exemptionErrors, type FieldErrors } from '../results/forms';
import {
  Badge,
  type BadgeTone,
  Button,
  Card,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  Pagination,
  TextArea,
  TextField,
} from '../ui';
import { CourseStatusBadge } from './CourseStatusBadge';

const STATUS_TONE: Record<CellStatus, BadgeTone> = {
  in_date: 'success',
  expiring: 'warning',
  expired: 'danger',
  missing: 'neutral',
  exempt: 'primary',
};
/** Each cell status with its words (contracts CELL_STATUS_LABELS) and badge tone. */
export const STATUS_LABEL = Object.fromEntries(
  CELL_STATUSES.map((s) => [s, { label: CELL_STATUS_LABELS[s], tone: STATUS_TONE[s] }]),
) as Record<CellStatus, { label: string; tone: BadgeTone }>;

export const formatDay = (iso: string | null | undefined) => formatDate(iso, undefined, '—');

/**
 * The user's compliance courses (issue 5 item 2): the courses their job role requires in their primary entity,
 * with status and expiry. With 43 (update user compliance courses) a course can be exempted or the exemption lifted.
 */
export function UserComplianceCourses({ userRef, name }: { userRef: string; name: string }) {
  const can = usePermissionChecker();
  const { user } = useAuth();
  // Self, or 24 / 43 (a 403 would send the whole page to /403).
  const allowed =
    user?.uuid === userRef ||
    can([CompliancePerm.searchTrainingRecords, CompliancePerm.updateUserComplianceCourses], 'any');
  return allowed ? <UserComplianceList userRef={userRef} name={name} /> : null;
}

function UserComplianceList({ userRef, name }: { userRef: string; name: string }) {
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [changing, setChanging] = useState<UserComplianceCourse | null>(null);
  // An exemption asks why, and until when (issue 28 item 6); lifting one asks nothing.
  const [reason, setReason] = useState('');
  const [endDate, setEndDate] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const startChange = (r: UserComplianceCourse) => {
    setReason('');
    setEndDate('');
    setFieldErrors({});
    setChanging(r);
  };
  const key = ['users', userRef, 'compliance-courses'];
  // `#course-{id}` (a matrix cell links here): that course's row is marked and scrolled to; the page is the largest
  // so the course is on it.
  const { hash } = useLocation();
  const target = /^#course-(\d+)$/.exec(hash)?.[1];
  const perPage = target ? 100 : undefined;
  const list = useQuery({
    queryKey: [...key, page, perPage],
    queryFn: async () =>
      (
        await api.get<Paged<UserComplianceCourse>>(
          `/users/${encodeURIComponent(userRef)}/compliance-courses`,
          {
            params: { page, per_page: perPage },
          },
        )
      ).data,
    placeholderData: (previous) => previous,
  });
  const canChange = can([CompliancePerm.updateUserComplianceCourses]);
  const loaded = Boolean(list.data);
  useEffect(() => {
    if (loaded && target) scrollToHash(`#course-${target}`);
  }, [loaded, target]);
  const columns: Column<UserComplianceCourse>[] = [
    {
      key: 'course',
      header: 'Course',
      render: (r) => (
        <span
          id={`course-${r.course.id}`}
          data-highlighted={String(r.course.id) === target || undefined}
          className={
            String(r.course.id) === target
              ? 'flex scroll-mt-16 flex-wrap items-center gap-2 rounded bg-amber-100 px-1 ring-2 ring-amber-400'
              : 'flex scroll-mt-16 flex-wrap items-center gap-2'
          }
        >
          <span className="font-medium text-slate-900">{r.course.title}</span>
          <span className="text-xs text-slate-600">
            {r.type === 'primary' ? wl.primaryComplianceAltName : wl.secondaryComplianceAltName}
          </span>
        </span>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (r) => (
        <span className="flex flex-wrap gap-1">
          <CourseStatusBadge
            status={r.course_status}
            date={r.status_date}
            attempted={r.latest_result !== null && !r.latest_result.passed}
          />
          {/* An exemption that has ended: expired, and why. */}
          {r.exempt && r.status !== 'exempt' ? <Badge tone="neutral">Exemption ended</Badge> : null}
          {r.exemption ? (
            <span className="basis-full text-xs text-slate-600">
              {r.exemption.end_date
                ? `${r.status === 'exempt' ? 'Until' : 'Ended'} ${formatDay(r.exemption.end_date)}`
                : 'No end date'}
              {r.exemption.reason ? ` · Reason: ${r.exemption.reason}` : ''}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'completed',
      header: 'Completed',
      hideOnMobile: true,
      render: (r) => formatDay(r.latest_result?.passed ? r.latest_result.completed_at : null),
    },
    {
      key: 'expires',
      header: 'Expires',
      // An exemption's end date, when it has one, is its expiry.
      render: (r) =>
        r.latest_result?.passed
          ? r.latest_result.expires_at
            ? formatDay(r.latest_result.expires_at)
            : 'Never'
          : '—',
    },
  ];
  const change = async () => {
    if (!changing) return;
    const exempting = !changing.exempt;
    if (exempting) {
      const errors = exemptionErrors({ notes: reason, end_date: endDate }, todayInput());
      setFieldErrors(errors);
      // A rejection keeps the dialog open, with the fields' messages.
      if (Object.keys(errors).length) throw new Error('invalid');
    }
    try {
      const res = await api.patch<Envelope<UserComplianceCourse>>(
        `/users/${encodeURIComponent(userRef)}/compliance-courses/${changing.course.id}`,
        exempting ? { exempt: true, notes: reason.trim(), end_date: endDate || null } : { exempt: false },
      );
      notifySuccess(res.data.message ?? ComplianceMessages.updated);
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields.notes || fields.end_date) setFieldErrors(fields);
      else notifyError(errorEnvelope(error, 'Could not save.'), 'Could not save.');
      throw error;
    }
  };
  return (
    <Card title="Compliance courses" padded={false} data-testid="user-compliance-courses">
      {list.isError && !list.data ? (
        <LoadError
          error={list.error}
          fallback={ComplianceMessages.failedToFetch}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <>
          <DataTable
            caption={`Compliance courses of ${name}`}
            columns={columns}
            rows={list.data?.data}
            rowKey={(r) => r.course.id}
            loading={list.isLoading}
            rowActions={(r) =>
              canChange ? (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => startChange(r)}
                  aria-label={`${r.exempt ? 'Lift exemption from' : 'Exempt from'} ${r.course.title}`}
                >
                  {r.exempt ? 'Lift exemption' : 'Exempt'}
                </Button>
              ) : null
            }
            empty={
              <EmptyState
                title="No compliance courses"
                description="Their job role requires no course here, or they have no job role."
              />
            }
          />
          {list.data && list.data.meta.last_page > 1 ? (
            <div className="border-t border-slate-200 px-4">
              <Pagination meta={list.data.meta} onPageChange={setPage} label="Compliance course pages" />
            </div>
          ) : null}
        </>
      )}
      <ConfirmDialog
        open={changing !== null}
        title={changing?.exempt ? 'Lift the exemption?' : 'Exempt from this course?'}
        tone="primary"
        confirmLabel={changing?.exempt ? 'Lift exemption' : 'Exempt'}
        message={
          changing ? (
            changing.exempt ? (
              `${name} will need ${changing.course.title} again.`
            ) : (
              <div className="space-y-4">
                <p>
                  {name} will show as exempt from {changing.course.title}, and count as compliant, until the
                  end date or until the exemption is lifted.
                </p>
                <TextArea
                  label="Reason"
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  error={fieldErrors.notes}
                  maxLength={2000}
                  required
                  hint="Why they are exempt: shown in the exemptions list and the inspection pack."
                />
                <TextField
                  label="End date"
                  type="date"
                  min={todayInput(new Date(Date.now() + 86_400_000))}
                  value={endDate}
                  onChange={(e) => setEndDate(e.target.value)}
                  error={fieldErrors.end_date}
                  hint="Optional: from this day the course is required again (they get a reminder first)."
                />
              </div>
            )
          ) : null
        }
        onConfirm={change}
        onClose={() => setChanging(null)}
      />
    </Card>
  );
}
