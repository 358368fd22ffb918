import { useWhitelabel } from '../app/whitelabel';
import { Badge, ButtonLink, Card } from '../ui';
import { useMyDocuments } from './api';
import { DOCUMENT_STATUS } from './labels';

/**
 * "Policies to read again" on the learner's dashboards (GET /documents/mine): the required documents with a new
 * version, each with what changed. Documents read for the first time are already rows of the to-do ("Read"), so
 * they are not repeated here; nothing at all shows when no policy changed.
 */
export function PoliciesToRead() {
  const wl = useWhitelabel();
  const mine = useMyDocuments();
  const due = (mine.data ?? []).filter((d) => d.status === 'new_version');
  if (!due.length) return null;
  return (
    <Card title="Policies to read again" padded={false} data-testid="policies-to-read">
      <ul className="divide-y divide-slate-100">
        {due.map((d) => (
          <li
            key={d.id}
            className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="min-w-0 space-y-1">
              <p className="font-medium text-slate-900 wrap-anywhere">{d.title}</p>
              <p className="flex flex-wrap items-center gap-2">
                <Badge tone={DOCUMENT_STATUS[d.status].tone}>{DOCUMENT_STATUS[d.status].label}</Badge>
                <Badge tone="primary">
                  {d.type === 'primary' ? wl.primaryComplianceAltName : wl.secondaryComplianceAltName}
                </Badge>
              </p>
              {d.change_note ? (
                <p className="text-sm text-slate-700 wrap-anywhere">
                  What changed in version {d.version}: {d.change_note}
                </p>
              ) : null}
            </div>
            <ButtonLink
              to={`/document/${d.id}`}
              aria-label={`Read ${d.title}`}
              className="w-full shrink-0 sm:w-auto"
            >
              Read
            </ButtonLink>
          </li>
        ))}
      </ul>
    </Card>
  );
}
