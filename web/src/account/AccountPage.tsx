import { formatDate, Messages, type UserDetail } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { api, type Envelope } from '../app/api';
import { refreshSession, useAuth, usePermissionChecker } from '../app/auth';
import { notifyInfo, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { TrainingHistory } from '../dashboards/TrainingHistory';
import { PersonalDataCard } from '../data-protection/PersonalDataCard';
import { DetailRow, dash, type FieldErrors, LoadError, LoadingCard, useFormSave } from '../entities/shared';
import { Badge, Button, Card, FormError, PageHeader, TextField } from '../ui';
import { useUser } from '../users/queries';
import { type AccountChanges, accountChanges } from './changes';

/**
 * `/account`, "My account" in the user menu (issue 31 §6; ours, the spec names no route for it): who the person is in
 * words (name, e-mail, job role, where they work; never permission names), what they may change themselves (each
 * change only when the server allows it: account/changes.ts) and their training history. Their own /users/{uuid}
 * leads here unless they edit people (UserPage).
 */
export default function AccountPage() {
  const { user: me } = useAuth();
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const query = useUser(me?.uuid);
  if (!me) return null;
  if (query.isLoading) return <LoadingCard lines={6} />;
  if (query.isError || !query.data)
    return (
      <LoadError
        error={query.error}
        fallback={Messages.somethingWentWrong}
        onRetry={() => void query.refetch()}
      />
    );
  const u = query.data;
  const may = accountChanges(can);
  return (
    <div className="space-y-6">
      <PageHeader title="My account" description="Your details, what you can change, and your training." />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Your details">
          <dl className="divide-y divide-slate-100" data-testid="account-details">
            <DetailRow label="Name">{u.name}</DetailRow>
            <DetailRow label="E-mail">
              <span className="break-all">{u.email}</span>{' '}
              {u.email_verified ? null : (
                <>
                  <Badge tone="warning">Not verified</Badge>{' '}
                  <Link className="text-primary-700 underline" to="/request/verify-email">
                    Verify your e-mail address
                  </Link>
                </>
              )}
            </DetailRow>
            {u.pending_email ? (
              <DetailRow label="New e-mail">
                <span className="break-all">{u.pending_email}</span>{' '}
                <Badge tone="warning">Waiting for you to confirm it</Badge>
              </DetailRow>
            ) : null}
            <DetailRow label="Job role">{u.role?.name ?? 'No job role'}</DetailRow>
            <DetailRow label={wl.entityAltName}>{u.primary_entity.name}</DetailRow>
            <DetailRow label="Organisation">{u.a_entity.name}</DetailRow>
            <DetailRow label="Start date">{u.start_date ? formatDate(u.start_date) : dash(null)}</DetailRow>
            {u.is_trainer ? (
              <DetailRow label="Also">
                <Badge tone="success">Trainer</Badge>
              </DetailRow>
            ) : null}
          </dl>
        </Card>
        <ChangesCard user={u} may={may} place={wl.entityAltName.toLowerCase()} />
      </div>
      <TrainingHistory userRef={u.uuid} />
      {/* Her data as a file (issue 35 §4): the account menu's "Your personal data" leads here. */}
      <div id="personal-data">
        <PersonalDataCard userId={u.id} name={u.name} self />
      </div>
    </div>
  );
}

type Open = 'name' | 'email' | null;

function ChangesCard({ user, may, place }: { user: UserDetail; may: AccountChanges; place: string }) {
  const [open, setOpen] = useState<Open>(null);
  const toggle = (which: Exclude<Open, null>) => setOpen((o) => (o === which ? null : which));
  return (
    <Card title="Change your details" padded={false}>
      <ul className="divide-y divide-slate-100" data-testid="account-changes">
        {may.name ? (
          <ChangeRow
            title="Your name"
            action={
              <Button
                variant="secondary"
                size="sm"
                aria-expanded={open === 'name'}
                onClick={() => toggle('name')}
              >
                Change your name
              </Button>
            }
          >
            {open === 'name' ? <NameForm user={user} onDone={() => setOpen(null)} /> : null}
          </ChangeRow>
        ) : null}
        {may.email ? (
          <ChangeRow
            title="Your e-mail address"
            hint="We send a link to the new address; it changes when you follow it."
            action={
              <Button
                variant="secondary"
                size="sm"
                aria-expanded={open === 'email'}
                onClick={() => toggle('email')}
              >
                Change your e-mail
              </Button>
            }
          >
            {open === 'email' ? <EmailForm onDone={() => setOpen(null)} /> : null}
          </ChangeRow>
        ) : null}
        <ChangeRow
          title="Your password"
          action={<RowLink to="/update-password">Change your password</RowLink>}
        />
        <ChangeRow
          title="Reminders and notifications"
          action={
            <RowLink to="/account/notifications">
              {may.notifications ? 'Choose your reminders' : 'See your reminders'}
            </RowLink>
          }
        />
        <ChangeRow
          title="Where you are signed in"
          action={<RowLink to="/account/sessions">Sessions and devices</RowLink>}
        />
      </ul>
      <p className="border-t border-slate-100 px-5 py-4 text-sm text-slate-600">
        Your job role and {place} are set by your manager: ask them if they are wrong.
      </p>
    </Card>
  );
}

function ChangeRow({
  title,
  hint,
  action,
  children,
}: {
  title: string;
  hint?: string;
  action: ReactNode;
  children?: ReactNode;
}) {
  return (
    <li className="space-y-3 px-5 py-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-900">{title}</p>
          {hint ? <p className="text-sm text-slate-600">{hint}</p> : null}
        </div>
        {action}
      </div>
      {children}
    </li>
  );
}

const RowLink = ({ to, children }: { to: string; children: ReactNode }) => (
  <Link to={to} className="focus-ring rounded text-sm font-medium text-primary-800 underline">
    {children}
  </Link>
);

/** PATCH /users/{id} {name}: the only field sent (PATCH changes only what it is sent). */
function NameForm({ user, onDone }: { user: UserDetail; onDone: () => void }) {
  const qc = useQueryClient();
  const [name, setName] = useState(user.name);
  const save = useFormSave(Messages.somethingWentWrong, { alwaysRefusal: true });
  const { errors } = save;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return save.setErrors({ name: ['Enter your name.'] });
    if (name.trim() === user.name) {
      notifyInfo('Nothing has changed.');
      return onDone();
    }
    void save.run(async () => {
      const res = await api.patch<Envelope<UserDetail>>(`/users/${user.id}`, { name: name.trim() });
      notifySuccess('Your name has been changed.');
      qc.setQueryData(['users', 'one', user.uuid], res.data.data);
      await refreshSession();
    }, onDone);
  };
  return (
    <form className="space-y-3" onSubmit={submit} noValidate>
      <Refusal message={save.refusal} />
      <TextField
        label="Your name"
        name="name"
        autoComplete="name"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
      />
      <FormButtons busy={save.busy} label="Save your name" onCancel={onDone} />
    </form>
  );
}

