import {
  HELP_CONTACTS_PER_HOUR,
  type HelpContactBody,
  type HelpContactResult,
  type HelpIdentity,
  Messages,
  PRODUCT_NAME,
} from '@cc/contracts';
import type { Db } from '../db/connect';
import { aEntityIdOf } from '../entities/tree';
import { actorOf, type Ctx } from '../http/context';
import { tooManyRequests } from '../http/errors';
import type { DbOrTrx } from '../jobs/queries';
import { enqueue, type JobContext, PermanentJobError, registerJob } from '../jobs/queue';
import { recordJobMail } from '../mail/jobs';
import type { MailMessage } from '../mail/mailer';
import { sendMessageOnBehalf } from '../messaging/service';
import {
  countContact,
  entityContact,
  findContact,
  identityOf,
  insertContact,
  superAdminAddresses,
  supportUserIds,
} from './queries';

/**
 * "Contact support" (issue 14; spec 1 §1 and §4: the widget is identified with the user's details and fed session
 * data). Who receives it (ours, the spec is silent): the support address of the caller's level A organisation (its
 * e-mail on the organisation's settings) when it has one, else the platform's super admins. The catalogue has no
 * "support" permission, so no other users are picked.
 *
 * The request records the question and its mail job in one transaction (ARCHITECTURE "Side effects after commit");
 * the job writes the e-mails (mail_outbox, then SMTP through DELIVER_MAIL) and marks itself done together.
 */
export const HELP_CONTACT_JOB = 'help-contact';
const HOUR_MS = 60 * 60_000;
const throttleKey = (userId: number) => `help-contact:${userId}`;

/** `<current host>/users/{uuid}` (spec 1 §4): the public address of the app, not whatever host the request named. */
export const profileUrl = (appUrl: string, uuid: string) => `${appUrl.replace(/\/$/, '')}/users/${uuid}`;

interface Recipients {
  /** In words, for the user: never the addresses. */
  label: string;
  addresses: string[];
}

async function supportRecipients(db: DbOrTrx, aEntityId: number): Promise<Recipients> {
  const org = await entityContact(db, aEntityId);
  if (org?.email) return { label: `${org.name} support`, addresses: [org.email] };
  return { label: `the ${PRODUCT_NAME} support team`, addresses: await superAdminAddresses(db) };
}

/** POST /help/contact: anyone signed in, HELP_CONTACTS_PER_HOUR an hour (429 beyond, nothing recorded). */
export async function contactSupport(ctx: Ctx, body: HelpContactBody): Promise<HelpContactResult> {
  const actor = actorOf(ctx);
  const now = ctx.clock();
  return ctx.db.transaction().execute(async (trx) => {
    const { count, windowStartedAt } = await countContact(trx, throttleKey(actor.userId), now, HOUR_MS);
    if (count > HELP_CONTACTS_PER_HOUR) {
      const seconds = Math.max(1, Math.ceil((windowStartedAt.getTime() + HOUR_MS - now.getTime()) / 1000));
      // Thrown inside the transaction: the count above rolls back, so refused requests do not extend the wait.
      throw tooManyRequests(Messages.tooManyRequests.replace(':seconds', String(seconds)));
    }
    const recipients = await supportRecipients(trx, actor.aEntityId);
    const id = await insertContact(trx, {
      user_id: actor.userId,
      question: body.question,
      page: body.page ?? null,
      session: body.session,
      delivered_to: recipients.label,
      created_at: now,
    });
    await enqueue(trx, HELP_CONTACT_JOB, { contact_id: id }, { runAt: now, uniqueKey: `help-contact:${id}` });
    return { delivered_to: recipients.label };
  });
}

/** The identification of spec 1 §4: name, e-mail, role and type (id and name), profile link. */
export async function helpIdentity(
  db: DbOrTrx,
  appUrl: string,
  userId: number,
): Promise<HelpIdentity | null> {
  const u = await identityOf(db, userId);
  if (!u) return null;
  return {
    name: u.name,
    email: u.email,
    role: u.role_id && u.role_name ? { id: u.role_id, name: u.role_name } : null,
    type: u.type_id && u.type_name ? { id: u.type_id, name: u.type_name } : null,
    profile_url: profileUrl(appUrl, u.uuid),
  };
}

