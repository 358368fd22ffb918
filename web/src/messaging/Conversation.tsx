import {
  formatDateTime,
  type MessageAudience,
  Messages,
  MessagingPerm,
  type ReceivedMessage,
  SendMessageBody,
  type SentMessage,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useAuth, usePermissionChecker } from '../app/auth';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, serverFieldErrors, zodFieldErrors } from '../entities/shared';
import { Badge, Button, Checkbox, ConfirmDialog, cx, EmptyState, FormError, Spinner, TextArea } from '../ui';
import { deleteMessage, markReceived, refreshMessages, sendToPeople, useConversationSide } from './api';
import { readNotice } from './compose';
import { MessageText } from './text';

/** One line of a conversation: a message they sent me, or one I sent them. */
export type ConversationItem =
  | { box: 'received'; at: string; message: ReceivedMessage }
  | { box: 'sent'; at: string; message: SentMessage };

/**
 * The two sides merged by time, oldest first. While a side has older pages not loaded, messages older than its oldest
 * loaded one are held back, so the thread never shows a gap (a later page of the other side fills it).
 */
export function mergeConversation(
  received: { items: ReceivedMessage[]; complete: boolean },
  sent: { items: SentMessage[]; complete: boolean },
): ConversationItem[] {
  const oldest = (items: { sent_at: string }[]) =>
    items.reduce<string | null>((min, m) => (min === null || m.sent_at < min ? m.sent_at : min), null);
  const cutoffs = [
    received.complete ? null : oldest(received.items),
    sent.complete ? null : oldest(sent.items),
  ].filter((c): c is string => c !== null);
  const cutoff = cutoffs.length ? cutoffs.reduce((a, b) => (a > b ? a : b)) : null;
  const items: ConversationItem[] = [
    ...received.items.map((message) => ({ box: 'received' as const, at: message.sent_at, message })),
    ...sent.items.map((message) => ({ box: 'sent' as const, at: message.sent_at, message })),
  ];
  return items
    .filter((i) => cutoff === null || i.at >= cutoff)
    .sort((a, b) => (a.at === b.at ? a.message.id - b.message.id : a.at < b.at ? -1 : 1));
}

/** "Care Assistant at Oakfield House" when a message went to a group rather than to the one person. */
export function audienceText(audience: MessageAudience, recipientCount?: number): string | null {
  if (audience.kind === 'person') return null;
  const count =
    recipientCount === undefined ? '' : ` (${recipientCount} ${recipientCount === 1 ? 'person' : 'people'})`;
  if (audience.kind === 'people') return `Sent to a list of people${count}`;
  const below = audience.deep ? ' and below' : '';
  return `Sent to ${audience.name}${below}${count}`;
}

function useSide<T>(me: number, other: number, box: 'received' | 'sent') {
  const query = useConversationSide(me, other, box);
  const items = (query.data?.pages ?? []).flatMap((p) => p.data as T[]);
  return { query, items, complete: query.isSuccess && !query.hasNextPage };
}

