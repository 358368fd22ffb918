import type { OwnSession } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope, isApiError } from '../app/api';

/** The caller's own sessions and devices (issue 11 §10), through THE api client; query key ['account', 'sessions']. */

export const sessionKeys = { list: ['account', 'sessions'] as const };

export function useOwnSessions() {
  return useQuery({
    queryKey: sessionKeys.list,
    queryFn: async () => (await api.get<Envelope<OwnSession[]>>('/auth/sessions')).data.data,
  });
}

/**
 * Issue 29 §6: the server answers 423 to the list and to ending sessions until the password has been given on this
 * session or device within PASSWORD_CONFIRM_MINUTES; the page then asks for it (POST /auth/confirm-password).
 */
export const needsPasswordConfirmation = (error: unknown) => isApiError(error) && error.status === 423;

export const confirmPassword = (password: string) =>
  api.post<{ message?: string }>('/auth/confirm-password', { password });

/** Ends one of the caller's sessions or device tokens (spec 1 §7 POST /auth/logout/{id}). */
export const endSession = (id: string) =>
  api.post<{ message?: string }>(`/auth/logout/${encodeURIComponent(id)}`);

/** Ends every session and device of the caller but this one. */
export const endOtherSessions = () => api.post<{ message?: string }>('/auth/logout-others');

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** "Chrome on Windows" from a browser's user agent; a device's own name is shown as it is. */
export function describeSession(s: Pick<OwnSession, 'kind' | 'name'>): string {
  if (s.kind === 'token') return s.name;
  const browser = BROWSERS.find(([re]) => re.test(s.name))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(s.name))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Web browser';
}
