import { Perm } from '@cc/contracts';
import type { ReactNode } from 'react';
import { useAuth, usePermission, usePermissionChecker } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { Select, TextArea, TextField, Toggle } from '../ui';
import { levelChoice, SIGN_IN_ADDRESS_LABEL, siteWord, WEB_ADDRESS_LABEL } from '../whitelabel/words';
import type { EntityFlag, EntityFormState } from './entity-form';
import { type FieldErrors, FormSection } from './shared';

/** Labels and hints of the boolean settings (the spec names the fields only; the wording is ours). */
const FLAG_TEXT: Record<EntityFlag, { label: string; hint?: string }> = {
  events_reminder: {
    label: 'Send reminders',
    hint: 'Remind learners before their training expires and their booked events; a weekly digest to managers.',
  },
  allow_ms_sign_in: { label: 'Allow Microsoft sign-in' },
  allow_google_sign_in: { label: 'Allow Google sign-in' },
  notify_all_standards_selected: { label: 'Notify when all care certificate standards are selected' },
  require_training_record_evidence: { label: 'Require evidence on training records' },
  is_training_company: {
    label: 'Training company',
    hint: 'Its trainers deliver sessions to other organisations. A super admin approves a new training company before its sessions appear on other organisations’ marketplace.',
  },
  always_show_popup_on_login: { label: 'Always show the pop-up on sign-in' },
  can_view_internal_bookings: { label: 'Internal bookings' },
  can_view_external_bookings: { label: 'External bookings' },
  can_manage_bookings: { label: 'Manage bookings' },
  can_see_new_dashboards: { label: 'New dashboards' },
};

function FlagToggle({
  form,
  flag,
  onChange,
  disabled,
}: {
  form: EntityFormState;
  flag: EntityFlag;
  onChange: (flag: EntityFlag, value: boolean) => void;
  disabled?: boolean;
}) {
  const text = FLAG_TEXT[flag];
  return (
    <div className="space-y-1">
      <Toggle
        checked={form[flag]}
        onChange={(v) => onChange(flag, v)}
        label={text.label}
        disabled={disabled}
      />
      {text.hint ? <p className="pl-[58px] text-xs text-slate-600">{text.hint}</p> : null}
    </div>
  );
}

