import { MESSAGE_MAX_RECIPIENTS, Messages } from '@cc/contracts';
import { useState } from 'react';
import { useAuth, usePermissionChecker } from '../app/auth';
import { notifyError, notifyInfo } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { Button } from '../ui';
import { openCompose } from './ComposeDialog';
import { canMessagePeople, type Person } from './compose';

export type PeoplePage = { data: { id: number; name: string }[]; meta: { last_page: number } };

const PER_PAGE = 100;

/**
 * Everyone on a server-paged list but the sender (one cannot message oneself), up to the most one message may name
 * (MESSAGE_MAX_RECIPIENTS): pages of 100 until the list or the cap ends. `cut` says someone was left out by the cap.
 */
export async function collectPeople(
  me: number,
  fetchPage: (page: number, perPage: number) => Promise<PeoplePage>,
): Promise<{ people: Person[]; cut: boolean }> {
  const people: Person[] = [];
  const seen = new Set<number>([me]);
  for (let page = 1; ; page++) {
    const res = await fetchPage(page, PER_PAGE);
    for (const p of res.data) {
      if (seen.has(p.id)) continue;
      if (people.length === MESSAGE_MAX_RECIPIENTS) return { people, cut: true };
      seen.add(p.id);
      people.push({ id: p.id, label: p.name });
    }
    if (page >= res.meta.last_page || res.data.length === 0) return { people, cut: false };
  }
}

/** What the compose form says when a list is longer than one message may reach. */
export const cappedNote = (total: number) =>
  `This list has ${total} people; one message reaches at most ${MESSAGE_MAX_RECIPIENTS}, so only the first ${MESSAGE_MAX_RECIPIENTS} are included.`;

/**
 * "Message these people" on a list of staff (manager dashboard, active users): opens the compose dialog addressed to
 * everyone on the list (mount <ComposeDialog /> once on the page). Shown with 39 or 81.
 */
export function MessagePeopleButton({
  total,
  fetchPage,
}: {
  total: number;
  fetchPage: (page: number, perPage: number) => Promise<PeoplePage>;
}) {
  const can = usePermissionChecker();
  const { user } = useAuth();
  const [busy, setBusy] = useState(false);
  if (!canMessagePeople(can) || total === 0) return null;
  const open = async () => {
    setBusy(true);
    try {
      const { people, cut } = await collectPeople(user?.id ?? 0, fetchPage);
      if (people.length === 0) return void notifyInfo('There is no one else on this list to message.');
      openCompose({ people, note: cut ? cappedNote(total) : undefined });
    } catch (error) {
      notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" size="sm" onClick={() => void open()} loading={busy}>
      {/* The dialog says how many: the list's count can include the sender, who is left out. */}
      Message these people
    </Button>
  );
}
