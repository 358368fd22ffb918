import { Button } from '../../ui';
import { useStore } from '../store';
import { analyticsStore, answerConsent, needsConsentAnswer } from './analytics';

/**
 * Asks a signed-in user, once per device, whether the app may count page views (only when analytics is configured
 * and the organisation requires consent). Nothing is loaded or sent before Accept; Decline is remembered too.
 */
export function ConsentBanner() {
  const state = useStore(analyticsStore);
  if (!needsConsentAnswer(state)) return null;
  return (
    <section
      aria-labelledby="consent-title"
      className="fixed inset-x-0 bottom-0 z-[90] border-t border-slate-200 bg-white p-4 shadow-lg"
    >
      <div className="mx-auto flex max-w-4xl flex-col gap-3 md:flex-row md:items-center md:justify-between">
        <div className="text-sm text-slate-700">
          <h2 id="consent-title" className="font-semibold text-slate-900">
            Help us improve this app
          </h2>
          <p>
            May we count which pages are visited? We only record the page, never your name, e-mail or what you
            type. You can still use everything if you say no.
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          <Button variant="secondary" onClick={() => answerConsent('declined')}>
            Decline
          </Button>
          <Button onClick={() => answerConsent('accepted')}>Accept</Button>
        </div>
      </div>
    </section>
  );
}
