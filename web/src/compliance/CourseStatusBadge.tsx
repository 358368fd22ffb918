import { COURSE_STATUS_LABELS, type CourseStatus, courseStatusText } from '@cc/contracts';
import { Badge, type BadgeTone } from '../ui';

/** The badge tone of each status (contracts course-status.ts): never colour alone, the badge says the status. */
export const COURSE_STATUS_TONE: Record<CourseStatus, BadgeTone> = {
  in_date: 'success',
  expiring: 'warning',
  expired: 'danger',
  missing: 'danger',
  exempt: 'primary',
  due: 'neutral',
  pending: 'primary',
  not_required: 'neutral',
};

/** The one status of a person x course as a badge and, beside it, its line (courseStatusText): "Due by 01/03/2027". */
export function CourseStatusBadge({
  status,
  date,
  attempted = false,
}: {
  status: CourseStatus;
  date: string | null;
  attempted?: boolean;
}) {
  const label = COURSE_STATUS_LABELS[status];
  const line = courseStatusText({ status, date, attempted });
  return (
    <span className="inline-flex flex-wrap items-baseline gap-1">
      <Badge tone={COURSE_STATUS_TONE[status]}>{label}</Badge>
      {/* The line only when it says more than the badge ("Exempt" alone says it once). */}
      {line === label ? null : <span className="text-xs text-slate-700">{line}</span>}
    </span>
  );
}
