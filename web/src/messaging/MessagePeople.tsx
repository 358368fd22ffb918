import { MESSAGE_MAX_RECIPIENTS, Messages } from '@cc/contracts';
import { useState } from 'react';
import { usePermissionChecker } from '../app/auth';
import { notifyError } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { Button } from '../ui';
import { openCompose } from './ComposeDialog';
import { canMessagePeople, type Person } from './compose';

export type PeoplePage = { data: { id: number; name: string }[]; meta: { last_page: number } };

const PER_PAGE = 100;

/**
 * Everyone on a server-paged list, up to the most one message may name (MESSAGE_MAX_RECIPIENTS): pages of 100 until
 * the list or the cap ends.
 */
export async function collectPeople(
  fetchPage: (page: number, perPage: number) => Promise<PeoplePage>,
): Promise<Person[]> {
  const people: Person[] = [];
  const seen = new Set<number>();
  for (let page = 1; people.length < MESSAGE_MAX_RECIPIENTS; page++) {
    const res = await fetchPage(page, PER_PAGE);
    for (const p of res.data)
      if (!seen.has(p.id) && people.length < MESSAGE_MAX_RECIPIENTS) {
        seen.add(p.id);
        people.push({ id: p.id, label: p.name });
      }
    if (page >= res.meta.last_page || res.data.length === 0) break;
  }
  return people;
}

/** What the compose form says when a list is longer than one message may reach. */
export const cappedNote = (total: number) =>
  total > MESSAGE_MAX_RECIPIENTS
    ? `This list has ${total} people; one message reaches at most ${MESSAGE_MAX_RECIPIENTS}, so only the first ${MESSAGE_MAX_RECIPIENTS} are included.`
    : undefined;

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
  const [busy, setBusy] = useState(false);
  if (!canMessagePeople(can) || total === 0) return null;
  const open = async () => {
    setBusy(true);
    try {
      const people = await collectPeople(fetchPage);
      openCompose({ people, note: cappedNote(total) });
    } catch (error) {
      notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
    } finally {
      setBusy(false);
    }
  };
  const count = Math.min(total, MESSAGE_MAX_RECIPIENTS);
  return (
    <Button variant="secondary" size="sm" onClick={() => void open()} loading={busy}>
      {count === 1 ? 'Message this person' : `Message these ${count} people`}
    </Button>
  );
}
