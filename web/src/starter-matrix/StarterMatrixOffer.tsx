import { STARTER_MATRIX_PERMISSIONS } from '@cc/contracts';
import { useState } from 'react';
import { usePermission } from '../app/auth';
import { Button, ButtonLink, Card } from '../ui';
import { useStarterMatrix } from './api';

const dismissKey = (slug: string) => `cc_starter_matrix_not_now:${slug}`;

function dismissedInThisTab(slug: string): boolean {
  try {
    return sessionStorage.getItem(dismissKey(slug)) === '1';
  } catch {
    return false;
  }
}

/**
 * The first-run offer of the starter training matrix (issue 37 §2): on the start page of someone who may apply it,
 * while their organisation has no course rules on any job role yet (a new organisation just registered). "Not now"
 * hides it for this browser tab; it stops showing for good once the organisation has course rules.
 */
export function StarterMatrixOffer({ slug, name }: { slug: string; name: string }) {
  const allowed = usePermission([...STARTER_MATRIX_PERMISSIONS]);
  const [dismissed, setDismissed] = useState(() => dismissedInThisTab(slug));
  const preview = useStarterMatrix(slug, allowed && !dismissed);
  if (!allowed || dismissed || !preview.data?.fresh) return null;
  const notNow = () => {
    try {
      sessionStorage.setItem(dismissKey(slug), '1');
    } catch {
      // Private mode: hidden until the page is opened again.
    }
    setDismissed(true);
  };
  return (
    <Card title="Start your training matrix" data-testid="starter-matrix-offer">
      <div className="space-y-4 text-sm text-slate-700">
        <p>
          {name} has no training set for its job roles yet. Start from the care sector’s common core and
          mandatory training for care workers, senior carers, nurses, the registered manager, and kitchen and
          domestic staff, with the refresh periods from Skills for Care’s guidance. You see everything before
          it is added, and you can change any of it afterwards.
        </p>
        <div className="flex flex-wrap gap-2">
          <ButtonLink to={`/entities/${slug}/starter-matrix`}>Preview the starter matrix</ButtonLink>
          <Button variant="secondary" onClick={notNow}>
            Not now
          </Button>
        </div>
      </div>
    </Card>
  );
}
