import {
  BookingsPerm,
  ContentPerm,
  DashboardsPerm,
  Messages,
  Perm,
  STARTER_MATRIX_PERMISSIONS,
  TagsPerm,
} from '@cc/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Envelope } from '../app/api';
import { usePermissionChecker } from '../app/auth';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { EntityHistoryCard } from '../audit/EntityHistoryCard';
import { InspectionPackButton } from '../reports/InspectionPackButton';
import { Badge, Button, ButtonLink, Card, ConfirmDialog, EmptyState, PageHeader } from '../ui';
import {
  levelLabel,
  organisationsWord,
  SIGN_IN_ADDRESS_LABEL,
  sitesWord,
  siteWord,
  WEB_ADDRESS_LABEL,
} from '../whitelabel/words';
import { useEntity } from './queries';
import { DetailRow, dash, errorEnvelope, LoadError, LoadingCard, useNotFoundRedirect } from './shared';
import { TrainingCompanyBadge } from './training-company';

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

/** "3: Fire safety, Food hygiene, Moving and handling", at most five titles named. */
const coursesSummary = (titles: string[]) =>
  titles.length === 0
    ? 'None yet'
    : `${titles.length}: ${titles.slice(0, 5).join(', ')}${titles.length > 5 ? ` and ${titles.length - 5} more` : ''}`;

