import { Perm } from '@cc/contracts';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useActingAs } from '../app/acting-as';
import { authStore, isLoggedIn, mustChangePassword, useAuth, usePermission } from '../app/auth';
import { fullPath, loginUrlFor } from '../app/navigation';

export const UPDATE_PASSWORD_PATH = '/update-password';

/**
 * A route needing auth sends a logged-out user to /login?redirect=<full target path> (spec 1 §2), and a user
 * whose password must change to /update-password?redirect=<full target path>.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, token } = useAuth();
  const location = useLocation();
  if (!user && !token && !isLoggedIn()) {
    return <Navigate to={loginUrlFor(fullPath(location))} replace />;
  }
  // The API refuses everything else until an expired or flagged password is changed (server password gate).
  if (mustChangePassword(user) && location.pathname !== UPDATE_PASSWORD_PATH) {
    return (
      <Navigate to={`${UPDATE_PASSWORD_PATH}?redirect=${encodeURIComponent(fullPath(location))}`} replace />
    );
  }
  return <>{children}</>;
}

/** /login for a logged-in user goes to / (spec 1 §2). */
export function RedirectIfAuthenticated({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (user) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/**
 * The learner-dashboard guard (spec 1 §2): in only when the entity has the new-dashboards feature and the
 * user holds the learner-dashboard permission (104); otherwise back to the events screen.
 */
export function canSeeLearnerDashboard(
  entityFlag: boolean | undefined,
  userFlag: boolean | undefined,
  hasPermission: boolean,
): boolean {
  return Boolean(entityFlag ?? userFlag) && hasPermission;
}

export function LearnerDashboardGuard({ children }: { children: ReactNode }) {
  const actingAs = useActingAs();
  const user = authStore.get().user;
  const allowed = usePermission([Perm.learnerDashboard]);
  if (
    !canSeeLearnerDashboard(actingAs?.can_see_new_dashboards, user?.a_entity.can_see_new_dashboards, allowed)
  ) {
    return <Navigate to="/" replace />;
  }
  return <>{children}</>;
}

/**
 * A page that only shows what its permission allows: without it, /403 as every page whose first call the server
 * refuses (spec 1 §4 "On 403 the user goes to /403"). For pages whose data does not come through the api client
 * (the matrix reads the websocket), so the refusal would otherwise only show inline (issue 38).
 */
export function RequirePermission({ ids, mode = 'all' }: { ids: number[]; mode?: 'all' | 'any' }) {
  const allowed = usePermission(ids, mode);
  if (!allowed) return <Navigate to="/403" replace />;
  return <Outlet />;
}