/** The conversation with one person: received from them and sent to them, by time, with a reply box. */
export function Conversation({
  other,
  fallbackName,
  onBack,
}: {
  other: number;
  fallbackName?: string;
  onBack: () => void;
}) {
  const { user } = useAuth();
  const me = user?.id ?? 0;
  const can = usePermissionChecker();
  const queryClient = useQueryClient();
  const received = useSide<ReceivedMessage>(me, other, 'received');
  const sent = useSide<SentMessage>(me, other, 'sent');
  const [deleting, setDeleting] = useState<ConversationItem | null>(null);
  const items = mergeConversation(received, sent);
  const name =
    received.items.find((m) => m.sender.id === other)?.sender.name ??
    sent.items.find((m) => m.recipient?.id === other)?.recipient?.name ??
    fallbackName ??
    'this person';
  const loading = received.query.isPending || sent.query.isPending;
  const error = received.query.error ?? sent.query.error;
  useMarkOpenedRead(me, received.items);
  const threadRef = useRef<HTMLOListElement>(null);
  const latest = items[items.length - 1];
  const latestKey = latest ? `${latest.box}-${latest.message.id}` : '';
  useEffect(() => {
    // A new latest message (opening, a reply) scrolls it into view; loading earlier ones does not move the reader.
    const el = threadRef.current;
    if (latestKey && el) el.scrollTop = el.scrollHeight;
  }, [latestKey]);

  // spec 2 §8: message actions show the status text the server answers with.
  const toggleRead = async (m: ReceivedMessage) => {
    try {
      await markReceived(me, m.id, m.read_at === null);
      notifySuccess(readNotice(m.read_at === null));
      await refreshMessages(queryClient);
    } catch (e) {
      notifyError(errorEnvelope(e, Messages.somethingWentWrong), Messages.somethingWentWrong);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      const res = await deleteMessage(me, deleting.message.id);
      notifySuccess(res.data?.message ?? Messages.messageDeleted);
      await refreshMessages(queryClient);
    } catch (e) {
      notifyError(errorEnvelope(e, Messages.somethingWentWrong), Messages.somethingWentWrong);
      throw e;
    }
  };
  const more = received.query.hasNextPage || sent.query.hasNextPage;
  const loadEarlier = () => {
    if (received.query.hasNextPage) void received.query.fetchNextPage();
    if (sent.query.hasNextPage) void sent.query.fetchNextPage();
  };
  const hasWrittenToMe = received.items.length > 0;
  const mayReply = hasWrittenToMe || can([MessagingPerm.dashboard, MessagingPerm.activeUsers], 'any');

  return (
    <section aria-labelledby="conversation-title" className="flex min-h-0 flex-col">
      <header className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-slate-200 px-4 py-3">
        <Button variant="ghost" size="sm" className="lg:hidden" onClick={onBack}>
          <span aria-hidden="true">←</span> Back to messages
        </Button>
        <h2
          id="conversation-title"
          className="min-w-0 basis-full truncate text-base font-semibold text-slate-900 lg:basis-auto"
        >
          Conversation with {name}
        </h2>
      </header>
      <div className="px-4 py-4">
        {error ? (
          <p role="alert" className="text-sm text-danger-700">
            {errorEnvelope(error, 'Could not load the conversation.').message}
          </p>
        ) : loading ? (
          <div className="flex justify-center py-8" role="status" aria-label="Loading the conversation">
            <Spinner className="text-slate-500" />
          </div>
        ) : items.length === 0 ? (
          <EmptyState title={`No messages with ${name} yet`} description="Write the first one below." />
        ) : (
          <>
            {more ? (
              <div className="mb-3 text-center">
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={loadEarlier}
                  loading={received.query.isFetchingNextPage || sent.query.isFetchingNextPage}
                >
                  Show earlier messages
                </Button>
              </div>
            ) : null}
            <ol
              ref={threadRef}
              // Long threads scroll inside the card on wide screens, the latest in view.
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe)
              tabIndex={0}
              className="focus-ring space-y-3 rounded lg:max-h-[32rem] lg:overflow-y-auto lg:pr-1"
              aria-label={`Messages with ${name}`}
            >
              {items.map((item) => (
                <Bubble
                  key={`${item.box}-${item.message.id}`}
                  item={item}
                  otherName={name}
                  onToggleRead={toggleRead}
                  onDelete={() => setDeleting(item)}
                />
              ))}
            </ol>
          </>
        )}
      </div>
      <div className="border-t border-slate-200 px-4 py-4">
        {mayReply ? (
          <ReplyForm me={me} other={other} name={name} />
        ) : (
          <p className="text-sm text-slate-600">You can reply once {name} has sent you a message.</p>
        )}
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this message?"
        message="It is removed from your messages. Anyone else keeps their own copy."
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}

/**
 * Opening a conversation marks its unread messages read (once each: one marked unread again by the reader stays
 * unread while the conversation is open).
 */
