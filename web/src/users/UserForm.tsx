import { Perm } from '@cc/contracts';
import type { ReactNode } from 'react';
import { usePermissionChecker } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { PASSWORD_RULE_HINT } from '../auth/shared';
import { useEntityOptions } from '../entities/queries';
import { type FieldErrors, FormSection } from '../entities/shared';
import { Select, TextField, Toggle } from '../ui';
import { organisationWord } from '../whitelabel/words';
import { useNamedOptions } from './queries';
import type { UserFormState } from './user-form';

/**
 * The user form: name, e-mail, organisation (entities in scope), job role and user type of the chosen
 * organisation (its own and inherited), trainer flag and start date; on create also the welcome e-mail or a
 * password. Controls the caller may not change are disabled (the server checks them per changed field).
 */
export function UserForm({
  mode,
  form,
  onChange,
  errors,
  self = false,
  pendingEmail = null,
  footer,
  onSubmit,
}: {
  mode: 'create' | 'update';
  form: UserFormState;
  onChange: (next: UserFormState) => void;
  errors: FieldErrors;
  /** Editing oneself: role, type and organisation are not one's own to change. */
  self?: boolean;
  /** An address change waiting for its confirmation link (update only). */
  pendingEmail?: string | null;
  footer: ReactNode;
  onSubmit: () => void;
}) {
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const entities = useEntityOptions();
  const entitySlug = entities.data?.find((e) => String(e.id) === form.primary_entity_id)?.slug;
  const roles = useNamedOptions('roles', entitySlug);
  const types = useNamedOptions('types', entitySlug);
  const set = <K extends keyof UserFormState>(key: K, value: UserFormState[K]) =>
    onChange({ ...form, [key]: value });
  const general = mode === 'create' || can([Perm.updateUser]) || (self && can([Perm.selfUpdate]));
  const canRole = mode === 'create' || (!self && can([Perm.updateRoleOnUser]));
  const canType = mode === 'create' || (!self && can([Perm.updateTypeOnUser]));
  const canEntity = mode === 'create' || (!self && can([Perm.updateUser]));
  const canTrainer = can([Perm.createTrainer]);

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <FormSection title="Person">
        <TextField
          label="Name"
          required
          autoComplete="off"
          value={form.name}
          onChange={(e) => set('name', e.target.value)}
          error={errors.name}
          disabled={!general}
          name="name"
        />
        <TextField
          label="E-mail"
          type="email"
          required={mode === 'create'}
          autoComplete="off"
          value={form.email}
          onChange={(e) => set('email', e.target.value)}
          error={errors.email}
          disabled={mode === 'update' && (self || !can([Perm.updateUser]))}
          hint={
            mode === 'update' && self
              ? 'Change your own e-mail from your account settings.'
              : pendingEmail
                ? `Confirmation sent to the new address, ${pendingEmail}. The e-mail changes once it is confirmed there and, for a change made here, from the current address too.`
                : mode === 'update'
                  ? 'A new address is used once the person confirms it from the new address and from their current one.'
                  : undefined
          }
          name="email"
        />
        <TextField
          label="Start date"
          type="date"
          value={form.start_date}
          onChange={(e) => set('start_date', e.target.value)}
          error={errors.start_date}
          disabled={mode === 'update' && !can([Perm.updateUser])}
          name="start_date"
        />
        <div className="self-end pb-2">
          <Toggle
            label="Trainer"
            checked={form.is_trainer}
            onChange={(v) => set('is_trainer', v)}
            disabled={!canTrainer}
          />
        </div>
      </FormSection>

      <FormSection title="Where they work">
        <div className="sm:col-span-2">
          <Select
            label={organisationWord(wl)}
            required
            placeholder={entities.isLoading ? 'Loading…' : `Choose ${organisationWord(wl).toLowerCase()}`}
            options={(entities.data ?? []).map((e) => ({
              value: e.id,
              label: e.parent ? `${e.name} (${e.parent})` : e.name,
            }))}
            value={form.primary_entity_id}
            // A new organisation has its own roles and types: clear the choice.
            onChange={(e) =>
              onChange({ ...form, primary_entity_id: e.target.value, role_id: '', type_id: '' })
            }
            error={errors.primary_entity_id}
            disabled={!canEntity}
            name="primary_entity_id"
          />
        </div>
        <Select
          label="Job role"
          placeholder={roles.isLoading ? 'Loading…' : 'No job role'}
          options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
          value={form.role_id}
          onChange={(e) => set('role_id', e.target.value)}
          error={errors.role_id}
          disabled={!canRole || !form.primary_entity_id}
          name="role_id"
        />
        <Select
          label="User type"
          placeholder={types.isLoading ? 'Loading…' : 'No user type'}
          options={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
          value={form.type_id}
          onChange={(e) => set('type_id', e.target.value)}
          error={errors.type_id}
          hint="The user type decides what they may do."
          disabled={!canType || !form.primary_entity_id}
          name="type_id"
        />
      </FormSection>

      {mode === 'create' ? (
        <FormSection title="Signing in" columns={1}>
          <div className="space-y-1">
            <Toggle
              label="Send a welcome e-mail"
              checked={form.send_welcome_email}
              onChange={(v) => onChange({ ...form, send_welcome_email: v, password: v ? '' : form.password })}
            />
            <p className="pl-[58px] text-xs text-slate-600">
              {form.send_welcome_email
                ? 'They choose their own password from a link in the e-mail.'
                : 'Set their first password below and tell them.'}
            </p>
          </div>
          {form.send_welcome_email ? null : (
            <div className="max-w-sm">
              <TextField
                label="Password"
                type="password"
                required
                autoComplete="new-password"
                value={form.password}
                onChange={(e) => set('password', e.target.value)}
                error={errors.password}
                hint={`${PASSWORD_RULE_HINT} The organisation may ask for more.`}
                name="password"
              />
            </div>
          )}
        </FormSection>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{footer}</div>
    </form>
  );
}