/** `/entities/{slug}` (spec 1 §7 GET /entities/{id}): details, children and the entity's admin screens. */
export default function EntityPage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const query = useEntity(slug);
  useNotFoundRedirect(query.error, 'entity');
  const [confirming, setConfirming] = useState(false);

  if (query.isLoading) return <LoadingCard lines={8} />;
  if (query.isError || !query.data)
    return (
      <LoadError
        error={query.error}
        fallback={Messages.failedToFetchEntities}
        onRetry={() => void query.refetch()}
      />
    );
  const e = query.data;

  const sendWelcome = async () => {
    try {
      const res = await api.post<Envelope<{ sent: number }>>(`/entities/${e.id}/send-welcome-email`);
      const sent = res.data.data.sent;
      notifySuccess(
        `${res.data.message ?? Messages.welcomeEmailSent} ${sent} ${sent === 1 ? 'user' : 'users'} e-mailed.`,
      );
    } catch (error) {
      notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
      throw error;
    }
  };

  const links = [
    {
      // Issue 33 §7: a manager's own checks of this home (Care Certificate, pathways, documents to read).
      label: 'Who is behind',
      to: `/manager-dashboard/behind?entity=${e.id}`,
      show: can([DashboardsPerm.managerDashboard]),
    },
    {
      label: 'Job roles',
      to: `/entities/${e.slug}/roles/`,
      show: can([Perm.viewRoles, Perm.readOnlyRoles], 'any'),
    },
    { label: 'User types', to: `/entities/${e.slug}/types`, show: can([Perm.viewTypes]) },
    { label: 'Tags', to: `/entities/${e.slug}/tags`, show: can([TagsPerm.view]) },
    { label: 'Permissions', to: `/entities/${e.slug}/permissions/`, show: can([Perm.seeEntityPermissions]) },
    {
      label: 'User type permissions',
      to: `/entities/${e.slug}/types/permissions`,
      show: can([Perm.seeEntityPermissions, Perm.seeUserPermissions], 'any'),
    },
    { label: 'Branding', to: `/entities/${e.slug}/branding`, show: can([Perm.whiteLabel]) },
    {
      label: 'Courses and content',
      to: `/entities/${e.slug}/courses`,
      show: can([ContentPerm.entityCourses, ContentPerm.entityContent], 'any'),
    },
    {
      // Issue 37 §2: the care sector's common training for the usual job roles, for a whole organisation.
      label: 'Starter training matrix',
      to: `/entities/${e.slug}/starter-matrix`,
      show: e.level === 'A' && can([...STARTER_MATRIX_PERMISSIONS]),
    },
    {
      label: 'Course categories',
      to: `/entities/${e.slug}/course-categories`,
      show: can([ContentPerm.contentCreator]),
    },
    {
      label: 'Certificate branding',
      to: `/entities/${e.slug}/certificate-branding`,
      show: can([Perm.whiteLabel]),
    },
    {
      label: 'Password requirements',
      to: `/entities/${e.slug}/password-requirements`,
      show: can([Perm.updateEntity]),
    },
    {
      label: 'Delegate settings',
      to: `/entities/${e.slug}/delegate-settings`,
      show: can([BookingsPerm.createBookings, BookingsPerm.editBooking], 'any'),
    },
    {
      label: 'Training provider settings',
      to: `/entities/${e.slug}/training-provider-settings`,
      show: e.is_training_company && can([BookingsPerm.trainingProvider]),
    },
  ].filter((l) => l.show);

  return (
    <div className="space-y-6">
      <PageHeader
        title={e.name}
        breadcrumbs={[{ label: organisationsWord(wl), to: '/entities' }, { label: e.name }]}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge>{levelLabel(e.level, wl)}</Badge>
            {e.is_training_company ? <TrainingCompanyBadge status={e.training_company_status} /> : null}
            {e.parent ? (
              <span>
                in{' '}
                <Link
                  to={`/entities/${e.parent.slug}`}
                  className="focus-ring rounded font-medium text-primary-800 hover:underline"
                >
                  {e.parent.name}
                </Link>
              </span>
            ) : null}
          </span>
        }
        actions={
          <>
            {can([Perm.addUser]) ? (
              <Button variant="secondary" onClick={() => setConfirming(true)}>
                Send welcome e-mails
              </Button>
            ) : null}
            {can([Perm.updateEntity]) ? (
              <ButtonLink to={`/entities/${e.slug}/update`}>Edit</ButtonLink>
            ) : null}
            <InspectionPackButton slug={e.slug} name={e.name} />
          </>
        }
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Details">
            <dl className="divide-y divide-slate-100" data-testid="entity-details">
              <DetailRow label={WEB_ADDRESS_LABEL}>{e.slug}</DetailRow>
              <DetailRow label="Code">{dash(e.code)}</DetailRow>
              <DetailRow label={SIGN_IN_ADDRESS_LABEL}>{dash(e.subdomain)}</DetailRow>
              <DetailRow label="E-mail">{dash(e.email)}</DetailRow>
              <DetailRow label="Telephone">{dash(e.telephone)}</DetailRow>
              <DetailRow label="Website">{dash(e.website)}</DetailRow>
              <DetailRow label="Address">
                <span className="whitespace-pre-line">{dash(e.address)}</span>
              </DetailRow>
              {e.score !== undefined ? (
                <DetailRow label="Compliance score">
                  {`${e.score}% of ${wl.primaryComplianceAltName} courses in date`}
                  {e.children?.length ? ', including its sites' : ''}
                </DetailRow>
              ) : null}
              <DetailRow label="Courses available">{coursesSummary(e.courses.map((c) => c.title))}</DetailRow>
              {e.notes !== undefined ? (
                <DetailRow label="Notes">
                  <span className="whitespace-pre-line">{dash(e.notes)}</span>
                </DetailRow>
              ) : null}
            </dl>
          </Card>
          <Card title="Settings">
            <dl className="divide-y divide-slate-100">
              <DetailRow label="Expiry warning">{`${e.expiry_warning} days`}</DetailRow>
              <DetailRow label="Starter period">{`${e.starter_period} days`}</DetailRow>
              <DetailRow label="Days to complete new requirements">{`${e.new_requirement_days} days`}</DetailRow>
              {e.level === 'A' ? (
                <DetailRow label="Longest personal access token">{`${e.pat_max_days} days`}</DetailRow>
              ) : null}
              <DetailRow label="Microsoft / Google sign-in">{`${yesNo(e.allow_ms_sign_in)} / ${yesNo(e.allow_google_sign_in)}`}</DetailRow>
              <DetailRow label="Restricted access">
                {e.has_restricted_access_password ? 'Password set' : 'Off'}
              </DetailRow>
              <DetailRow label="Compromised passwords">
                {e.compromised_passwords === 'enforce_change' ? 'Must be changed' : 'Allowed'}
              </DetailRow>
              <DetailRow label="Features">
                <span className="flex flex-wrap gap-1.5">
                  {(
                    [
                      ['can_view_internal_bookings', 'Internal bookings'],
                      ['can_view_external_bookings', 'External bookings'],
                      ['can_manage_bookings', 'Manage bookings'],
                      ['can_see_new_dashboards', 'New dashboards'],
                    ] as const
                  ).map(([flag, label]) => (
                    <Badge key={flag} tone={e[flag] ? 'success' : 'neutral'}>
                      {`${label}: ${e[flag] ? 'on' : 'off'}`}
                    </Badge>
                  ))}
                </span>
              </DetailRow>
            </dl>
          </Card>
        </div>
        <div className="space-y-6">
          {links.length ? (
            <Card title="Manage">
              <ul className="-my-2 divide-y divide-slate-100">
                {links.map((l) => (
                  <li key={l.to}>
                    <Link
                      to={l.to}
                      className="focus-ring flex items-center justify-between rounded py-2.5 text-sm font-medium text-primary-800 hover:underline"
                    >
                      {l.label}
                      <span aria-hidden="true">→</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
          <Card title={`${sitesWord(wl)} (${e.children?.length ?? 0})`} padded={!e.children?.length}>
            {e.children?.length ? (
              <ul className="divide-y divide-slate-100">
                {e.children.map((c) => (
                  <li key={c.id}>
                    <Link
                      to={`/entities/${c.slug}`}
                      className="focus-ring flex items-center justify-between gap-2 px-5 py-3 text-sm hover:bg-slate-50"
                    >
                      <span className="font-medium text-primary-800">{c.name}</span>
                      {c.is_training_company ? <Badge tone="primary">Training company</Badge> : null}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <EmptyState
                title={`No ${sitesWord(wl).toLowerCase()}`}
                description={
                  e.level === 'A'
                    ? `The ${sitesWord(wl).toLowerCase()} of this group appear here.`
                    : `A ${siteWord(wl).toLowerCase()} holds no others; only a group does.`
                }
                action={
                  e.level === 'A' && can([Perm.addEntity]) ? (
                    <ButtonLink to="/entities/create" variant="secondary">
                      Add a site
                    </ButtonLink>
                  ) : undefined
                }
              />
            )}
          </Card>
        </div>
      </div>
      <EntityHistoryCard entityRef={e.slug} />
      <ConfirmDialog
        open={confirming}
        title="Send welcome e-mails?"
        message={`Everyone at ${e.name} who has never signed in gets an e-mail with a link to choose their password.`}
        confirmLabel="Send e-mails"
        tone="primary"
        onConfirm={sendWelcome}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}
