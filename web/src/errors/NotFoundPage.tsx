import { useSearchParams } from 'react-router';
import { ButtonLink, Card } from '../ui';

/** /404?resource=page|user|entity|… (spec 1 §2): names what could not be found. */
export function resourceLabel(resource: string | null): string {
  const cleaned = (resource ?? '')
    .replace(/[^a-zA-Z0-9 _-]/g, '')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return cleaned.slice(0, 40) || 'page';
}

export default function NotFoundPage() {
  const [params] = useSearchParams();
  const resource = resourceLabel(params.get('resource'));
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
