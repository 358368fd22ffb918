import { type Paged, Perm, type Tag } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useActingAs } from '../app/acting-as';
import { api } from '../app/api';
import { useAuth, usePermission } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope } from '../entities/shared';
import { searchUsers } from '../results/api';
import { Picker, type PickItem } from '../results/Picker';
import { Checkbox, cx, Select } from '../ui';
import { useNamedOptions } from '../users/queries';
import { organisationsWord, organisationWord } from '../whitelabel/words';
import {
  type ComposeKind,
  type ComposeState,
  type EntityChoice,
  type FieldErrors,
  type Person,
  peopleSummary,
} from './compose';

// The compose dialog's fields (ComposeDialog.tsx): the choice of audience, and for each audience what to choose —
// people, an organisation, a job role, a tag, everyone — with the lists they are chosen from.

/** The organisation in view (acting-as with 19, else the user's own): the one choice for a user without 22. */
export function useHomeEntity(): EntityChoice | null {
  const { user } = useAuth();
  const actingAs = useActingAs();
  const canActAs = usePermission([Perm.actingAs]);
  const home = (canActAs ? actingAs : null) ?? user?.primary_entity ?? null;
  return home ? { id: home.id, slug: home.slug, label: home.name } : null;
}

async function searchEntities(search: string): Promise<(PickItem & { slug: string })[]> {
  const res = await api.get<Paged<{ id: number; slug: string; name: string; level: 'A' | 'B' }>>(
    '/entities',
    {
      params: { search: search || undefined, deep: true, per_page: 10 },
    },
  );
  return res.data.data.map((e) => ({ id: e.id, slug: e.slug, label: e.name }));
}

function kindLabel(kind: ComposeKind, entityWord: string): string {
  switch (kind) {
    case 'people':
      return 'People';
    case 'role':
      return 'A job role';
    case 'entity':
      return `${/^[aeiou]/i.test(entityWord) ? 'An' : 'A'} ${entityWord.toLowerCase()}`;
    case 'tag':
      return 'A tag';
    case 'system':
      return 'Everyone (system message)';
  }
}

