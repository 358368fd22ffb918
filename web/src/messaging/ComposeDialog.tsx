import { MESSAGE_MAX_LENGTH, Messages, type Paged, Perm, type Tag } from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useActingAs } from '../app/acting-as';
import { api } from '../app/api';
import { useAuth, usePermission, usePermissionChecker } from '../app/auth';
import { Modal } from '../app/Modal';
import { hideModal, showModal } from '../app/modal';
import { notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope, serverFieldErrors } from '../entities/shared';
import { searchUsers } from '../results/api';
import { Picker, type PickItem } from '../results/Picker';
import { Button, Checkbox, cx, FormError, Select, TextArea } from '../ui';
import { useNamedOptions } from '../users/queries';
import { organisationsWord, organisationWord } from '../whitelabel/words';
import { refreshMessages, sendSystemMessage, sendToEntity, sendToPeople, sendToRole, sendToTag } from './api';
import {
  type ComposeKind,
  type ComposeState,
  composeKinds,
  type EntityChoice,
  emptyCompose,
  type FieldErrors,
  type Person,
  peopleSummary,
  planSend,
  type SendPlan,
} from './compose';

export const COMPOSE_MODAL = 'message-compose';

/** Which error each part of the form clears when it changes. */
const FIELD_OF: [keyof ComposeState, string][] = [
  ['message', 'message'],
  ['people', 'recipient'],
  ['entity', 'entity'],
  ['roleId', 'role'],
  ['tagId', 'tag'],
  ['kind', 'recipient'],
];

export interface ComposeData {
  /** "Message these people": the form opens addressed to them. */
  people?: Person[];
  /** Said above the form (e.g. that a long list was cut to the first 500). */
  note?: string;
}

/** Opens the compose dialog (mount <ComposeDialog /> once on the page). */
export const openCompose = (data: ComposeData = {}) => showModal(COMPOSE_MODAL, data);

export function ComposeDialog() {
  return (
    <Modal<ComposeData> name={COMPOSE_MODAL} title="New message" width="640px" scrollable height="auto">
      {(data) => <ComposeForm key={JSON.stringify(data?.people?.map((p) => p.id) ?? [])} data={data ?? {}} />}
    </Modal>
  );
}

async function send(plan: SendPlan, me: number) {
  switch (plan.kind) {
    case 'people':
      return sendToPeople(me, plan.body);
    case 'role':
      return sendToRole(plan.slug, plan.roleId, plan.body);
    case 'entity':
      return sendToEntity(plan.slug, plan.body);
    case 'tag':
      return sendToTag(plan.tagId, plan.body);
    case 'system':
      return sendSystemMessage(plan.target, plan.body);
  }
}

/** The organisation in view (acting-as with 19, else the user's own): the one choice for a user without 22. */
function useHomeEntity(): EntityChoice | null {
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

function ComposeForm({ data }: { data: ComposeData }) {
  const { user } = useAuth();
  const can = usePermissionChecker();
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const home = useHomeEntity();
  const prefilled = Boolean(data.people?.length);
  const kinds = composeKinds(can, Boolean(user?.super_admin), prefilled);
  const [state, setState] = useState<ComposeState>(() => ({
    ...emptyCompose(kinds[0] ?? 'people', data.people ?? []),
    entity: can([Perm.searchEntities]) ? null : home,
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<ComposeState>) => {
    setState((s) => ({ ...s, ...patch }));
    // A field's error goes once the field changes (the rest stay until the next send).
    setErrors((e) => {
      const gone = FIELD_OF.filter(([key]) => key in patch).map(([, field]) => field);
      return gone.some((f) => f in e)
        ? Object.fromEntries(Object.entries(e).filter(([f]) => !gone.includes(f)))
        : e;
    });
  };
  const entityWord = organisationWord(wl);

  const submit = async () => {
    if (!user) return;
    const checked = planSend(state, entityWord);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    setFailure(null);
    setBusy(true);
    try {
      const res = await send(checked.plan, user.id);
      notifySuccess(res.data.message ?? Messages.sentMessagesUpdated);
      await refreshMessages(queryClient);
      hideModal(COMPOSE_MODAL);
    } catch (error) {
      setErrors(serverFieldErrors(error));
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  if (kinds.length === 0)
    return (
      <p className="text-sm text-slate-700">
        You can reply to messages you receive, but you cannot start a new one. Ask your manager if you need
        to.
      </p>
    );

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {data.note ? (
        <p className="rounded-lg bg-warning-100 px-3 py-2 text-sm text-warning-800">{data.note}</p>
      ) : null}
      {failure ? (
        <FormError error={errorEnvelope(failure, 'Could not send the message.')} showFieldErrors={false} />
      ) : null}
      {kinds.length > 1 ? (
        <KindChoice
          kinds={kinds}
          value={state.kind}
          onChange={(kind) => set({ kind })}
          entityWord={entityWord}
        />
      ) : null}
      <Audience state={state} set={set} errors={errors} home={home} />
      <TextArea
        label="Message"
        required
        rows={6}
        value={state.message}
        onChange={(e) => set({ message: e.target.value })}
        error={errors.message}
        maxLength={MESSAGE_MAX_LENGTH}
        hint={`${state.message.length} of ${MESSAGE_MAX_LENGTH} characters. Plain text; web addresses become links.`}
      />
      <Checkbox
        label="Also send by e-mail"
        hint="Each recipient also gets the message in their inbox."
        checked={state.mail}
        onChange={(e) => set({ mail: e.target.checked })}
        error={errors.messageTypes}
      />
      <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => hideModal(COMPOSE_MODAL)}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          Send message
        </Button>
      </div>
    </form>
  );
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

function KindChoice({
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

function Audience({
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