/** POST /auth/update-email {email, password}: the new address is confirmed from the link mailed to it. */
function EmailForm({ onDone }: { onDone: () => void }) {
  const qc = useQueryClient();
  const [form, setForm] = useState({ email: '', password: '' });
  const save = useFormSave(Messages.somethingWentWrong, { alwaysRefusal: true });
  const { errors } = save;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!form.email.trim()) local.email = ['Enter your new e-mail address.'];
    if (!form.password) local.password = ['Enter your password.'];
    save.setErrors(local);
    if (Object.keys(local).length) return;
    void save.run(async () => {
      try {
        const res = await api.post<{ message?: string }>('/auth/update-email', {
          email: form.email.trim(),
          password: form.password,
        });
        notifySuccess(res.data?.message ?? Messages.emailUpdated);
        void qc.invalidateQueries({ queryKey: ['users', 'one'] });
      } catch (error) {
        setForm((f) => ({ ...f, password: '' }));
        throw error;
      }
    }, onDone);
  };
  return (
    <form className="space-y-3" onSubmit={submit} noValidate>
      <Refusal message={save.refusal} />
      <TextField
        label="New e-mail address"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={form.email}
        onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))}
        error={errors.email}
      />
      <TextField
        label="Your password"
        type="password"
        name="password"
        autoComplete="current-password"
        required
        hint="To check it is you."
        value={form.password}
        onChange={(e) => setForm((f) => ({ ...f, password: e.target.value }))}
        error={errors.password}
      />
      <FormButtons busy={save.busy} label="Send the link" onCancel={onDone} />
    </form>
  );
}

function FormButtons({ busy, label, onCancel }: { busy: boolean; label: string; onCancel: () => void }) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" loading={busy}>
        {label}
      </Button>
    </div>
  );
}

/** The server's refusal above a form (its field messages are beside the fields). */
const Refusal = ({ message }: { message: string | null }) =>
  message ? <FormError error={{ message }} /> : null;
