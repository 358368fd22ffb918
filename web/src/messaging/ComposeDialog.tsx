import { MESSAGE_MAX_LENGTH, Perm } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAuth, usePermissionChecker } from '../app/auth';
import { Modal } from '../app/Modal';
import { hideModal, showModal } from '../app/modal';
import { notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope, serverFieldErrors } from '../entities/shared';
import { Button, Checkbox, FormError, TextArea } from '../ui';
import { organisationWord } from '../whitelabel/words';
import { refreshMessages, sendSystemMessage, sendToEntity, sendToPeople, sendToRole, sendToTag } from './api';
import { Audience, KindChoice, useHomeEntity } from './ComposeFields';
import {
  type ComposeState,
  composeKinds,
  emptyCompose,
  type FieldErrors,
  type Person,
  planSend,
  type SendPlan,
  sentNotice,
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
      await send(checked.plan, user.id);
      notifySuccess(sentNotice(checked.plan, state.people, entityWord));
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
