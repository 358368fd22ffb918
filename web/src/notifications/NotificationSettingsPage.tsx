import {
  DashboardsPerm,
  NOTIFICATION_PREFERENCES,
  type NotificationPreferenceKey,
  Perm,
} from '@cc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../app/api';
import { useAuth, usePermissionChecker } from '../app/auth';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, LoadError } from '../entities/shared';
import { Card, PageHeader, Spinner, Toggle } from '../ui';
import { useUser } from '../users/queries';

interface Choice {
  key: NotificationPreferenceKey;
  label: string;
  hint: string;
  managerOnly?: boolean;
}

const CHOICES: Choice[] = [
  {
    key: NOTIFICATION_PREFERENCES.expiry90,
    label: '90 days before my training expires',
    hint: 'Only when your organisation warns that far ahead.',
  },
  {
    key: NOTIFICATION_PREFERENCES.expiry60,
    label: '60 days before my training expires',
    hint: 'Only when your organisation warns that far ahead.',
  },
  { key: NOTIFICATION_PREFERENCES.expiry30, label: '30 days before my training expires', hint: '' },
  {
    key: NOTIFICATION_PREFERENCES.managerDigest,
    label: 'Weekly digest of my team',
    hint: 'Each week: who expires in the next 30 days and who is out of date.',
    managerOnly: true,
  },
];

/**
 * /account/notifications (issue 14, ours): the optional reminders, kept in the user's preferences (PATCH
 * /users/{id} merges only the keys sent). The reminders 7 days before and on the day training expires are not
 * optional, and say so.
 */
export default function NotificationSettingsPage() {
  const { user } = useAuth();
  const can = usePermissionChecker();
  const query = useUser(user?.uuid);
  const qc = useQueryClient();
  const mayChange = can([Perm.selfUpdate, Perm.updateUser], 'any');
  const save = useMutation({
    mutationFn: (v: { key: NotificationPreferenceKey; on: boolean }) =>
      api.patch(`/users/${user?.id}`, { user_preferences: { [v.key]: v.on } }),
    onSuccess: () => notifySuccess('Notification settings saved.'),
    onError: (error) => notifyError(errorEnvelope(error, 'The setting could not be saved.'), 'Not saved.'),
    onSettled: () => qc.invalidateQueries({ queryKey: ['users', 'one', user?.uuid] }),
  });
  const prefs = (query.data?.user_preferences ?? {}) as Record<string, unknown>;
  const choices = CHOICES.filter((c) => !c.managerOnly || can([DashboardsPerm.managerDashboard]));
  return (
    <div className="space-y-6">
      <PageHeader
        title="Notification settings"
        description="Reminders arrive in the app (the bell at the top) and by e-mail."
        breadcrumbs={[{ label: 'Notification settings' }]}
      />
      <Card title="Reminders you can turn off">
        {query.isLoading ? (
          <div className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner /> Loading your settings…
          </div>
        ) : query.isError ? (
          <LoadError error={query.error} fallback="Your settings could not be loaded." />
        ) : (
          <ul className="space-y-4">
            {choices.map((c) => {
              const on =
                save.isPending && save.variables?.key === c.key ? save.variables.on : prefs[c.key] !== false;
              return (
                <li key={c.key} className="space-y-1">
                  <Toggle
                    checked={on}
                    label={c.label}
                    disabled={!mayChange || save.isPending}
                    onChange={(v) => save.mutate({ key: c.key, on: v })}
                  />
                  {c.hint ? <p className="text-sm text-slate-600">{c.hint}</p> : null}
                </li>
              );
            })}
          </ul>
        )}
        {!mayChange ? (
          <p className="mt-4 text-sm text-slate-600">
            You may not change your own settings; ask your manager.
          </p>
        ) : null}
      </Card>
      <Card title="Always sent">
        <p className="text-sm text-slate-700">
          A reminder 7 days before your training expires, and one on the day it expires. Your organisation may
          keep e-mails back during its quiet hours and send them when they end.
        </p>
      </Card>
    </div>
  );
}
