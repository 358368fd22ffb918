import { ReportsPerm } from '@cc/contracts';
import { Link } from 'react-router';
import { usePermission } from '../app/auth';
import { Card } from '../ui';
import { InspectionPackButton } from './InspectionPackButton';
import { INSPECTION_PACK_PATH } from './inspection-pack';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

/**
 * The inspection pack on the manager dashboard (issue 33 §6): one click for the organisation in view, and the way to
 * every other one's (Reports → Inspection pack). Only with the compliance report's permission (13).
 */
export function InspectionPackCard({ entity }: { entity: { slug: string; name: string } }) {
  const allowed = usePermission([ReportsPerm.complianceReport]);
  if (!allowed) return null;
  return (
    <Card
      title="Inspection pack"
      data-testid="dashboard-inspection-pack"
      actions={
        <Link to={INSPECTION_PACK_PATH} className={linkClass}>
          All inspection packs
        </Link>
      }
    >
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          Everything an inspector asks about staff training for {entity.name}: a PDF with a summary against
          the CQC's quality statements, the training matrix, every gap with its plan, new starters and a page
          to sign, and a zip of certificates and evidence.
        </p>
        <InspectionPackButton slug={entity.slug} name={entity.name} />
      </div>
    </Card>
  );
}
