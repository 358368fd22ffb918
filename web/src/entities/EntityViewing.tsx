import { type EntityDto, Perm } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Outlet, useParams } from 'react-router';
import { useActingAs, viewEntityAt } from '../app/acting-as';
import { usePermission } from '../app/auth';
import { notifyInfo } from '../app/notifications';
import { entityKey, useEntity } from './queries';
import { isNotFound, LoadingCard } from './shared';

/**
 * Around every /entities/{slug}/… page (issue 38 §3). The server scopes each call to the organisation shown as
 * "Viewing" (the acting-as slug), so a super admin viewing one organisation who opened another's page by its address
 * (a link, a bookmark) got 404s and "We couldn't find that organisation" until switching Viewing by hand. For someone
 * who may choose Viewing (a super admin, or permission 19), an organisation outside the one they view makes Viewing
 * follow the address, as choosing it in the header would: the header, the branding and every call of the page then
 * agree. Within the viewed organisation (a group's home) Viewing stays. Anyone else keeps the 404: their calls are
 * scoped to their own organisation whatever they send.
 * The page waits for its organisation here, so none of its own calls runs, and none 404s, under the old Viewing.
 */
export function EntityViewing() {
  const { slug = '' } = useParams();
  const mayChoose = usePermission([Perm.actingAs]);
  const viewing = useActingAs();
  const queryClient = useQueryClient();
  const entity = useEntity(mayChoose ? slug : undefined);
  const outside = mayChoose && isNotFound(entity.error) && viewing?.slug !== slug;
  const tried = useRef<string | null>(null);
  const [settled, setSettled] = useState<string | null>(null);

  useEffect(() => {
    if (!outside || tried.current === slug) return;
    tried.current = slug;
    viewEntityAt<EntityDto>(slug, (found) => queryClient.setQueryData(entityKey(slug), found))
      .then((found) => notifyInfo(`Now viewing ${found.name}.`))
      // Not theirs to view either (or gone): the page shows its 404.
      .catch(() => undefined)
      .finally(() => setSettled(slug));
  }, [outside, slug, queryClient]);

  if (mayChoose && (entity.isLoading || (outside && settled !== slug))) return <LoadingCard lines={6} />;
  return <Outlet />;
}
