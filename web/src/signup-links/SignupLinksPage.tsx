import {
  type CreatedSignupLink,
  formatDate,
  formatDateTime,
  SIGNUP_LINK_DEFAULT_DAYS,
  SIGNUP_LINK_MAX_DAYS,
  SignupLinkPerm,
  type SignupLinkStatus,
  type SignupLinkView,
  type SignupView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../app/api';
import { useAuth, usePermission } from '../app/auth';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { useVersions } from '../care-certificate/api';
import { useEntityOptions } from '../entities/queries';
import {
  Badge,
  type BadgeTone,
  Button,
  Card,
  CardPagination,
  ConfirmDialog,
  DataTable,
  EmptyState,
  FormDialog,
  PageHeader,
  Select,
  TextField,
} from '../ui';
import { useNamedOptions } from '../users/queries';
import { organisationWord } from '../whitelabel/words';
import { createLink, decide, revokeLink, signupKeys, usePendingSignups, useSignupLinks } from './api';

const STATUS: Record<SignupLinkStatus, { label: string; tone: BadgeTone }> = {
  active: { label: 'Active', tone: 'success' },
  expired: { label: 'Expired', tone: 'neutral' },
  revoked: { label: 'Revoked', tone: 'danger' },
  used_up: { label: 'Used up', tone: 'warning' },
};

/**
 * /users/signup-links (issue 18): the manager's sign-up links and the new starters waiting for approval. The spec
 * names no route for it; it sits under /users beside /users/create because a link adds users (permission 3, add
 * user), and the navigation shows it in the same group as Users.
 */
export default function SignupLinksPage() {
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedSignupLink | null>(null);
  const queryClient = useQueryClient();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Sign-up links"
        description="Send new starters a link to create their own account before their first day. You approve each account."
        breadcrumbs={[{ label: 'Users', to: '/users' }, { label: 'Sign-up links' }]}
        actions={<Button onClick={() => setCreating(true)}>New sign-up link</Button>}
      />
      {created ? <CreatedLink link={created} onDone={() => setCreated(null)} /> : null}
      <PendingSignups />
      <LinksList />
      {creating ? (
        <CreateLinkDialog
          onClose={() => setCreating(false)}
          onCreated={(link) => {
            setCreating(false);
            setCreated(link);
            void queryClient.invalidateQueries({ queryKey: signupKeys.all });
          }}
        />
      ) : null}
    </div>
  );
}

function CreatedLink({ link, onDone }: { link: CreatedSignupLink; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
    } catch {
      setCopied(false);
      notifyError(null, 'The link could not be copied: select it and copy it by hand.');
    }
  };
  return (
    <Card title="Your new sign-up link" data-testid="created-link">
      <p className="text-sm text-slate-700">
        Copy it now and send it to your new starters for {link.entity.name}. For your security it will not be
        shown again. It works until {formatDateTime(link.expires_at)}
        {link.max_uses ? ` or until ${link.max_uses} people have used it` : ''}.
      </p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <input
          readOnly
          aria-label="Sign-up link"
          data-testid="created-link-url"
          value={link.url}
          onFocus={(e) => e.currentTarget.select()}
          className="focus-ring min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-sm"
        />
        <Button onClick={copy}>{copied ? 'Copied' : 'Copy link'}</Button>
        <Button variant="secondary" onClick={onDone}>
          Done
        </Button>
      </div>
    </Card>
  );
}

