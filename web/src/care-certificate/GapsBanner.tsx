import type { CertificateView } from '@cc/contracts';
import { standardList, standardsWithoutCriteria } from './labels';

/**
 * Issue 32 §3: a certificate on a version whose standards are not all filled in can be used; this says which
 * standards have no criteria yet, so nobody wonders why they cannot be evidenced. `learner`: the words for the
 * person herself.
 */
export function GapsBanner({ view, learner }: { view: CertificateView; learner: boolean }) {
  const missing = standardsWithoutCriteria(view).map((s) => s.number);
  if (!missing.length || view.status === 'complete') return null;
  const which = standardList(missing);
  return (
    <div
      role="note"
      data-testid="criteria-gaps"
      className="rounded-lg border border-warning-500/30 bg-warning-100 px-4 py-3 text-sm text-warning-800"
    >
      <p className="font-semibold">
        {which} of {view.version.title} {missing.length === 1 ? 'has' : 'have'} no assessment criteria yet
      </p>
      <p className="mt-1">
        {learner
          ? `You can work on every other standard now. ${missing.length === 1 ? 'It' : 'They'} can be evidenced once the criteria are added, and your certificate is finished after that.`
          : `${missing.length === 1 ? 'It' : 'They'} cannot be evidenced or approved until a super admin imports the criteria (Standards page), so this certificate cannot be finished before then. Every other standard can be worked on now.`}
      </p>
    </div>
  );
}
