import {
  type EffectiveUserPermission,
  formatDateTime,
  formatDate as formatDayOnly,
  Messages,
  Perm,
  ResultsPerm,
} from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { editsOwnRecordAsManager } from '../account/changes';
import { AccountActivityCard } from '../activity/AccountActivityCard';
import { api, type Envelope } from '../app/api';
import { useAuth, usePermissionChecker } from '../app/auth';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { UserHistoryCard } from '../audit/UserHistoryCard';
import { UserComplianceCourses } from '../compliance/UserComplianceCourses';
import { PersonalDataCard } from '../data-protection/PersonalDataCard';
import {
  DetailRow,
  dash,
  errorEnvelope,
  LoadError,
  LoadingCard,
  useNotFoundRedirect,
} from '../entities/shared';
import { DeliveryLedgerCard } from '../notifications/DeliveryLedgerCard';
import { groupByCategory, permissionLabel } from '../permissions/group';
import { Badge, Button, ButtonLink, Card, ConfirmDialog, EmptyState, PageHeader, Spinner } from '../ui';
import { organisationWord } from '../whitelabel/words';
import { useUser } from './queries';

const SOURCE_LABEL: Record<string, string> = {
  type: 'user type',
  user: 'granted to them',
  super_admin: 'super admin',
};

/** The organisation's date format (dates.ts); null for none, so callers choose the placeholder. */
const formatDate = (iso: string | null, withTime = false) =>
  iso ? (withTime ? formatDateTime(iso) : formatDayOnly(iso)) : null;

