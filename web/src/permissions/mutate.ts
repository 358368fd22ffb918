import { Messages } from '@cc/contracts';
import { useMemo } from 'react';
import { api, type Envelope, isApiError } from '../app/api';
import { authStore, logout, permissionsStore } from '../app/auth';
import { notifyError, notifySuccess } from '../app/notifications';
import { useStore } from '../app/store';
import { errorEnvelope } from '../entities/shared';
import type { GrantedPermission } from './PermissionToggles';

/**
 * Grant or revoke and report it ('Permission granted' / 'Permission revoked', spec 2 §6). A refusal (403) is shown
 * as a notice on this page rather than leaving it for /403; an expired session still logs out (spec 1 §4).
 */
export async function changePermission(
  path: string,
  body: unknown,
  grant: boolean,
): Promise<GrantedPermission[]> {
  try {
    const res = await api.post<Envelope<GrantedPermission[]>>(path, body, { skipAuthHandling: true });
    notifySuccess(res.data.message ?? (grant ? Messages.permissionGranted : Messages.permissionRevoked));
    return res.data.data;
  } catch (error) {
    if (isApiError(error) && (error.status === 401 || error.status === 419)) void logout();
    else notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
    throw error;
  }
}

/** The ids the signed-in user holds (loaded from GET /auth/permissions, else the user's own list). */
export function useHeldPermissionIds(): Set<number> {
  const user = useStore(authStore, (s) => s.user);
  const loaded = useStore(permissionsStore);
  return useMemo(() => new Set(loaded ?? user?.permissions.map((p) => p.id) ?? []), [loaded, user]);
}
