import {
  type CreatedTokenView,
  CreateTokenBody,
  formatDate,
  PERMISSION_CATEGORIES,
  TokenMessages,
  type TokenOptionsView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { notifySuccess } from '../app/notifications';
import { useFormSave } from '../entities/shared';
import { Checkbox, FormDialog, SearchInput, Spinner, TextField } from '../ui';
import { createToken, tokenKeys, useTokenOptions } from './api';

const categoryLabel = (c: string) => c.charAt(0).toUpperCase() + c.slice(1);
type Ability = TokenOptionsView['abilities'][number];

/**
 * "Create token": a name, the permissions it may use (grouped, searchable, only those the person holds), and the
 * last day it works (at most the organisation's maximum). On success the parent shows the token once.
 */
export function CreateTokenDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (token: CreatedTokenView) => void;
}) {
  const queryClient = useQueryClient();
  const options = useTokenOptions(open);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [expires, setExpires] = useState('');
  const [filter, setFilter] = useState('');
  const save = useFormSave('The token could not be created.');
  const { errors, reset } = save;

  useEffect(() => {
    if (!open) return;
    setName('');
    setChosen(new Set());
    setFilter('');
    reset();
  }, [open, reset]);
  // Default expiry: 30 days, or the maximum when that is sooner.
  useEffect(() => {
    if (!open || !options.data) return;
    const in30 = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    setExpires(in30 < options.data.max_date ? in30 : options.data.max_date);
  }, [open, options.data]);

  const groups = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const shown = (options.data?.abilities ?? []).filter(
      (a) => !needle || a.name.toLowerCase().includes(needle) || a.description.toLowerCase().includes(needle),
    );
    return PERMISSION_CATEGORIES.map((c) => ({
      category: c,
      items: shown.filter((a) => a.category === c),
    })).filter((g) => g.items.length > 0);
  }, [options.data, filter]);

  const toggle = (ids: number[], on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      for (const id of ids) on ? next.add(id) : next.delete(id);
      return next;
    });

  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

  const submit = () => {
    const body = { name, abilities: [...chosen], expires_at: expires };
    if (!save.check(CreateTokenBody.safeParse(body))) return;
    void save.run(async () => {
      const res = await createToken(body);
      notifySuccess(res.data.message ?? TokenMessages.created);
      await queryClient.invalidateQueries({ queryKey: tokenKeys.all });
      return res.data.data;
    }, onCreated);
  };

  const max = options.data;
  return (
    <FormDialog
      open={open}
      title="Create token"
      description="A token lets another system (a rota, payroll or HR tool) use the API as you, limited to the permissions you choose."
      submitLabel="Create token"
      busy={save.busy}
      refusal={save.refusal}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label="Name"
        hint="What the token is for, so you recognise it later."
        required
        value={name}
        maxLength={100}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
      />
      <fieldset
        className="space-y-2"
        aria-describedby={errors.abilities ? 'token-abilities-error' : undefined}
      >
        <legend className="text-sm font-medium text-slate-800">Permissions</legend>
        <p className="text-xs text-slate-600">
          Only the permissions you hold. If you lose one later, the token loses it too.
        </p>
        {errors.abilities ? (
          <p id="token-abilities-error" className="text-sm text-danger-700">
            {errors.abilities.join(' ')}
          </p>
        ) : null}
        <SearchInput
          label="Search permissions"
          placeholder="Permission name"
          value={filter}
          onSearch={setFilter}
        />
        {options.isLoading ? <Spinner label="Loading permissions" /> : null}
        <div className="max-h-72 space-y-3 overflow-y-auto rounded border border-slate-200 p-3">
          {groups.length === 0 && !options.isLoading ? (
            <p className="text-sm text-slate-600">No permission matches your search.</p>
          ) : null}
          {groups.map((g) => (
            <AbilityGroup
              key={g.category}
              label={categoryLabel(g.category)}
              items={g.items}
              chosen={chosen}
              onToggle={toggle}
            />
          ))}
        </div>
        <p className="text-xs text-slate-600" aria-live="polite">
          {chosen.size === 1 ? '1 permission chosen' : `${chosen.size} permissions chosen`}
        </p>
      </fieldset>
      <TextField
        label="Expires on"
        type="date"
        required
        min={tomorrow}
        max={max?.max_date}
        hint={
          max
            ? `The last day it works. At most ${max.max_days} days from today (${formatDate(max.max_date)}).`
            : 'The last day it works.'
        }
        value={expires}
        onChange={(e) => setExpires(e.target.value)}
        error={errors.expires_at}
      />
    </FormDialog>
  );
}

function AbilityGroup({
  label,
  items,
  chosen,
  onToggle,
}: {
  label: string;
  items: Ability[];
  chosen: Set<number>;
  onToggle: (ids: number[], on: boolean) => void;
}) {
  const ids = items.map((a) => a.id);
  const all = ids.every((id) => chosen.has(id));
  return (
    <fieldset className="space-y-1.5">
      <legend className="flex w-full flex-wrap items-center justify-between gap-2 text-sm font-semibold text-slate-900">
        <span>{label}</span>
        <button
          type="button"
          className="focus-ring rounded text-xs font-medium text-primary-800 underline"
          onClick={() => onToggle(ids, !all)}
        >
          {all ? `Clear all in ${label}` : `Select all in ${label}`}
        </button>
      </legend>
      {items.map((a) => (
        <Checkbox
          key={a.id}
          label={a.name.charAt(0).toUpperCase() + a.name.slice(1)}
          hint={a.description}
          checked={chosen.has(a.id)}
          onChange={(e) => onToggle([a.id], e.target.checked)}
        />
      ))}
    </fieldset>
  );
}