function useMarkOpenedRead(me: number, received: ReceivedMessage[]) {
  const queryClient = useQueryClient();
  const marked = useRef(new Set<number>());
  const unread = received.filter((m) => m.read_at === null && !marked.current.has(m.id)).map((m) => m.id);
  const key = unread.join(',');
  useEffect(() => {
    if (!key) return;
    const ids = key.split(',').map(Number);
    for (const id of ids) marked.current.add(id);
    void Promise.allSettled(ids.map((id) => markReceived(me, id, true))).then(() =>
      refreshMessages(queryClient),
    );
  }, [key, me, queryClient]);
}

function Bubble({
  item,
  otherName,
  onToggleRead,
  onDelete,
}: {
  item: ConversationItem;
  otherName: string;
  onToggleRead: (m: ReceivedMessage) => void;
  onDelete: () => void;
}) {
  const mine = item.box === 'sent';
  const m = item.message;
  const unread = item.box === 'received' && item.message.read_at === null;
  const group =
    item.box === 'sent'
      ? audienceText(item.message.audience, item.message.recipient_count)
      : audienceText(item.message.audience);
  return (
    <li className={cx('flex', mine ? 'justify-end' : 'justify-start')}>
      <article
        className={cx(
          'w-full max-w-[min(36rem,92%)] rounded-xl px-4 py-3 text-sm shadow-sm ring-1',
          mine ? 'bg-primary-100 ring-primary-200' : 'bg-white ring-slate-200',
        )}
        aria-label={`${mine ? 'You' : otherName}, ${formatDateTime(m.sent_at)}`}
      >
        <header className="mb-1 flex flex-wrap items-baseline gap-x-2 text-xs text-slate-600">
          <span className="font-semibold text-slate-800">{mine ? 'You' : otherName}</span>
          <time dateTime={m.sent_at}>{formatDateTime(m.sent_at)}</time>
          {unread ? <Badge tone="primary">Unread</Badge> : null}
          {m.mailed ? <span>· also e-mailed</span> : null}
        </header>
        {group ? <p className="mb-1 text-xs text-slate-600">{group}</p> : null}
        <MessageText text={m.message} className="text-slate-900" />
        {item.box === 'sent' && item.message.recipient_count > 1 ? (
          <p className="mt-1 text-xs text-slate-600">
            Read by {item.message.read_count} of {item.message.recipient_count}
          </p>
        ) : null}
        <div className="mt-2 flex flex-wrap justify-end gap-1">
          {item.box === 'received' ? (
            <Button size="sm" variant="ghost" onClick={() => onToggleRead(item.message)}>
              {unread ? 'Mark as read' : 'Mark as unread'}
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" className="text-danger-700" onClick={onDelete}>
            Delete<span className="sr-only"> the message of {formatDateTime(m.sent_at)}</span>
          </Button>
        </div>
      </article>
    </li>
  );
}

function ReplyForm({ me, other, name }: { me: number; other: number; name: string }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [mail, setMail] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const parsed = SendMessageBody.safeParse({
      message: text,
      // A list of one: a reply needs no permission, a first message 39 or 81 (see compose.ts planSend).
      recipient: [other],
      messageTypes: mail ? ['mail'] : undefined,
    });
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    setErrors({});
    setFailure(null);
    setBusy(true);
    try {
      await sendToPeople(me, parsed.data);
      notifySuccess(`Reply sent to ${name}${mail ? ' and e-mailed' : ''}.`);
      setText('');
      setMail(false);
      await refreshMessages(queryClient);
    } catch (e) {
      setErrors(serverFieldErrors(e));
      setFailure(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {failure ? (
        <FormError error={errorEnvelope(failure, 'Could not send the message.')} showFieldErrors={false} />
      ) : null}
      <TextArea
        label={`Reply to ${name}`}
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        error={errors.message}
        onKeyDown={(e) => {
          // Ctrl/Cmd+Enter sends, as in most messaging tools; Enter alone keeps its new line.
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void submit();
          }
        }}
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Checkbox label="Also send by e-mail" checked={mail} onChange={(e) => setMail(e.target.checked)} />
        <Button type="submit" loading={busy}>
          Send reply
        </Button>
      </div>
    </form>
  );
}
