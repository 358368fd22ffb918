import { Perm } from '@cc/contracts';

/**
 * What a person may change on My account (issue 31 §6), from the server's rules (server/src/users/service.ts
 * updateUser "Oneself", server/src/auth/email-flows.ts updateEmail), so the page never offers a change that ends on
 * a 403:
 * - their name: 127 (self update) or 18 (update user), PATCH /users/{id} {name};
 * - their e-mail address: 127 only, POST /auth/update-email with their password (a new address is confirmed from it);
 * - their notification choices: 127 or 18 (notifications/NotificationSettingsPage.tsx; without it the page shows them);
 * - their password and where they are signed in: everyone (/update-password, /account/sessions).
 * Their job role, user type and organisation are never theirs to change (no self-escalation): their manager's.
 * A super admin passes every check, as on the server.
 */
export interface AccountChanges {
  name: boolean;
  email: boolean;
  notifications: boolean;
}

export function accountChanges(can: (ids: number[], mode?: 'all' | 'any') => boolean): AccountChanges {
  return {
    name: can([Perm.selfUpdate, Perm.updateUser], 'any'),
    email: can([Perm.selfUpdate]),
    notifications: can([Perm.selfUpdate, Perm.updateUser], 'any'),
  };
}

/** Whether /users/{uuid} of oneself is the place to edit oneself: only for who edits people there (18). */
export const editsOwnRecordAsManager = (can: (ids: number[], mode?: 'all' | 'any') => boolean) =>
  can([Perm.updateUser]);
