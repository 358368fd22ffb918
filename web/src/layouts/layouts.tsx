import { Outlet } from 'react-router';
import { useWhitelabel } from '../app/whitelabel';
import { HelpWidget } from '../help/HelpWidget';
import { AppShell } from './AppShell';
import { LearnerDashboardGuard, RequireAuth } from './guards';

export function DashboardLayout() {
  return (
    <RequireAuth>
      <AppShell variant="dashboard" />
    </RequireAuth>
  );
}

/** Default layout; `/signUpOnMonday` is its one public page (no guard there: see router.tsx). */
export function DefaultLayout() {
  return (
    <RequireAuth>
      <AppShell variant="default" />
    </RequireAuth>
  );
}

export function PublicDefaultLayout() {
  return <AppShell variant="default" />;
}

export function LearnerDashboardRoute() {
  return (
    <LearnerDashboardGuard>
      <Outlet />
    </LearnerDashboardGuard>
  );
}

export function RequireAuthOutlet() {
  return (
    <RequireAuth>
      <Outlet />
    </RequireAuth>
  );
}

/**
 * Authentication layout: a centred card under the white-label login logo, and the Help button (issue 38 §3: a
 * signed-out person needs help most here; articles only until signed in). pb-20: the button never covers the card.
 */
export function AuthLayout() {
  const wl = useWhitelabel();
  const name = wl.companyName || wl.entity?.name || 'CareCompliance';
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-slate-100 px-4 pt-10 pb-20">
      <main className="w-full max-w-md">
        <div className="mb-6 flex justify-center">
          {wl.loginLogo || wl.logo ? (
            <img
              src={wl.loginLogo ?? wl.logo ?? ''}
              alt={name}
              className="h-14 w-auto max-w-60 object-contain"
            />
          ) : (
            <div className="flex items-center gap-2">
              <img src="/favicon.svg" alt="" className="h-10 w-10" />
              <span className="text-xl font-semibold text-slate-900">{name}</span>
            </div>
          )}
        </div>
        <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          <Outlet />
        </div>
      </main>
      <HelpWidget />
    </div>
  );
}

/** External layout (403, 404, request verify): a simple centred page without navigation, with the Help button. */
export function ExternalLayout() {
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-100 px-4 pt-10 pb-20">
      <main className="w-full max-w-lg">
        <Outlet />
      </main>
      <HelpWidget />
    </div>
  );
}

/** Help-widget layout (/helpscout-app, /helpscout-auth): bare, it runs inside the widget's frame. */
export function HelpLayout() {
  return (
    <main className="min-h-screen bg-white p-4">
      <Outlet />
    </main>
  );
}