/** `/users/{uuid}` (spec 1 §7 GET /users/{id}, GET /users/{id}/permissions, POST /users/{id}/send-welcome-email). */
export default function UserPage() {
  const { uuid = '' } = useParams();
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const { user: me } = useAuth();
  const query = useUser(uuid);
  useNotFoundRedirect(query.error, 'user');
  const [confirming, setConfirming] = useState(false);
  const self = Boolean(query.data && me?.id === query.data.id);
  const canSeePermissions = self || can([Perm.seeUserPermissions]);
  const permissions = useQuery({
    queryKey: ['users', 'permissions', query.data?.id],
    enabled: Boolean(query.data) && canSeePermissions,
    queryFn: async () =>
      (
        await api.get<Envelope<EffectiveUserPermission[]>>(`/users/${query.data?.id}/permissions`, {
          skipAuthHandling: true,
        })
      ).data.data,
  });

  // Issue 31 §6: one's own record is My account (details in words, the changes one may make), unless one edits
  // people here (18): a learner's own page offered an Edit that ended on /403 and listed permission names.
  if (me && (uuid === me.uuid || self) && !editsOwnRecordAsManager(can))
    return <Navigate to="/account" replace />;
  if (query.isLoading) return <LoadingCard lines={7} />;
  if (query.isError || !query.data)
    return (
      <LoadError
        error={query.error}
        fallback={Messages.somethingWentWrong}
        onRetry={() => void query.refetch()}
      />
    );
  const u = query.data;
  const canEdit =
    self || can([Perm.updateUser, Perm.updateRoleOnUser, Perm.updateTypeOnUser, Perm.createTrainer], 'any');
  const canWelcome = !self && can([Perm.addUser, Perm.updateUser], 'any');
  const canAddRecord = can([ResultsPerm.addRecord]);
  const forUser = `user_id=${u.id}&user_name=${encodeURIComponent(u.name)}`;

  const sendWelcome = async () => {
    try {
      const res = await api.post<{ message?: string }>(`/users/${u.id}/send-welcome-email`);
      notifySuccess(res.data?.message ?? Messages.welcomeEmailSent);
    } catch (error) {
      notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
      throw error;
    }
  };
  const groups = groupByCategory(permissions.data ?? []);

  return (
    <div className="space-y-6">
      <PageHeader
        title={u.name}
        breadcrumbs={[{ label: 'Users', to: '/users' }, { label: u.name }]}
        description={
          <span className="inline-flex flex-wrap gap-2">
            {u.super_admin ? <Badge tone="primary">Super admin</Badge> : null}
            {u.is_trainer ? <Badge tone="success">Trainer</Badge> : null}
            {u.email_verified ? null : <Badge tone="warning">E-mail not verified</Badge>}
            {u.last_login_at ? null : <Badge>Never signed in</Badge>}
          </span>
        }
        actions={
          <div className="flex flex-wrap gap-2">
            {canAddRecord ? (
              <ButtonLink variant="secondary" to={`/results/historical/create?${forUser}`}>
                Add historical record
              </ButtonLink>
            ) : null}
            {canAddRecord ? (
              <ButtonLink variant="secondary" to={`/results/exempt/create?${forUser}`}>
                Add exemption
              </ButtonLink>
            ) : null}
            {canWelcome ? (
              <Button variant="secondary" onClick={() => setConfirming(true)}>
                Send welcome e-mail
              </Button>
            ) : null}
            {canEdit ? <ButtonLink to={`/users/update/${u.uuid}`}>Edit</ButtonLink> : null}
          </div>
        }
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Details">
          <dl className="divide-y divide-slate-100" data-testid="user-details">
            <DetailRow label="E-mail">
              <span className="break-all">{dash(u.email)}</span>
            </DetailRow>
            {u.pending_email ? (
              <DetailRow label="New e-mail">
                <span className="break-all" data-testid="pending-email">
                  {u.pending_email}
                </span>{' '}
                <Badge tone="warning">Confirmation sent to the new address</Badge>
              </DetailRow>
            ) : null}
            <DetailRow label="Start date">{formatDate(u.start_date) ?? '—'}</DetailRow>
            <DetailRow label="Last signed in">{formatDate(u.last_login_at, true) ?? 'Never'}</DetailRow>
            <DetailRow label="Added">{formatDate(u.created_at) ?? '—'}</DetailRow>
          </dl>
        </Card>
        <Card title="Where they work">
          <dl className="divide-y divide-slate-100">
            <DetailRow label={organisationWord(wl)}>
              <Link
                to={`/entities/${u.primary_entity.slug}`}
                className="focus-ring rounded font-medium text-primary-800 hover:underline"
              >
                {u.primary_entity.name}
              </Link>
            </DetailRow>
            <DetailRow label="Organisation">{u.a_entity.name}</DetailRow>
            <DetailRow label="Job role">{u.role?.name ?? 'No job role'}</DetailRow>
            <DetailRow label="User type">{u.type?.name ?? 'No user type'}</DetailRow>
          </dl>
        </Card>
      </div>
      <UserComplianceCourses userRef={u.uuid} name={u.name} />
      <UserHistoryCard userRef={u.uuid} />
      <AccountActivityCard userId={u.id} />
      <DeliveryLedgerCard userRef={u.uuid} userId={u.id} />
      <PersonalDataCard userId={u.id} name={u.name} self={self} />
      {canSeePermissions ? (
        <Card title="What they may do" padded={false}>
          {permissions.isLoading ? (
            <div className="p-5">
              <Spinner className="text-slate-500" label="Loading permissions" />
            </div>
          ) : permissions.isError ? (
            <p role="alert" className="p-5 text-sm text-danger-800">
              {errorEnvelope(permissions.error, Messages.somethingWentWrong).message}
            </p>
          ) : groups.length === 0 ? (
            <EmptyState
              title="No permissions"
              description="Their user type gives them none, or they have no user type."
            />
          ) : (
            <div
              className="grid grid-cols-1 gap-x-8 gap-y-5 p-5 md:grid-cols-2"
              data-testid="user-permissions"
            >
              {groups.map((g) => (
                <section key={g.category} aria-labelledby={`perm-${g.category}`}>
                  <h3 id={`perm-${g.category}`} className="text-sm font-semibold text-slate-900">
                    {g.label} <span className="font-normal text-slate-500">({g.permissions.length})</span>
                  </h3>
                  <ul className="mt-1.5 space-y-1">
                    {g.permissions.map((p) => (
                      <li key={p.id} className="text-sm text-slate-700">
                        <span>{permissionLabel(p)}</span>
                        <span className="text-xs text-slate-500">
                          {' '}
                          — {p.sources.map((s) => SOURCE_LABEL[s] ?? s).join(', ')}
                        </span>
                      </li>
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          )}
        </Card>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title="Send a welcome e-mail?"
        message={`${u.name} gets an e-mail with a link to choose a password. Any earlier link stops working.`}
        confirmLabel="Send e-mail"
        tone="primary"
        onConfirm={sendWelcome}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}
