import { formatDateTime, Messages, type SentMessage } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { Button, ConfirmDialog, EmptyState } from '../ui';
import { deleteMessage, refreshMessages, useSentMessages } from './api';
import { MessageText } from './text';

/** Who a sent message went to, for its list row and its page. */
export function sentTo(m: SentMessage): string {
  if (m.recipient) return `To ${m.recipient.name}`;
  if (m.audience.kind === 'people') return `To ${m.recipient_count} people`;
  return `To ${m.audience.name}${m.audience.deep ? ' and below' : ''}`;
}

/** A message sent to a group (a role, an organisation, a tag, a list, everyone): who it reached and who read it. */
export function SentDetail({
  me,
  page,
  search,
  message,
  onBack,
}: {
  me: number;
  page: number;
  search: string;
  message: number;
  onBack: () => void;
}) {
  const queryClient = useQueryClient();
  const list = useSentMessages(me, { page, search });
  const m = list.data?.data.find((x) => x.id === message);
  const [confirming, setConfirming] = useState(false);
  const remove = async () => {
    if (!m) return;
    try {
      const res = await deleteMessage(me, m.id);
      notifySuccess(res.data?.message ?? Messages.messageDeleted);
      onBack();
      await refreshMessages(queryClient);
    } catch (e) {
      notifyError(errorEnvelope(e, Messages.somethingWentWrong), Messages.somethingWentWrong);
      throw e;
    }
  };
  return (
    <section aria-labelledby="sent-title">
      <header className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-slate-200 px-4 py-3">
        <Button variant="ghost" size="sm" className="lg:hidden" onClick={onBack}>
          <span aria-hidden="true">←</span> Back to messages
        </Button>
        <h2
          id="sent-title"
          className="min-w-0 basis-full truncate text-base font-semibold text-slate-900 lg:basis-auto"
        >
          {m ? sentTo(m) : 'Sent message'}
        </h2>
      </header>
      <div className="space-y-3 px-4 py-4 text-sm">
        {list.isPending ? (
          <p className="text-slate-600">Loading…</p>
        ) : !m ? (
          <EmptyState title="This message is not in the list" description="It may have been deleted." />
        ) : (
          <>
            <p className="text-xs text-slate-600">
              <time dateTime={m.sent_at}>{formatDateTime(m.sent_at)}</time>
              {m.mailed ? ' · also e-mailed' : ''}
            </p>
            <MessageText text={m.message} className="text-slate-900" />
            <p className="text-slate-700">
              Reached {m.recipient_count} {m.recipient_count === 1 ? 'person' : 'people'}; read by{' '}
              {m.read_count}.
            </p>
            <div className="flex justify-end">
              <Button
                variant="ghost"
                size="sm"
                className="text-danger-700"
                onClick={() => setConfirming(true)}
              >
                Delete
              </Button>
            </div>
          </>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title="Delete this message?"
        message="It is removed from your sent messages. Its recipients keep their copy."
        onConfirm={remove}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
