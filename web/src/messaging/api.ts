import type {
  Paged,
  ReceivedMessagesPage,
  SendMessageBody,
  SendMessageResult,
  SentMessage,
  SystemMessageBody,
} from '@cc/contracts';
import { keepPreviousData, type QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';

/** The messaging calls of spec 2 §7 (contracts messaging.ts) through THE api client; query keys under ['messages']. */

export interface ListFilters {
  page: number;
  search: string;
  unread?: boolean;
}

export const messageKeys = {
  all: ['messages'] as const,
  unreadCount: (me: number) => ['messages', 'unread-count', me] as const,
  received: (me: number, f: ListFilters) => ['messages', 'received', me, f] as const,
  sent: (me: number, f: ListFilters) => ['messages', 'sent', me, f] as const,
  conversation: (me: number, other: number, box: 'received' | 'sent') =>
    ['messages', 'conversation', me, other, box] as const,
};

const base = (me: number) => `/users/${me}`;

export function useReceivedMessages(me: number, f: ListFilters) {
  return useQuery({
    queryKey: messageKeys.received(me, f),
    queryFn: async () =>
      (
        await api.get<ReceivedMessagesPage>(`${base(me)}/received/messages`, {
          params: { page: f.page, search: f.search || undefined, unread: f.unread || undefined },
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

export function useSentMessages(me: number, f: ListFilters) {
  return useQuery({
    queryKey: messageKeys.sent(me, f),
    queryFn: async () =>
      (
        await api.get<Paged<SentMessage>>(`${base(me)}/sent/messages`, {
          params: { page: f.page, search: f.search || undefined },
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

/**
 * The owner's unread count for the navigation badge: the received list's `unread_message_count` (one row asked for).
 * Every 60 s while the tab is visible (TanStack Query pauses intervals in a hidden tab); messaging writes invalidate it.
 */
export function useUnreadCount(me: number | null, enabled: boolean) {
  const query = useQuery({
    queryKey: messageKeys.unreadCount(me ?? 0),
    enabled: enabled && me !== null,
    queryFn: async () =>
      (
        await api.get<ReceivedMessagesPage>(`${base(me ?? 0)}/received/messages`, {
          params: { per_page: 1 },
          // A badge in the menu must never move the user to /403 or log them out by itself.
          skipAuthHandling: true,
        })
      ).data.unread_message_count,
    refetchInterval: 60_000,
    refetchIntervalInBackground: false,
    staleTime: 30_000,
  });
  return enabled ? (query.data ?? null) : null;
}

export const CONVERSATION_PAGE = 50;

/** One side of a conversation (received from / sent to one person), newest first, a page at a time. */
export function useConversationSide(me: number, other: number, box: 'received' | 'sent') {
  return useInfiniteQuery({
    queryKey: messageKeys.conversation(me, other, box),
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      (
        await api.get<Paged<unknown>>(`${base(me)}/${box}/${other}/messages`, {
          params: { page: pageParam, per_page: CONVERSATION_PAGE },
        })
      ).data,
    getNextPageParam: (last) =>
      last.meta.current_page < last.meta.last_page ? last.meta.current_page + 1 : undefined,
  });
}

export const sendToPeople = (me: number, body: SendMessageBody) =>
  api.post<Envelope<SendMessageResult>>(`${base(me)}/message`, body);
export const sendToRole = (slug: string, roleId: number, body: SendMessageBody) =>
  api.post<Envelope<SendMessageResult>>(
    `/entities/${encodeURIComponent(slug)}/roles/${roleId}/message`,
    body,
  );
export const sendToEntity = (slug: string, body: SendMessageBody) =>
  api.post<Envelope<SendMessageResult>>(`/entities/${encodeURIComponent(slug)}/message`, body);
export const sendToTag = (tagId: number, body: SendMessageBody) =>
  api.post<Envelope<SendMessageResult>>(`/tags/${tagId}/message`, body);
/** {id} is an organisation's id or slug, or `all` for everyone (super admins). */
export const sendSystemMessage = (id: string, body: SystemMessageBody) =>
  api.post<Envelope<SendMessageResult>>(`/system/message/${encodeURIComponent(id)}`, body);

export const markReceived = (me: number, messageId: number, read: boolean) =>
  api.patch<Envelope<unknown>>(`${base(me)}/received/messages/${messageId}`, { read });
export const deleteMessage = (me: number, messageId: number) =>
  api.delete<{ message?: string }>(`${base(me)}/messages/${messageId}`);

/** After any messaging write: the lists, conversations and the navigation's unread badge read again. */
export const refreshMessages = (client: QueryClient) =>
  client.invalidateQueries({ queryKey: messageKeys.all });
