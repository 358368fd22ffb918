import { useSearchParams } from 'react-router';
import { useWhitelabel } from '../app/whitelabel';
import { ButtonLink, Card } from '../ui';
import { organisationWord } from '../whitelabel/words';

/**
 * /404?resource=page|user|entity|… (spec 1 §2): names what could not be found, in the words users read: an entity is
 * the organisation's own word for one (issue 38 §3: "We couldn't find that entity" showed the data model's word), a
 * role a job role, a type a user type.
 */
export function resourceLabel(resource: string | null, organisation = 'organisation'): string {
  const cleaned = (resource ?? '')
    .replace(/[^a-zA-Z0-9 _-]/g, '')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  const plain: Record<string, string> = { entity: organisation, role: 'job role', type: 'user type' };
  return plain[cleaned] ?? (cleaned.slice(0, 40) || 'page');
}

export default function NotFoundPage() {
  const [params] = useSearchParams();
  const wl = useWhitelabel();
  const resource = resourceLabel(params.get('resource'), organisationWord(wl).toLowerCase());
  return (
    <Card>
      <div className="space-y-3 py-2 text-center">
        <p className="text-sm font-semibold tracking-wide text-slate-500 uppercase">Error 404</p>
        <h1 className="text-2xl font-semibold text-slate-900">We couldn't find that {resource}</h1>
        <p className="text-sm text-slate-600">
          It may have been moved or deleted, or the link may be mistyped.
        </p>
        <div className="flex justify-center gap-2 pt-2">
          <ButtonLink to="/">Go to the start page</ButtonLink>
        </div>
      </div>
    </Card>
  );
}
