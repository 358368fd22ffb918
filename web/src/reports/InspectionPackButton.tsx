import { formatDateTime, ReportsPerm } from '@cc/contracts';
import { useEffect, useState } from 'react';
import { api, type Envelope } from '../app/api';
import { usePermissionChecker } from '../app/auth';
import { notifyError } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { taskStarted } from '../tasks/api';
import { Button } from '../ui';
import { download } from './api';

/** GET /inspection-packs/{id} (server/src/reports/inspection-pack.ts). */
export interface InspectionPackStatus {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  entity: { slug: string; name: string };
  created_at: string;
  finished_at: string | null;
  error: string | null;
  pdf_url: string | null;
  zip_url: string | null;
}

export const PACK_POLL_MS = 1000;
const FAILED = 'The inspection pack could not be made. Please try again.';

/** The button's words: what it will do, then "Preparing…" while the pack is made (issue 33 §6). */
export function inspectionPackButtonText(
  status: InspectionPackStatus['status'] | null,
  starting: boolean,
): string {
  if (starting || status === 'queued' || status === 'running') return 'Preparing the inspection pack…';
  return status === 'done' ? 'Make the pack again' : 'Make inspection pack';
}

/**
 * "Inspection pack" for one home (issue 13): one click queues the pack (POST /entities/{slug}/inspection-pack), the
 * progress shows while the job runs (and in the header's tasks, tasks/api.ts), then the PDF and the zip of evidence
 * download. Shown to callers with the compliance report's permission (13): on the home's page, the manager dashboard
 * and Reports → Inspection pack (issue 33 §6).
 */
export function InspectionPackButton({ slug, name }: { slug: string; name: string }) {
  const can = usePermissionChecker();
  const [pack, setPack] = useState<InspectionPackStatus | null>(null);
  const [starting, setStarting] = useState(false);
  const running = pack?.status === 'queued' || pack?.status === 'running';

  useEffect(() => {
    if (!pack || !running) return;
    const t = setTimeout(async () => {
      try {
        const res = await api.get<Envelope<InspectionPackStatus>>(`/inspection-packs/${pack.id}`);
        setPack(res.data.data);
        taskStarted();
      } catch {
        setPack({ ...pack, status: 'failed', error: FAILED });
      }
    }, PACK_POLL_MS);
    return () => clearTimeout(t);
  }, [pack, running]);

  if (!can([ReportsPerm.complianceReport])) return null;

  const start = async () => {
    setStarting(true);
    try {
      const res = await api.post<Envelope<InspectionPackStatus>>(
        `/entities/${encodeURIComponent(slug)}/inspection-pack`,
      );
      setPack(res.data.data);
      // The pack is a long job: the header's tasks count it at once.
      taskStarted();
    } catch (error) {
      notifyError(errorEnvelope(error, FAILED), FAILED);
    } finally {
      setStarting(false);
    }
  };
  const fetchFile = (kind: 'pdf' | 'zip') =>
    pack
      ? download(
          () => api.get<Blob>(`/inspection-packs/${pack.id}/${kind}`),
          `inspection-pack.${kind}`,
          'The file could not be downloaded.',
        )
      : undefined;
  const percent = Math.round((pack?.progress ?? 0) * 100);

  return (
    <div className="flex max-w-full flex-col items-start gap-2" data-testid="inspection-pack">
      <Button
        variant="secondary"
        onClick={start}
        loading={starting || running}
        aria-label={`${inspectionPackButtonText(pack?.status ?? null, starting).replace('…', '')} for ${name}`}
        aria-describedby={`inspection-pack-${slug}`}
      >
        {inspectionPackButtonText(pack?.status ?? null, starting)}
      </Button>
      <div id={`inspection-pack-${slug}`} className="max-w-md text-sm text-slate-700" aria-live="polite">
        {running ? (
          <div className="flex flex-col gap-1">
            <span>
              {name}: {percent}% done
            </span>
            <div
              role="progressbar"
              aria-label={`Inspection pack of ${name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="h-2 w-full min-w-40 overflow-hidden rounded bg-slate-200"
            >
              <div className="h-full bg-primary-600" style={{ width: `${Math.max(4, percent)}%` }} />
            </div>
          </div>
        ) : null}
        {pack?.status === 'done' ? (
          <div className="flex flex-col gap-2">
            <span>
              Inspection pack of {name} ready: figures as at {formatDateTime(pack.created_at)}.
            </span>
            <div className="flex flex-wrap gap-2">
              <Button size="sm" onClick={() => fetchFile('pdf')}>
                Download PDF
              </Button>
              <Button size="sm" variant="secondary" onClick={() => fetchFile('zip')}>
                Download evidence (zip)
              </Button>
            </div>
          </div>
        ) : null}
        {pack?.status === 'failed' ? (
          <span role="alert" className="text-danger-700">
            {pack.error ?? FAILED}
          </span>
        ) : null}
      </div>
    </div>
  );
}
