import { formatDate } from '@cc/contracts';
import { Link } from 'react-router';
import { useWhitelabel } from '../../app/whitelabel';
import { Card } from '../../ui';
import { useLearnerCareCertificate } from './api';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

/**
 * The learner's certificate card: how far they are and the next criteria to evidence, with a link to their
 * certificate. Hidden when they have no certificate (or it cannot be loaded).
 */
export function LearnerCareCertificateWidget() {
  const wl = useWhitelabel();
  const q = useLearnerCareCertificate();
  const cert = q.data?.certificate;
  if (!cert) return null;
  const name = wl.certificateGroupMenuName;
  return (
    <Card
      title={`My ${name}`}
      data-testid="care-certificate-learner-widget"
      actions={
        <Link to={`/care-certificate/${cert.uuid}`} className={linkClass}>
          Open my {name}
        </Link>
      }
    >
      <p className="text-sm text-slate-800">
        {cert.status === 'complete'
          ? `Complete${cert.completed_on ? ` on ${formatDate(cert.completed_on)}` : ''}.`
          : `${cert.standards_approved} of ${cert.standards_total} standards approved, ${cert.criteria_evidenced} of ${cert.criteria_total} criteria with evidence.`}
        {cert.status !== 'complete' && cert.expected_by ? (
          <span className={cert.overdue ? 'font-semibold text-danger-700' : undefined}>
            {' '}
            {cert.overdue ? 'Overdue since' : 'Expected by'} {formatDate(cert.expected_by)}.
          </span>
        ) : null}
      </p>
      {cert.status !== 'complete' && cert.criteria_total > 0 ? (
        <div
          className="mt-3 h-2 overflow-hidden rounded-full bg-slate-200"
          role="progressbar"
          aria-label="Criteria with evidence"
          aria-valuemin={0}
          aria-valuemax={cert.criteria_total}
          aria-valuenow={cert.criteria_evidenced}
        >
          <div
            className="h-full bg-primary-700"
            style={{ width: `${Math.round((cert.criteria_evidenced / cert.criteria_total) * 100)}%` }}
          />
        </div>
      ) : null}
      {q.data?.next.length ? (
        <>
          <h3 className="mt-4 text-sm font-semibold text-slate-900">Next criteria</h3>
          <ul className="mt-2 space-y-2">
            {q.data.next.map((c) => (
              <li key={`${c.standard_number}-${c.code}`} className="text-sm text-slate-800">
                <span className="font-semibold tabular-nums">{c.code}</span> {c.text}
                <span className="block text-xs text-slate-600">
                  Standard {c.standard_number}: {c.standard_title}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Card>
  );
}
