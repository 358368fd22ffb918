import type { OfflineSyncOutcome } from '@cc/contracts';
import type { StoredDownload } from './library';
import { refusalsOf, refusalText } from './refusals';

/** The steps the server did not accept in a synced attempt, each with its reason (refusals.ts). */
export function RefusedSteps({
  outcome,
  downloads,
}: {
  outcome: OfflineSyncOutcome;
  downloads: readonly StoredDownload[];
}) {
  const refused = refusalsOf(outcome);
  if (!refused.length) return null;
  return (
    <ul className="mt-1 list-disc pl-5 text-danger-700" data-testid="offline-refused">
      {refused.map((r) => (
        <li key={`${r.item}:${r.id}:${r.message}`} className="wrap-anywhere">
          {refusalText(r, downloads)}
        </li>
      ))}
    </ul>
  );
}
