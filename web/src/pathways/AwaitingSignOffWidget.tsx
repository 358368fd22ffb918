import { PathwayPerm } from '@cc/contracts';
import { Link } from 'react-router';
import { usePermissionChecker } from '../app/auth';
import { Badge, Card } from '../ui';
import { usePathways } from './api';

const linkClass = 'focus-ring rounded font-medium text-primary-800 hover:underline';

/**
 * The manager dashboard's "Pathways awaiting sign-off": each pathway of their organisations (the first 100) with
 * people whose steps are all done and who wait for the final sign-off, linking to its people filtered to them.
 * Hidden without the sign-off permission or when nobody waits.
 */
export function AwaitingSignOffWidget() {
  const can = usePermissionChecker();
  const allowed = can([PathwayPerm.signOff]) && can([...PathwayPerm.view], 'any');
  const list = usePathways({ page: 1, per_page: 100 }, allowed);
  const waiting = (list.data?.data ?? []).filter((p) => p.counts.awaiting_sign_off > 0);
  if (!allowed || !waiting.length) return null;
  return (
    <Card title="Pathways awaiting sign-off" padded={false} data-testid="pathways-awaiting-sign-off">
      <ul className="divide-y divide-slate-100">
        {waiting.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 p-4 sm:px-5">
            <Link to={`/pathways/${p.id}?status=awaiting_sign_off`} className={linkClass}>
              {p.title}
            </Link>
            <Badge tone="warning">
              {p.counts.awaiting_sign_off} {p.counts.awaiting_sign_off === 1 ? 'person' : 'people'}
            </Badge>
          </li>
        ))}
      </ul>
    </Card>
  );
}
