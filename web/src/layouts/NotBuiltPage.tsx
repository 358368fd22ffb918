import { type UIMatch, useMatches } from 'react-router';
import type { RouteHandle } from '../app/route-meta';
import { ButtonLink, Card, PageHeader } from '../ui';

/**
 * The one placeholder for a route whose capability is not built yet (listed in web/NOT_BUILT.md).
 * Plain and honest: the route exists, the screen comes later.
 */
export default function NotBuiltPage() {
  const matches = useMatches() as UIMatch<unknown, RouteHandle | undefined>[];
  const title = [...matches].reverse().find((m) => m.handle?.title)?.handle?.title ?? 'Coming soon';
  return (
    <div>
      <PageHeader title={title} />
      <Card>
        <div className="flex flex-col items-start gap-3 py-4" data-testid="not-built">
          <p className="text-base font-medium text-slate-900">
            This part of the product is not available yet.
          </p>
          <p className="text-sm text-slate-600">
            We are still building this screen. Everything you can already use is in the menu.
          </p>
          <ButtonLink to="/" variant="secondary">
            Back to the start page
          </ButtonLink>
        </div>
      </Card>
    </div>
  );
}
