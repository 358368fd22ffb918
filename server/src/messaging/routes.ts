import {
  idParam,
  Messages,
  MessagesQuery,
  SendMessageBody,
  type SentMessage,
  SlugParams,
  SystemMessageBody,
  TagIdParams,
  UpdateReceivedMessageBody,
  UserRefParams,
} from '@cc/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  deleteMessage,
  listReceived,
  listSent,
  sendSystemMessage,
  sendToEntity,
  sendToPeople,
  sendToRole,
  sendToTag,
  updateReceived,
} from './service';

const ref = z.string().min(1).max(64);
const SentToParams = z.object({ id: ref, recipient: ref });
const ReceivedFromParams = z.object({ id: ref, sender: ref });
const MessageParams = z.object({ id: ref, messageId: idParam });
const RoleMessageParams = z.object({ slug: SlugParams.shape.slug, roleId: idParam });
const SystemTargetParams = z.object({ id: z.string().min(1).max(120) });

/** Every send answers 201 with the sent message and 'Sent messages updated.' (spec 2 §8). */
const sent = (reply: FastifyReply, message: SentMessage) =>
  reply.status(201).send(ok(message, Messages.sentMessagesUpdated));

/** Messaging (spec 2 §7 "Messaging"; shapes in contracts messaging.ts). HTTP only: rules live in the service. */
export async function messagingRoutes(app: App) {
  const tags = ['messaging'];
  const receivedPage = async (
    r: { url: string; query: MessagesQuery },
    page: Awaited<ReturnType<typeof listReceived>>,
  ) => ({ ...paginate(page.data, page.total, r.query, r.url), unread_message_count: page.unread });

  app.get(
    '/users/:id/sent/messages',
    { schema: { tags, params: UserRefParams, querystring: MessagesQuery } },
    async (r) => {
      const { data, total } = await listSent(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get(
    '/users/:id/sent/:recipient/messages',
    { schema: { tags, params: SentToParams, querystring: MessagesQuery } },
    async (r) => {
      const { data, total } = await listSent(r.ctx, r.params.id, r.query, r.params.recipient);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get(
    '/users/:id/received/messages',
    { schema: { tags, params: UserRefParams, querystring: MessagesQuery } },
    async (r) => receivedPage(r, await listReceived(r.ctx, r.params.id, r.query)),
  );
  app.get(
    '/users/:id/received/:sender/messages',
    { schema: { tags, params: ReceivedFromParams, querystring: MessagesQuery } },
    async (r) => receivedPage(r, await listReceived(r.ctx, r.params.id, r.query, r.params.sender)),
  );
  app.delete('/users/:id/messages/:messageId', { schema: { tags, params: MessageParams } }, async (r) => {
    await deleteMessage(r.ctx, r.params.id, r.params.messageId);
    return done(Messages.messageDeleted);
  });
  app.patch(
    '/users/:id/received/messages/:messageId',
    { schema: { tags, params: MessageParams, body: UpdateReceivedMessageBody } },
    async (r) =>
      ok(
        await updateReceived(r.ctx, r.params.id, r.params.messageId, r.body.read),
        Messages.receivedMessagesUpdated,
      ),
  );
  app.post(
    '/users/:id/message',
    { schema: { tags, params: UserRefParams, body: SendMessageBody } },
    async (r, reply) => sent(reply, await sendToPeople(r.ctx, r.params.id, r.body)),
  );
  app.post(
    '/entities/:slug/roles/:roleId/message',
    { schema: { tags, params: RoleMessageParams, body: SendMessageBody } },
    async (r, reply) => sent(reply, await sendToRole(r.ctx, r.params.slug, r.params.roleId, r.body)),
  );
  app.post(
    '/entities/:slug/message',
    { schema: { tags, params: SlugParams, body: SendMessageBody } },
    async (r, reply) => sent(reply, await sendToEntity(r.ctx, r.params.slug, r.body)),
  );
  app.post(
    '/tags/:id/message',
    { schema: { tags, params: TagIdParams, body: SendMessageBody } },
    async (r, reply) => sent(reply, await sendToTag(r.ctx, r.params.id, r.body)),
  );
  app.post(
    '/system/message/:id',
    { schema: { tags, params: SystemTargetParams, body: SystemMessageBody } },
    async (r, reply) => sent(reply, await sendSystemMessage(r.ctx, r.params.id, r.body)),
  );
}
