import {
  DEFAULT_PASSWORD_REQUIREMENTS,
  type EntityDto,
  Messages,
  PASSWORD_MIN_LENGTH,
  type PasswordRequirements,
  UpdateEntityBody,
} from '@cc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { api, type Envelope } from '../app/api';
import { notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { Button, FormError, PageHeader, Select, TextField, Toggle } from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { useEntity } from './queries';
import {
  errorEnvelope,
  type FieldErrors,
  FormSection,
  LoadError,
  LoadingCard,
  serverFieldErrors,
  useNotFoundRedirect,
  zodFieldErrors,
} from './shared';

interface PasswordForm {
  rules: PasswordRequirements;
  min_length: string;
  expire: string;
  compromised: 'enforce_change' | 'off';
}

const RULES: { key: Exclude<keyof PasswordRequirements, 'min_length'>; label: string }[] = [
  { key: 'require_uppercase', label: 'At least one upper-case letter' },
  { key: 'require_lowercase', label: 'At least one lower-case letter' },
  { key: 'require_number', label: 'At least one number' },
  { key: 'require_symbol', label: 'At least one symbol' },
];

/** The PATCH body of the password settings, validated with the contract's schema. */
export function passwordBody(
  form: PasswordForm,
): { ok: true; body: UpdateEntityBody } | { ok: false; errors: FieldErrors } {
  const raw = {
    password_requirements: {
      ...form.rules,
      min_length: form.min_length === '' ? Number.NaN : Number(form.min_length),
    },
    password_expire_period_in_months: form.expire === '' ? null : Number(form.expire),
    compromised_passwords: form.compromised,
  };
  const parsed = UpdateEntityBody.safeParse(raw);
  if (!parsed.success) {
    const errors = zodFieldErrors(parsed.error);
    // Name the min length field rather than the nested object.
    if (errors.password_requirements) errors.min_length = errors.password_requirements;
    return { ok: false, errors };
  }
  return { ok: true, body: parsed.data };
}

function toForm(e: EntityDto): PasswordForm {
  const rules = e.password_requirements ?? DEFAULT_PASSWORD_REQUIREMENTS;
  return {
    rules,
    min_length: String(rules.min_length),
    expire: e.password_expire_period_in_months === null ? '' : String(e.password_expire_period_in_months),
    compromised: e.compromised_passwords,
  };
}

/** `/entities/{slug}/password-requirements` (spec 2 §3 password_requirements, expiry, compromised passwords). */
export default function PasswordRequirementsPage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  useNotFoundRedirect(entity.error, 'entity');
  const [form, setForm] = useState<PasswordForm | null>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  useEffect(() => {
    if (entity.data && !form) setForm(toForm(entity.data));
  }, [entity.data, form]);
  const mutation = useMutation({
    mutationFn: async (body: UpdateEntityBody) =>
      (await api.patch<Envelope<EntityDto>>(`/entities/${entity.data?.id}`, body)).data,
    onSuccess: (res) => {
      notifySuccess(res.message ?? Messages.entityUpdated);
      queryClient.setQueryData(['entities', 'one', slug], (old: EntityDto | undefined) =>
        old ? { ...old, ...res.data } : res.data,
      );
      setForm(toForm(res.data));
    },
  });

  if (entity.isLoading || (entity.data && !form)) return <LoadingCard />;
  if (entity.isError || !entity.data || !form)
    return (
      <LoadError
        error={entity.error}
        fallback={Messages.failedToFetchEntities}
        onRetry={() => void entity.refetch()}
      />
    );

  const server = serverFieldErrors(mutation.error);
  const errors: FieldErrors = { ...server, ...clientErrors };
  const minError =
    errors.min_length ?? server['password_requirements.min_length'] ?? errors.password_requirements;
  const submit = () => {
    const result = passwordBody(form);
    if (!result.ok) return setClientErrors(result.errors);
    setClientErrors({});
    mutation.mutate(result.body);
  };
  return (
    <div>
      <PageHeader
        title="Password requirements"
        description={`What passwords must look like for users of ${entity.data.name}.`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: entity.data.name, to: `/entities/${entity.data.slug}` },
          { label: 'Password requirements' },
        ]}
      />
      <form
        noValidate
        className="max-w-3xl space-y-5"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {mutation.isError ? (
          <FormError
            error={errorEnvelope(mutation.error, Messages.somethingWentWrong)}
            showFieldErrors={false}
          />
        ) : null}
        <FormSection title="Rules" columns={1}>
          <div className="max-w-xs">
            <TextField
              label="Minimum length"
              type="number"
              min={PASSWORD_MIN_LENGTH}
              max={64}
              inputMode="numeric"
              hint={`Between ${PASSWORD_MIN_LENGTH} and 64 characters.`}
              value={form.min_length}
              onChange={(e) => setForm({ ...form, min_length: e.target.value })}
              error={minError}
            />
          </div>
          {RULES.map((r) => (
            <Toggle
              key={r.key}
              label={r.label}
              checked={form.rules[r.key]}
              onChange={(v) => setForm({ ...form, rules: { ...form.rules, [r.key]: v } })}
            />
          ))}
        </FormSection>
        <FormSection title="Expiry and breaches">
          <TextField
            label="Passwords expire after (months)"
            type="number"
            min={1}
            max={60}
            inputMode="numeric"
            hint="Leave blank for passwords that never expire."
            value={form.expire}
            onChange={(e) => setForm({ ...form, expire: e.target.value })}
            error={errors.password_expire_period_in_months}
          />
          <Select
            label="Compromised passwords"
            hint="A new password found in known data breaches is always refused. This decides what happens to a current one."
            options={[
              { value: 'enforce_change', label: 'Must be changed at next sign-in' },
              { value: 'off', label: 'Not checked at sign-in' },
            ]}
            value={form.compromised}
            onChange={(e) => setForm({ ...form, compromised: e.target.value as PasswordForm['compromised'] })}
            error={errors.compromised_passwords}
          />
        </FormSection>
        <div className="flex justify-end">
          <Button type="submit" loading={mutation.isPending}>
            Save requirements
          </Button>
        </div>
      </form>
    </div>
  );
}