function PendingSignups() {
  const [page, setPage] = useState(1);
  const list = usePendingSignups(page);
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<{ signup: SignupView; decision: 'approve' | 'reject' } | null>(null);
  const act = async () => {
    if (!asking) return;
    try {
      const res = await decide(asking.signup.id, asking.decision);
      notifySuccess(res.message ?? 'Done.');
      await queryClient.invalidateQueries({ queryKey: signupKeys.all });
    } catch (error) {
      notifyError(isApiError(error) ? error.data : null, 'The sign-up could not be updated.');
      await queryClient.invalidateQueries({ queryKey: signupKeys.all });
      throw error;
    }
  };
  return (
    <Card title="Waiting for approval" padded={false} data-testid="pending-signups">
      <DataTable
        caption="New starters waiting for approval"
        rows={list.data?.data}
        loading={list.isLoading}
        rowKey={(s) => s.id}
        empty={
          <EmptyState
            title="Nobody is waiting"
            description="New starters who sign up through a link appear here for you to approve."
          />
        }
        columns={[
          { key: 'name', header: 'Name', render: (s) => <span className="font-medium">{s.name}</span> },
          { key: 'email', header: 'E-mail', render: (s) => s.email, hideOnMobile: true },
          {
            key: 'home',
            header: 'Home and role',
            render: (s) => `${s.link.entity.name} · ${s.link.role.name}`,
          },
          { key: 'signed', header: 'Signed up', render: (s) => formatDate(s.created_at), hideOnMobile: true },
        ]}
        rowActions={(s) => (
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => setAsking({ signup: s, decision: 'approve' })}>
              Approve
            </Button>
            <Button size="sm" variant="danger" onClick={() => setAsking({ signup: s, decision: 'reject' })}>
              Reject
            </Button>
          </div>
        )}
      />
      <CardPagination meta={list.data?.meta} onPageChange={setPage} label="Sign-ups waiting for approval" />
      <ConfirmDialog
        open={asking !== null}
        title={
          asking?.decision === 'approve'
            ? `Approve ${asking.signup.name}?`
            : `Reject ${asking?.signup.name ?? ''}?`
        }
        message={
          asking?.decision === 'approve'
            ? 'Their account becomes a normal account of the home.'
            : 'Their account is removed. If they have already started training, it is kept for the records but they can no longer sign in.'
        }
        confirmLabel={asking?.decision === 'approve' ? 'Approve' : 'Reject'}
        tone={asking?.decision === 'approve' ? 'primary' : 'danger'}
        onConfirm={act}
        onClose={() => setAsking(null)}
      />
    </Card>
  );
}

function LinksList() {
  const [page, setPage] = useState(1);
  const [show, setShow] = useState<'active' | 'all'>('active');
  const list = useSignupLinks(page, show);
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<SignupLinkView | null>(null);
  const revoke = async () => {
    if (!revoking) return;
    try {
      const res = await revokeLink(revoking.id);
      notifySuccess(res.message ?? 'Sign-up link revoked.');
    } catch (error) {
      notifyError(isApiError(error) ? error.data : null, 'The link could not be revoked.');
      throw error;
    } finally {
      await queryClient.invalidateQueries({ queryKey: signupKeys.all });
    }
  };
  return (
    <Card
      title="Links"
      padded={false}
      actions={
        <Select
          label="Show"
          hideLabel
          value={show}
          onChange={(e) => {
            setShow(e.target.value as 'active' | 'all');
            setPage(1);
          }}
          options={[
            { value: 'active', label: 'Links that still work' },
            { value: 'all', label: 'All links' },
          ]}
        />
      }
    >
      <DataTable
        caption="Sign-up links"
        rows={list.data?.data}
        loading={list.isLoading}
        rowKey={(l) => l.id}
        empty={
          <EmptyState
            title="No sign-up links"
            description="Make one with “New sign-up link” and send it to your new starters."
          />
        }
        columns={[
          {
            key: 'home',
            header: 'Home and role',
            render: (l) => (
              <span>
                <span className="font-medium">{l.entity.name}</span> · {l.role.name}
              </span>
            ),
          },
          { key: 'start', header: 'Start date', render: (l) => formatDate(l.start_date) },
          {
            key: 'uses',
            header: 'Sign-ups',
            render: (l) =>
              `${l.uses}${l.max_uses ? ` of ${l.max_uses}` : ''}${l.pending ? ` (${l.pending} waiting)` : ''}`,
          },
          { key: 'expires', header: 'Expires', render: (l) => formatDate(l.expires_at), hideOnMobile: true },
          {
            key: 'status',
            header: 'Status',
            render: (l) => <Badge tone={STATUS[l.status].tone}>{STATUS[l.status].label}</Badge>,
          },
        ]}
        rowActions={(l) =>
          l.status === 'active' ? (
            <Button size="sm" variant="secondary" onClick={() => setRevoking(l)}>
              Revoke
            </Button>
          ) : null
        }
      />
      <CardPagination meta={list.data?.meta} onPageChange={setPage} label="Sign-up links" />
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this sign-up link?"
        message="It stops working at once. People who already signed up keep their accounts."
        confirmLabel="Revoke"
        onConfirm={revoke}
        onClose={() => setRevoking(null)}
      />
    </Card>
  );
}

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

function CreateLinkDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (l: CreatedSignupLink) => void;
}) {
  const wl = useWhitelabel();
  const entities = useEntityOptions();
  const { user } = useAuth();
  // The organisation list covers what lies below the caller's base; their own home (a manager's) is the base itself.
  const own = user?.primary_entity;
  const listed = (entities.data ?? []).filter((e) => e.level === 'B');
  const homes =
    own && own.level === 'B' && !listed.some((e) => e.id === own.id)
      ? [{ id: own.id, slug: own.slug, name: own.name, level: own.level, parent: null }, ...listed]
      : listed;
  const [form, setForm] = useState({
    entity_id: '',
    role_id: '',
    type_id: '',
    start_date: inAWeek(),
    expires_in_days: String(SIGNUP_LINK_DEFAULT_DAYS),
    max_uses: '',
    care_certificate_version_id: '',
    care_certificate_when: 'signup',
  });
  const home = homes.find((h) => String(h.id) === form.entity_id);
  const roles = useNamedOptions('roles', home?.slug);
  const types = useNamedOptions('types', home?.slug);
  const canAssign = usePermission([SignupLinkPerm.assignCertificate]);
  const versions = useVersions(canAssign);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({
      ...f,
      [field]: e.target.value,
      ...(field === 'entity_id' ? { role_id: '', type_id: '' } : {}),
    }));
  const num = (v: string) => (v === '' ? null : Number(v));

  const submit = async () => {
    setBusy(true);
    setErrors({});
    try {
      const res = await createLink({
        entity_id: Number(form.entity_id) || 0,
        role_id: Number(form.role_id) || (undefined as unknown as number),
        type_id: num(form.type_id),
        start_date: form.start_date,
        expires_in_days: Number(form.expires_in_days),
        max_uses: num(form.max_uses),
        care_certificate_version_id: num(form.care_certificate_version_id),
        care_certificate_when: form.care_certificate_version_id
          ? (form.care_certificate_when as 'signup')
          : null,
      });
      notifySuccess(res.message ?? 'Sign-up link created.');
      onCreated(res.data);
    } catch (error) {
      if (isApiError(error) && error.status === 422)
        setErrors((error.data?.errors ?? {}) as Record<string, string[]>);
      else notifyError(isApiError(error) ? error.data : null, 'The link could not be created.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open
      title="New sign-up link"
      submitLabel="Create link"
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
    >
      <div className="space-y-4">
        <Select
          label="Home"
          hint={`The ${organisationWord(wl).toLowerCase()} the new starters will work at.`}
          value={form.entity_id}
          onChange={set('entity_id')}
          error={errors.entity_id}
          options={[
            { value: '', label: 'Choose a home' },
            ...homes.map((h) => ({ value: h.id, label: h.parent ? `${h.name} (${h.parent})` : h.name })),
          ]}
        />
        <Select
          label="Job role"
          hint={`Decides their ${wl.primaryComplianceAltName} and ${wl.secondaryComplianceAltName} training.`}
          value={form.role_id}
          onChange={set('role_id')}
          error={errors.role_id}
          disabled={!home}
          options={[
            { value: '', label: home ? 'Choose a job role' : 'Choose a home first' },
            ...(roles.data ?? []).map((r) => ({ value: r.id, label: r.name })),
          ]}
        />
        <Select
          label="User type (optional)"
          hint="What they may do in the app. Only types whose access you hold yourself are accepted."
          value={form.type_id}
          onChange={set('type_id')}
          error={errors.type_id}
          disabled={!home}
          options={[
            { value: '', label: 'No user type' },
            ...(types.data ?? []).map((t) => ({ value: t.id, label: t.name })),
          ]}
        />
        <TextField
          label="Start date"
          type="date"
          value={form.start_date}
          onChange={set('start_date')}
          error={errors.start_date}
          required
        />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            label="Link works for (days)"
            type="number"
            min={1}
            max={SIGNUP_LINK_MAX_DAYS}
            hint={`At most ${SIGNUP_LINK_MAX_DAYS} days.`}
            value={form.expires_in_days}
            onChange={set('expires_in_days')}
            error={errors.expires_in_days}
          />
          <TextField
            label="Most sign-ups (optional)"
            type="number"
            min={1}
            hint="Leave empty for no limit."
            value={form.max_uses}
            onChange={set('max_uses')}
            error={errors.max_uses}
          />
        </div>
        {canAssign ? (
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Select
              label={`${wl.certificateGroupMenuName} (optional)`}
              value={form.care_certificate_version_id}
              onChange={set('care_certificate_version_id')}
              error={errors.care_certificate_version_id}
              options={[
                { value: '', label: 'Do not assign' },
                ...(versions.data ?? []).map((v) => ({ value: v.id, label: v.title })),
              ]}
            />
            <Select
              label="Assign it"
              value={form.care_certificate_when}
              onChange={set('care_certificate_when')}
              error={errors.care_certificate_when}
              disabled={!form.care_certificate_version_id}
              options={[
                { value: 'signup', label: 'When they sign up' },
                { value: 'approval', label: 'When you approve them' },
              ]}
            />
          </div>
        ) : null}
      </div>
    </FormDialog>
  );
}