const SESSION_LABELS: Record<string, string> = {
  app_release: 'App release',
  environment: 'Environment',
  mode: 'Mode',
  connection: 'Connection',
  api_release: 'API release',
};

export function supportMail(
  to: string,
  o: {
    identity: HelpIdentity;
    organisation: string;
    question: string;
    page: string | null;
    session: Record<string, unknown>;
    askedAt: Date;
  },
): MailMessage {
  const { identity } = o;
  const describe = (v: { id: number; name: string } | null) => (v ? `${v.name} (id ${v.id})` : 'none');
  const text = [
    `${identity.name} asked for help on ${o.askedAt.toISOString()}:`,
    '',
    o.question,
    '',
    'Who',
    `Name: ${identity.name}`,
    `E-mail: ${identity.email} (reply to this address)`,
    `Organisation: ${o.organisation}`,
    `Role: ${describe(identity.role)}`,
    `Type: ${describe(identity.type)}`,
    `Profile: ${identity.profile_url}`,
    '',
    'Session',
    ...(o.page ? [`Page: ${o.page}`] : []),
    ...Object.entries(SESSION_LABELS).map(
      ([key, label]) => `${label}: ${String(o.session[key] ?? 'unknown')}`,
    ),
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  return {
    to,
    template: 'help_contact',
    subject: `Help request from ${identity.name}`,
    text,
  };
}

/**
 * The in-app copy of a help request (issue 14: "sends that ... as a message to the organisation's support contacts"):
 * from the person who asked, so support answers with a reply in /messages; in the job's transaction, so a retried
 * job never sends it twice. The e-mail carries the identification and session data; the message, the question.
 */
async function sendSupportMessage(
  trx: Db,
  contact: { user_id: number; question: string; page: string | null },
  aEntityId: number,
): Promise<void> {
  const org = await entityContact(trx, aEntityId);
  const recipientIds = (await supportUserIds(trx, org?.email ?? null)).filter((id) => id !== contact.user_id);
  if (!recipientIds.length) return;
  const text = [contact.question, ...(contact.page ? ['', `Asked on the page ${contact.page}`] : [])].join(
    '\n',
  );
  await sendMessageOnBehalf(trx, { senderId: contact.user_id, recipientIds, text, mail: false });
}

async function deliverContact(job: JobContext, payload: { contact_id: number }) {
  const contact = await findContact(job.db, payload.contact_id);
  if (!contact) throw new PermanentJobError('The help request no longer exists.');
  const identity = await helpIdentity(job.db, job.config.appUrl, contact.user_id);
  const user = await identityOf(job.db, contact.user_id);
  if (!identity || !user) throw new PermanentJobError('The user who asked no longer exists.');
  const aEntityId = await aEntityIdOf(job.db, user.entity_id);
  const recipients = await supportRecipients(job.db, aEntityId);
  if (!recipients.addresses.length)
    throw new PermanentJobError('There is no support address and no super admin.');
  const messages = recipients.addresses.map((to) =>
    supportMail(to, {
      identity,
      organisation: user.entity_name,
      question: contact.question,
      page: contact.page,
      session: contact.session,
      askedAt: new Date(contact.created_at),
    }),
  );
  await job.db.transaction().execute(async (trx) => {
    await recordJobMail(job, trx, messages);
    await sendSupportMessage(trx, contact, aEntityId);
    await job.finish(trx);
  });
}

let registered = false;
export function registerHelpJobs(): void {
  if (registered) return;
  registered = true;
  registerJob<{ contact_id: number }>(HELP_CONTACT_JOB, deliverContact, {
    maxAttempts: 5,
    timeoutSeconds: 120,
    keepsCaches: true,
  });
}
