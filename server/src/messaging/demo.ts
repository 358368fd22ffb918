import type { Db } from '../db/connect';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Demo messages, so the messages page has a conversation to show: at Oakfield House the manager (Sam Patel) and the
 * learner (Casey Lee) exchange a few messages, each has one unread, and the manager has written to the whole home
 * once. Fixed texts and times relative to the seed's `now`, inserted oldest first (lists are newest first by id).
 */
export async function seedMessagingDemo(trx: Db, o: { oakfieldId: number; now: Date }) {
  const people = await trx
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('email', 'in', ['manager@demo.test', 'learner@demo.test'])
    .execute();
  const manager = people.find((p) => p.email === 'manager@demo.test');
  const learner = people.find((p) => p.email === 'learner@demo.test');
  const home = await trx
    .selectFrom('entities')
    .select('name')
    .where('id', '=', o.oakfieldId)
    .executeTakeFirst();
  if (!manager || !learner || !home) return;
  const at = (msAgo: number) => new Date(o.now.getTime() - msAgo);

  const send = async (m: {
    from: number;
    text: string;
    sentAgo: number;
    audience: { kind: 'person' | 'entity'; name: string };
    to: { id: number; readAgo: number | null }[];
  }) => {
    const row = await trx
      .insertInto('messages')
      .values({
        sender_id: m.from,
        entity_id: o.oakfieldId,
        text: m.text,
        audience_kind: m.audience.kind,
        audience_name: m.audience.name,
        sent_at: at(m.sentAgo),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('message_recipients')
      .values(
        m.to.map((r) => ({
          message_id: row.id,
          recipient_id: r.id,
          read_at: r.readAgo === null ? null : at(r.readAgo),
        })),
      )
      .execute();
  };

  const staff = await trx
    .selectFrom('users')
    .select('id')
    .where('primary_entity_id', '=', o.oakfieldId)
    .where('id', '<>', manager.id)
    .orderBy('id')
    .execute();
  await send({
    from: manager.id,
    text: 'Good morning all. The CQC inspection is likely this quarter: please check your training is in date on your dashboard, and book anything that is expiring.',
    sentAgo: 6 * DAY,
    audience: { kind: 'entity', name: home.name },
    to: staff.map((s) => ({ id: s.id, readAgo: s.id === learner.id ? 6 * DAY - 2 * HOUR : null })),
  });
  const toLearner = { kind: 'person' as const, name: learner.name };
  const toManager = { kind: 'person' as const, name: manager.name };
  await send({
    from: manager.id,
    text: 'Hi Casey, your Fire Safety refresher expires next month. Could you book a session this week?',
    sentAgo: 3 * DAY,
    audience: toLearner,
    to: [{ id: learner.id, readAgo: 3 * DAY - HOUR }],
  });
  await send({
    from: learner.id,
    text: 'Thanks Sam, I have booked the Thursday session.',
    sentAgo: 3 * DAY - 2 * HOUR,
    audience: toManager,
    to: [{ id: manager.id, readAgo: 2 * DAY }],
  });
  await send({
    from: manager.id,
    text: 'Great, thank you. The team meeting is on Friday at 2pm in the lounge.',
    sentAgo: DAY,
    audience: toLearner,
    to: [{ id: learner.id, readAgo: null }],
  });
  await send({
    from: learner.id,
    text: 'Could I swap my Saturday shift with Jo? She has agreed.',
    sentAgo: 3 * HOUR,
    audience: toManager,
    to: [{ id: manager.id, readAgo: null }],
  });
}