export function KindChoice({
  kinds,
  value,
  onChange,
  entityWord,
}: {
  kinds: ComposeKind[];
  value: ComposeKind;
  onChange: (kind: ComposeKind) => void;
  entityWord: string;
}) {
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">Send to</legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {kinds.map((kind) => (
          <label
            key={kind}
            className={cx(
              'flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary-500',
              value === kind
                ? 'bg-primary-100 font-medium text-primary-900 ring-primary-400'
                : 'bg-white text-slate-700 ring-slate-300',
            )}
          >
            <input
              type="radio"
              name={name}
              value={kind}
              checked={value === kind}
              onChange={() => onChange(kind)}
              className="accent-[var(--cc-primary-700)]"
            />
            {kindLabel(kind, entityWord)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function Audience({
  state,
  set,
  errors,
  home,
}: {
  state: ComposeState;
  set: (patch: Partial<ComposeState>) => void;
  errors: FieldErrors;
  home: EntityChoice | null;
}) {
  const wl = useWhitelabel();
  switch (state.kind) {
    case 'people':
      return (
        <PeopleField people={state.people} onChange={(people) => set({ people })} error={errors.recipient} />
      );
    case 'role':
      return (
        <>
          <EntityField
            state={state}
            set={(entity) => set({ entity, roleId: null })}
            error={errors.entity}
            home={home}
          />
          {state.entity ? (
            <RoleField
              slug={state.entity.slug}
              value={state.roleId}
              onChange={(roleId) => set({ roleId })}
              error={errors.role}
            />
          ) : null}
          <DeepField deep={state.deep} onChange={(deep) => set({ deep })} />
        </>
      );
    case 'entity':
      return (
        <>
          <EntityField
            state={state}
            set={(entity) => set({ entity })}
            error={errors.entity}
            home={home}
            hint="Everyone here receives it."
          />
          <DeepField deep={state.deep} onChange={(deep) => set({ deep })} />
        </>
      );
    case 'tag':
      return (
        <>
          <EntityField
            state={state}
            set={(entity) => set({ entity, tagId: null })}
            error={errors.entity}
            home={home}
          />
          {state.entity ? (
            <TagField
              slug={state.entity.slug}
              value={state.tagId}
              onChange={(tagId) => set({ tagId })}
              error={errors.tag}
            />
          ) : null}
        </>
      );
    case 'system':
      return (
        <div className="space-y-3">
          <Select
            label="Who receives it"
            value={state.systemTarget}
            onChange={(e) => set({ systemTarget: e.target.value as ComposeState['systemTarget'] })}
            options={[
              { value: 'all', label: 'Everyone on the platform' },
              { value: 'entity', label: `One ${organisationWord(wl).toLowerCase()}` },
            ]}
          />
          {state.systemTarget === 'entity' ? (
            <>
              <EntityField
                state={state}
                set={(entity) => set({ entity })}
                error={errors.entity}
                home={home}
              />
              <DeepField deep={state.deep} onChange={(deep) => set({ deep })} />
            </>
          ) : null}
        </div>
      );
  }
}

/** `deep`: the organisation's descendants (a group's homes) receive it too. */
function DeepField({ deep, onChange }: { deep: boolean; onChange: (deep: boolean) => void }) {
  const wl = useWhitelabel();
  return (
    <Checkbox
      label={`Include the ${organisationsWord(wl).toLowerCase()} below it`}
      checked={deep}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}

const SHOWN_PEOPLE = 8;

function PeopleField({
  people,
  onChange,
  error,
}: {
  people: Person[];
  onChange: (people: Person[]) => void;
  error?: string[];
}) {
  const canSearch = usePermission([Perm.searchUsers]);
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? people : people.slice(0, SHOWN_PEOPLE);
  const listId = useId();
  return (
    <div className="space-y-2">
      {canSearch ? (
        <Picker
          label="Add a person"
          value={null}
          clearOnSelect
          queryKey="message-people"
          search={searchUsers}
          onChange={(item) => {
            if (item && !people.some((p) => p.id === item.id)) onChange([...people, item]);
          }}
          error={people.length ? null : error}
          placeholder="Type a name or e-mail…"
        />
      ) : null}
      {people.length ? (
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-slate-800" id={listId}>
            To {people.length === 1 ? '1 person' : `${people.length} people`}:{' '}
            <span className="font-normal text-slate-700">{peopleSummary(people)}</span>
          </p>
          <ul className="flex flex-wrap gap-1.5" aria-labelledby={listId}>
            {shown.map((p) => (
              <li
                key={p.id}
                className="flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pr-1 pl-3 text-sm text-slate-800 ring-1 ring-slate-200"
              >
                {p.label}
                <button
                  type="button"
                  className="focus-ring rounded-full p-1 text-slate-500 hover:bg-slate-200 hover:text-slate-800"
                  aria-label={`Remove ${p.label}`}
                  onClick={() => onChange(people.filter((x) => x.id !== p.id))}
                >
                  <svg viewBox="0 0 20 20" className="h-3.5 w-3.5" aria-hidden="true">
                    <path
                      d="M5 5l10 10M15 5L5 15"
                      stroke="currentColor"
                      strokeWidth="2"
                      strokeLinecap="round"
                    />
                  </svg>
                </button>
              </li>
            ))}
          </ul>
          {people.length > SHOWN_PEOPLE ? (
            <button
              type="button"
              className="focus-ring rounded text-sm font-medium text-primary-800 underline"
              onClick={() => setShowAll(!showAll)}
            >
              {showAll ? 'Show fewer' : `Show all ${people.length}`}
            </button>
          ) : null}
          {error ? <p className="text-sm text-danger-700">{error.join(' ')}</p> : null}
        </div>
      ) : !canSearch && error ? (
        <p className="text-sm text-danger-700">{error.join(' ')}</p>
      ) : null}
    </div>
  );
}

function EntityField({
  state,
  set,
  error,
  home,
  hint,
}: {
  state: ComposeState;
  set: (entity: EntityChoice | null) => void;
  error?: string[];
  home: EntityChoice | null;
  hint?: string;
}) {
  const wl = useWhitelabel();
  const canSearch = usePermission([Perm.searchEntities]);
  const word = organisationWord(wl);
  if (!canSearch)
    return (
      <div className="space-y-1 text-sm">
        <p className="font-medium text-slate-800">{word}</p>
        <p className="text-slate-700">{home?.label ?? '—'}</p>
        {hint ? <p className="text-xs text-slate-600">{hint}</p> : null}
      </div>
    );
  return (
    <Picker
      label={word}
      required
      value={state.entity ? { id: state.entity.id, label: state.entity.label } : null}
      queryKey="message-entities"
      search={searchEntities}
      onChange={(item) =>
        set(
          item ? { id: item.id, label: item.label, slug: (item as PickItem & { slug: string }).slug } : null,
        )
      }
      error={error}
      hint={hint}
      placeholder={`Type a ${word.toLowerCase()} name…`}
    />
  );
}

function RoleField({
  slug,
  value,
  onChange,
  error,
}: {
  slug: string;
  value: number | null;
  onChange: (id: number | null) => void;
  error?: string[];
}) {
  const roles = useNamedOptions('roles', slug);
  return (
    <Select
      label="Job role"
      required
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
      placeholder={roles.isLoading ? 'Loading job roles…' : 'Choose a job role'}
      options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
      error={roles.isError ? errorEnvelope(roles.error, 'Could not load the job roles.').message : error}
      hint="Everyone in this job role here receives it."
    />
  );
}

function TagField({
  slug,
  value,
  onChange,
  error,
}: {
  slug: string;
  value: number | null;
  onChange: (id: number | null) => void;
  error?: string[];
}) {
  const tags = useQuery({
    queryKey: ['tags', 'entity', slug, 'message-options'],
    queryFn: async () =>
      (await api.get<Paged<Tag>>(`/entities/${encodeURIComponent(slug)}/tags`, { params: { per_page: 100 } }))
        .data.data,
  });
  return (
    <Select
      label="Tag"
      required
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
      placeholder={tags.isLoading ? 'Loading tags…' : tags.data?.length ? 'Choose a tag' : 'No tags here'}
      options={(tags.data ?? []).map((t) => ({ value: t.id, label: `${t.name} (${t.users_count})` }))}
      error={tags.isError ? errorEnvelope(tags.error, 'Could not load the tags.').message : error}
      hint="Everyone with this tag receives it."
    />
  );
}
