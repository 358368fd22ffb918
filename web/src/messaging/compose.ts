import {
  MESSAGE_MAX_RECIPIENTS,
  MessagingPerm,
  Perm,
  type SendMessageBody,
  SendMessageBody as SendMessageSchema,
  TagsPerm,
} from '@cc/contracts';

/**
 * The compose form's rules, apart from React so they can be tested alone: which audiences a user may choose (the
 * contract's "who may send to whom", messaging.ts) and what a filled form sends where.
 */
export type ComposeKind = 'people' | 'role' | 'entity' | 'tag' | 'system';

export type Can = (ids: number[], mode?: 'all' | 'any') => boolean;

export interface Person {
  id: number;
  label: string;
  hint?: string;
}
export interface EntityChoice {
  id: number;
  slug: string;
  label: string;
}

/**
 * Audiences the user may choose. 39 sends to people, a role or an organisation; 81 to a list of people; a tag needs
 * 97 with 39; a system message is for super admins. Choosing also needs the list to choose from: people come from
 * GET /users (21) unless the form was opened with them ("message these people"); a role from the organisation's job
 * roles (49 or 98); a tag from its tags (94). A user with none of these only replies.
 */
export function composeKinds(can: Can, superAdmin: boolean, prefilledPeople = false): ComposeKind[] {
  const kinds: ComposeKind[] = [];
  const dashboard = can([MessagingPerm.dashboard]);
  const people = dashboard || can([MessagingPerm.activeUsers]);
  if (people && (prefilledPeople || can([Perm.searchUsers]))) kinds.push('people');
  if (dashboard && can([Perm.viewRoles, Perm.readOnlyRoles], 'any')) kinds.push('role');
  if (dashboard) kinds.push('entity');
  if (dashboard && can([MessagingPerm.tagsUse, TagsPerm.view])) kinds.push('tag');
  if (superAdmin) kinds.push('system');
  return kinds;
}

/** May this user start a message at all (the page's "New message" button)? */
export const canCompose = (can: Can, superAdmin: boolean) => composeKinds(can, superAdmin).length > 0;

/** May this user send "message these people" from a list (dashboards, active users)? */
export const canMessagePeople = (can: Can) =>
  can([MessagingPerm.dashboard, MessagingPerm.activeUsers], 'any');

export interface ComposeState {
  kind: ComposeKind;
  people: Person[];
  entity: EntityChoice | null;
  roleId: number | null;
  tagId: number | null;
  /** System message: everyone, or one organisation (and below when deep). */
  systemTarget: 'all' | 'entity';
  /** A role, organisation or system message to an organisation: its descendants too. */
  deep: boolean;
  message: string;
  mail: boolean;
}

export const emptyCompose = (kind: ComposeKind, people: Person[] = []): ComposeState => ({
  kind,
  people,
  entity: null,
  roleId: null,
  tagId: null,
  systemTarget: 'all',
  deep: true,
  message: '',
  mail: false,
});

/** Where a valid form goes: the call of spec 2 §7 and its body. */
export type SendPlan =
  | { kind: 'people'; body: SendMessageBody }
  | { kind: 'role'; slug: string; roleId: number; body: SendMessageBody }
  | { kind: 'entity'; slug: string; body: SendMessageBody }
  | { kind: 'tag'; tagId: number; body: SendMessageBody }
  | { kind: 'system'; target: string; body: SendMessageBody & { deep: boolean } };

export type FieldErrors = Record<string, string[]>;

export const ComposeText = {
  choosePeople: 'Choose who to send it to.',
  tooManyPeople: `A message can go to at most ${MESSAGE_MAX_RECIPIENTS} people at once.`,
  chooseRole: 'Choose a job role.',
  chooseTag: 'Choose a tag.',
} as const;

const add = (errors: FieldErrors, field: string, message: string) => {
  errors[field] = [...(errors[field] ?? []), message];
};

/**
 * Checks the form with the contract's schema and the audience's own needs, and says where it goes. Errors are keyed
 * by the field they belong beside (message, recipient, entity, role, tag).
 */