export function EntityForm({
  form,
  onChange,
  errors,
  mode,
  parents,
  hasPassword = false,
  footer,
  onSubmit,
}: {
  form: EntityFormState;
  onChange: (next: EntityFormState) => void;
  errors: FieldErrors;
  mode: 'create' | 'update';
  /** Level A entities the caller may choose as parent. */
  parents: { id: number; name: string }[];
  hasPassword?: boolean;
  footer: ReactNode;
  onSubmit: () => void;
}) {
  const wl = useWhitelabel();
  const { user } = useAuth();
  const can = usePermissionChecker();
  const canSeeNotes = usePermission([Perm.entityNotesView]);
  const set = <K extends keyof EntityFormState>(key: K, value: EntityFormState[K]) =>
    onChange({ ...form, [key]: value });
  const setFlag = (flag: EntityFlag, value: boolean) => set(flag, value);
  const text = (key: keyof EntityFormState) => ({
    value: String(form[key] ?? ''),
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as never),
    error: errors[key],
    name: key,
  });
  const parentEditable = mode === 'create' || can([Perm.updateParentEntity]);
  const superAdmin = Boolean(user?.super_admin);

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <FormSection title="Details">
        <TextField label="Name" required autoComplete="organization" {...text('name')} />
        <TextField
          label={WEB_ADDRESS_LABEL}
          hint={
            mode === 'create'
              ? 'The part of page addresses that names it, e.g. “oakfield-house”. Leave blank to make one from the name.'
              : 'The part of page addresses that names it, e.g. “oakfield-house”.'
          }
          {...text('slug')}
        />
        {mode === 'create' ? (
          <Select
            label="Kind"
            required
            options={[
              { value: 'A', label: levelChoice('A', wl) },
              { value: 'B', label: levelChoice('B', wl) },
            ]}
            value={form.level}
            onChange={(e) => onChange({ ...form, level: e.target.value as 'A' | 'B', parent_id: '' })}
            error={errors.level}
            name="level"
          />
        ) : null}
        {form.level === 'B' ? (
          <Select
            label="Parent"
            required
            placeholder="Choose its group"
            options={parents.map((p) => ({ value: p.id, label: p.name }))}
            disabled={!parentEditable}
            hint={
              parentEditable
                ? undefined
                : `You may not move this ${siteWord(wl).toLowerCase()} to another group.`
            }
            {...text('parent_id')}
          />
        ) : null}
        <TextField label="Code" hint="Your own reference, e.g. a cost centre." {...text('code')} />
        <TextField
          label={SIGN_IN_ADDRESS_LABEL}
          hint="The first part of its own sign-in address, e.g. “oakfield”."
          {...text('subdomain')}
        />
        <div className="sm:col-span-2">
          <FlagToggle form={form} flag="is_training_company" onChange={setFlag} />
        </div>
        {canSeeNotes ? (
          <div className="sm:col-span-2">
            <TextArea label="Notes" disabled={!can([Perm.entityNotesUpdate])} {...text('notes')} />
          </div>
        ) : null}
      </FormSection>

      <FormSection title="Contact">
        <TextField label="E-mail" type="email" autoComplete="email" {...text('email')} />
        <TextField label="Telephone" type="tel" autoComplete="tel" {...text('telephone')} />
        <TextField label="Website" type="url" placeholder="https://" {...text('website')} />
        <div className="sm:col-span-2">
          <TextArea label="Address" autoComplete="street-address" {...text('address')} />
        </div>
      </FormSection>

      <FormSection title="Compliance settings">
        <TextField
          label="Expiry warning (days)"
          type="number"
          min={0}
          max={365}
          inputMode="numeric"
          hint="A result is “expiring” this many days before it expires."
          disabled={!can([Perm.expiryWarning])}
          {...text('expiry_warning')}
        />
        <TextField
          label="Starter period (days)"
          type="number"
          min={0}
          max={730}
          inputMode="numeric"
          hint="Users who started less than this many days ago are new starters."
          disabled={!can([Perm.starterPeriod])}
          {...text('starter_period')}
        />
        <TextField
          label="Days to complete new requirements"
          type="number"
          min={0}
          max={365}
          inputMode="numeric"
          hint="A course or document newly required of a job role is due this many days later; until then it is due, not out of date."
          disabled={!can([Perm.starterPeriod])}
          {...text('new_requirement_days')}
        />
        {form.level === 'A' ? (
          <TextField
            label="Longest personal access token (days)"
            type="number"
            min={1}
            max={3650}
            inputMode="numeric"
            hint="The furthest expiry anyone in this organisation may give a personal access token."
            {...text('pat_max_days')}
          />
        ) : null}
        <FlagToggle form={form} flag="notify_all_standards_selected" onChange={setFlag} />
        <FlagToggle form={form} flag="require_training_record_evidence" onChange={setFlag} />
      </FormSection>

      <FormSection
        title="Reminders"
        description="Quiet hours are UK time: e-mails due inside them wait until they end (night shifts). Leave both empty for none."
      >
        <div className="sm:col-span-2">
          <FlagToggle form={form} flag="events_reminder" onChange={setFlag} />
        </div>
        <TextField label="Quiet hours from" type="time" {...text('quiet_hours_start')} />
        <TextField label="Quiet hours until" type="time" {...text('quiet_hours_end')} />
      </FormSection>

      <FormSection title="Sign-in">
        <FlagToggle form={form} flag="allow_ms_sign_in" onChange={setFlag} />
        <FlagToggle form={form} flag="allow_google_sign_in" onChange={setFlag} />
        <TextField
          label="Restricted access password"
          type="password"
          autoComplete="new-password"
          hint={
            hasPassword ? 'A password is set. Leave blank to keep it.' : 'Leave blank for no restriction.'
          }
          {...text('restricted_access_password')}
        />
        <TextField label="Restricted from" type="datetime-local" {...text('restricted_access_at')} />
        <div className="sm:col-span-2">
          <TextArea label="Restricted access message" {...text('restricted_access_message')} />
        </div>
      </FormSection>

      <FormSection title="Login pop-up">
        <div className="sm:col-span-2">
          <FlagToggle form={form} flag="always_show_popup_on_login" onChange={setFlag} />
        </div>
        <TextField label="Pop-up link" type="url" placeholder="https://" {...text('popup_link')} />
        <TextField label="Pop-up name" {...text('login_popup_alt_name')} />
      </FormSection>

      <FormSection
        title="Features"
        description={
          superAdmin
            ? 'Paid areas switched on for this organisation.'
            : 'Only a super admin changes features.'
        }
      >
        <FlagToggle form={form} flag="can_view_internal_bookings" onChange={setFlag} disabled={!superAdmin} />
        <FlagToggle form={form} flag="can_view_external_bookings" onChange={setFlag} disabled={!superAdmin} />
        <FlagToggle form={form} flag="can_manage_bookings" onChange={setFlag} disabled={!superAdmin} />
        <FlagToggle form={form} flag="can_see_new_dashboards" onChange={setFlag} disabled={!superAdmin} />
      </FormSection>

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{footer}</div>
    </form>
  );
}
