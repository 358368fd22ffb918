import {
  AUTH_EVENT_LABELS,
  CELL_STATUS_LABELS,
  CELL_STATUSES,
  formatDate,
  formatDateTime,
  type HelpCustomer,
} from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { api, type Envelope, isApiError } from '../app/api';
import { useAuth } from '../app/auth';
import { errorEnvelope } from '../entities/shared';
import { Badge, Spinner } from '../ui';

/**
 * /helpscout-app?email=… (spec 1 §2 help-desk layout): the customer a support conversation is about, made to be
 * framed by the help-desk tool (the server's HELPDESK_FRAME_ANCESTORS): profile, organisation, role and type, recent
 * account activity and a compliance summary, from GET /help/customers. Signed out: to /helpscout-auth and back.
 */
export default function HelpscoutAppPage() {
  const { user } = useAuth();
  const [params] = useSearchParams();
  const location = useLocation();
  const email = params.get('email')?.trim() ?? '';
  const customer = useQuery({
    queryKey: ['help', 'customer', email],
    enabled: Boolean(user?.super_admin && email),
    retry: false,
    queryFn: async () =>
      (
        await api.get<Envelope<HelpCustomer>>('/help/customers', {
          params: { email },
          actingAs: false,
          skipAuthHandling: true,
        })
      ).data.data,
  });

  const back = `/helpscout-auth?redirect=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
  if (!user?.super_admin) return <Navigate to={back} replace />;
  if (isApiError(customer.error) && customer.error.status === 401) return <Navigate to={back} replace />;

  if (!email)
    return (
      <Notice title="No customer chosen">
        Open a conversation: the help desk passes the customer’s e-mail address.
      </Notice>
    );
  if (customer.isLoading) return <Spinner label="Loading the customer" />;
  if (customer.isError)
    return (
      <Notice title={email}>
        <span role="alert">{errorEnvelope(customer.error, 'The customer could not be loaded.').message}</span>
      </Notice>
    );
  const c = customer.data;
  if (!c) return null;
  return <CustomerView customer={c} />;
}

function Notice({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="space-y-1">
      <h1 className="text-base font-semibold break-all text-slate-900">{title}</h1>
      <p className="text-sm text-slate-700">{children}</p>
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
      <h2 className="mb-2 text-sm font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-3 py-1 text-sm">
      <dt className="w-28 shrink-0 text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

const band = (score: number) => (score >= 85 ? 'success' : score >= 65 ? 'warning' : 'danger');

function CustomerView({ customer: c }: { customer: HelpCustomer }) {
  return (
    <div className="space-y-3" data-testid="helpscout-customer">
      <header>
        <h1 className="text-lg font-semibold text-slate-900">{c.name}</h1>
        <p className="text-sm break-all text-slate-600">{c.email}</p>
        <a
          href={c.profile_url}
          target="_blank"
          rel="noopener noreferrer"
          className="focus-ring mt-1 inline-block rounded text-sm font-medium text-primary-800 underline"
        >
          Open profile
        </a>
      </header>
      <Section title="Account">
        <dl>
          <Row label="Organisation">
            {c.organisation.name}
            {c.a_entity.id !== c.organisation.id ? (
              <span className="text-slate-600"> ({c.a_entity.name})</span>
            ) : null}
          </Row>
          <Row label="Role">{c.role ? `${c.role.name} (id ${c.role.id})` : '—'}</Row>
          <Row label="Type">{c.type ? `${c.type.name} (id ${c.type.id})` : '—'}</Row>
          <Row label="E-mail">{c.email_verified ? 'Verified' : 'Not verified yet'}</Row>
          <Row label="Last sign-in">{formatDateTime(c.last_login_at, undefined, 'Never')}</Row>
          <Row label="Account since">{formatDate(c.created_at)}</Row>
        </dl>
      </Section>
      <Section title="Compliance">
        {c.compliance.required === 0 ? (
          <p className="text-sm text-slate-700">No required courses for their role.</p>
        ) : (
          <div className="space-y-2">
            <p className="text-sm text-slate-800">
              <Badge tone={band(c.compliance.score ?? 0)}>{c.compliance.score}%</Badge>{' '}
              {c.compliance.compliant} of {c.compliance.required} required courses in date
            </p>
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
              {CELL_STATUSES.filter((s) => c.compliance.by_status[s]).map((s) => (
                <li key={s}>
                  {CELL_STATUS_LABELS[s]}: {c.compliance.by_status[s]}
                </li>
              ))}
            </ul>
          </div>
        )}
      </Section>
      <Section title="Recent account activity">
        {c.recent_sign_ins.length === 0 ? (
          <p className="text-sm text-slate-700">No sign-ins recorded.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {c.recent_sign_ins.map((e) => (
              <li key={`${e.created_at}-${e.event}`} className="py-1.5 text-sm">
                <span className="font-medium text-slate-900">
                  {AUTH_EVENT_LABELS[e.event as keyof typeof AUTH_EVENT_LABELS] ?? e.event}
                </span>{' '}
                <span className="text-slate-600">
                  {formatDateTime(e.created_at)}
                  {e.ip ? ` · ${e.ip}` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}