export function planSend(
  state: ComposeState,
  entityWord: string,
): { ok: true; plan: SendPlan } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const parsed = SendMessageSchema.pick({ message: true }).safeParse({ message: state.message });
  if (!parsed.success) for (const issue of parsed.error.issues) add(errors, 'message', issue.message);
  const chooseEntity = `Choose ${/^[aeiou]/i.test(entityWord) ? 'an' : 'a'} ${entityWord.toLowerCase()}.`;
  const needsEntity = state.kind === 'role' || state.kind === 'entity' || state.kind === 'tag';
  if (needsEntity && !state.entity) add(errors, 'entity', chooseEntity);
  if (state.kind === 'system' && state.systemTarget === 'entity' && !state.entity)
    add(errors, 'entity', chooseEntity);
  if (state.kind === 'people') {
    if (state.people.length === 0) add(errors, 'recipient', ComposeText.choosePeople);
    else if (state.people.length > MESSAGE_MAX_RECIPIENTS)
      add(errors, 'recipient', ComposeText.tooManyPeople);
  }
  if (state.kind === 'role' && state.entity && state.roleId === null)
    add(errors, 'role', ComposeText.chooseRole);
  if (state.kind === 'tag' && state.entity && state.tagId === null) add(errors, 'tag', ComposeText.chooseTag);
  if (Object.keys(errors).length || !parsed.success) return { ok: false, errors };

  const body: SendMessageBody = { message: parsed.data.message };
  if (state.mail) body.messageTypes = ['mail'];
  const entity = state.entity as EntityChoice;
  switch (state.kind) {
    case 'people':
      // Always a list, even of one: the server asks 39 for a single `recipient` but 39 or 81 for a list, and a
      // list of one is still addressed to that person.
      return {
        ok: true,
        plan: { kind: 'people', body: { ...body, recipient: state.people.map((p) => p.id) } },
      };
    case 'role':
      return {
        ok: true,
        plan: {
          kind: 'role',
          slug: entity.slug,
          roleId: state.roleId as number,
          body: { ...body, deep: state.deep },
        },
      };
    case 'entity':
      return { ok: true, plan: { kind: 'entity', slug: entity.slug, body: { ...body, deep: state.deep } } };
    case 'tag':
      return { ok: true, plan: { kind: 'tag', tagId: state.tagId as number, body } };
    case 'system':
      return {
        ok: true,
        plan:
          state.systemTarget === 'all'
            ? { kind: 'system', target: 'all', body: { ...body, deep: false } }
            : { kind: 'system', target: entity.slug, body: { ...body, deep: state.deep } },
      };
  }
}

/** "Casey Lee", "Casey Lee and Sam Carer", "Casey Lee, Sam Carer and 3 others". */
export function peopleSummary(people: Pick<Person, 'label'>[]): string {
  const names = people.map((p) => p.label);
  if (names.length <= 2) return names.join(' and ');
  const rest = names.length - 2;
  return `${names.slice(0, 2).join(', ')} and ${rest} ${rest === 1 ? 'other' : 'others'}`;
}

/**
 * The notice after a send, in words (issue 33 §1): the API answers "Sent messages updated." (spec 2 §8), which says
 * what changed in the data, not what the user did. "Message sent to Casey Lee and e-mailed."
 */
export function sentNotice(plan: SendPlan, people: Pick<Person, 'label'>[], entityWord: string): string {
  const mailed = plan.body.messageTypes?.includes('mail') ? ' and e-mailed' : '';
  const to = (() => {
    switch (plan.kind) {
      case 'people':
        return people.length === 1 ? people[0]?.label : `${people.length} people`;
      case 'role':
        return 'everyone with that job role';
      case 'entity':
        return `everyone at the ${entityWord.toLowerCase()}`;
      case 'tag':
        return 'everyone with that tag';
      case 'system':
        return plan.target === 'all' ? 'everyone' : `everyone at the chosen ${entityWord.toLowerCase()}`;
    }
  })();
  return `Message sent to ${to ?? 'them'}${mailed}.`;
}

/** The notice after marking a received message read or unread. */
export const readNotice = (read: boolean) => (read ? 'Marked as read.' : 'Marked as unread.');
