import { type AuthUser, Perm } from '@cc/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useActingAs } from '../app/acting-as';
import { useAuth, usePermission } from '../app/auth';
import { useOffline } from '../app/network';
import { useWhitelabel } from '../app/whitelabel';
import { ComplianceWidget } from '../compliance/ComplianceWidget';
import { PoliciesToRead } from '../documents/PoliciesToRead';
import { LearnerCourses } from '../learning/LearnerCourses';
import { OfflineStart } from '../native/offline/OfflineStart';
import { PendingApprovalBanner } from '../signup-links/PendingBanner';
import { StarterMatrixOffer } from '../starter-matrix/StarterMatrixOffer';
import { Badge, Card, PageHeader } from '../ui';
import { mainOrganisationLabel } from '../whitelabel/words';
import { useLearnerEvents } from './api';
import { coursesLeftToTodo, LearnerTodo } from './LearnerTodo';
import { TrainingHistory } from './TrainingHistory';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-sm text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

/**
 * `/` — the learner events screen (spec 1 §2, issue 13): the event counts (overdue, to do, completed) and what the
 * learner must do in order, with dates and words; the compliance widget for who manages; the other courses they can
 * take; their training history with evidence and certificates; then who is signed in.
 *
 * Offline (issue 31 §3: the browser says so, or the server gave no answer), the lists that need the server are not
 * asked for: the page says it is offline and shows what is on the device (OfflineStart), and who is signed in.
 */
export default function EventsPage() {
  const { user } = useAuth();
  const offline = useOffline();
  if (!user) return null;
  const firstName = user.name.split(/\s+/)[0] ?? user.name;
  return (
    <div className="space-y-6">
      <PageHeader
        title={`Welcome, ${firstName}`}
        description={
          // Offline, the notice below says so (once).
          offline
            ? undefined
            : 'What you need to do, in order: overdue courses first, then what expires soonest.'
        }
      />
      {offline ? <OfflineStart userId={user.id} /> : <OnlineStart user={user} />}
      <YourAccount user={user} />
    </div>
  );
}

function OnlineStart({ user }: { user: AuthUser }) {
  const actingAs = useActingAs();
  const canActAs = usePermission([Perm.actingAs]);
  const events = useLearnerEvents(user.uuid);
  const inTodo = coursesLeftToTodo(events.data?.data ?? []);
  // The widget covers what the caller manages: the acting-as entity when they may act as it (19), else their own.
  const widgetEntity =
    actingAs && (canActAs || actingAs.slug !== user.a_entity.slug) ? actingAs : user.primary_entity;
  return (
    <>
      {/* Who manages (40) sees their score first; the widget renders nothing for a learner. */}
      {/* Issue 37 §2: a new organisation's first run offers the starter training matrix. */}
      <StarterMatrixOffer slug={user.a_entity.slug} name={user.a_entity.name} />
      <ComplianceWidget entity={widgetEntity.slug} entityName={widgetEntity.name} />
      <PendingApprovalBanner />
      <LearnerTodo userRef={user.uuid} />
      <PoliciesToRead />
      <LearnerCourses userRef={user.uuid} availableOnly exclude={inTodo} />
      <TrainingHistory userRef={user.uuid} />
    </>
  );
}

function YourAccount({ user }: { user: AuthUser }) {
  const actingAs = useActingAs();
  const wl = useWhitelabel();
  return (
    <Card
      title="Your account"
      actions={
        // Issue 31 §6: the details, the changes one may make and one's training history.
        <Link className="focus-ring rounded text-sm font-medium text-primary-800 underline" to="/account">
          My account
        </Link>
      }
    >
      <dl className="divide-y divide-slate-100" data-testid="who-am-i">
        <Row label="Name">{user.name}</Row>
        <Row label="E-mail">
          <span className="break-all">{user.email}</span>{' '}
          {user.emailVerified ? null : (
            <>
              <Badge tone="warning">Not verified</Badge>{' '}
              <Link className="text-primary-700 underline" to="/request/verify-email">
                Verify your e-mail address
              </Link>
            </>
          )}
        </Row>
        <Row label="Job role">{user.role?.name ?? 'No job role'}</Row>
        <Row label="User type">{user.type?.name ?? 'No user type'}</Row>
        <Row label={mainOrganisationLabel(wl)}>{user.primary_entity.name}</Row>
        <Row label="Organisation">{user.a_entity.name}</Row>
        <Row label="Acting as">{actingAs?.name ?? user.a_entity.name}</Row>
        {user.super_admin || user.is_trainer ? (
          <Row label="Also">
            <span className="flex flex-wrap gap-2">
              {user.super_admin ? <Badge tone="primary">Super admin</Badge> : null}
              {user.is_trainer ? <Badge tone="success">Trainer</Badge> : null}
            </span>
          </Row>
        ) : null}
      </dl>
    </Card>
  );
}
