import { formatDateTime, type ReceivedMessage, type SentMessage } from '@cc/contracts';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAuth, usePermissionChecker } from '../app/auth';
import { notifyError } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { Button, Card, CardPagination, Checkbox, cx, EmptyState, PageHeader, SearchInput, Tabs } from '../ui';
import { useReceivedMessages, useSentMessages, useUnreadCount } from './api';
import { ComposeDialog, openCompose } from './ComposeDialog';
import { audienceText, Conversation } from './Conversation';
import { canCompose } from './compose';
import { SentDetail, sentTo } from './SentDetail';

type Box = 'received' | 'sent';

interface View {
  box: Box;
  page: number;
  search: string;
  unread: boolean;
  /** The person whose conversation is open. */
  with: number | null;
  /** A sent message to a group, open on its own. */
  message: number | null;
}

function viewFrom(params: URLSearchParams): View {
  const num = (key: string) => {
    const n = Number(params.get(key));
    return Number.isInteger(n) && n > 0 ? n : null;
  };
  return {
    box: params.get('box') === 'sent' ? 'sent' : 'received',
    page: num('page') ?? 1,
    search: params.get('search') ?? '',
    unread: params.get('unread') === '1',
    with: num('with'),
    message: num('message'),
  };
}

function paramsFrom(v: View): URLSearchParams {
  const out = new URLSearchParams();
  if (v.box === 'sent') out.set('box', 'sent');
  if (v.page > 1) out.set('page', String(v.page));
  if (v.search) out.set('search', v.search);
  if (v.unread && v.box === 'received') out.set('unread', '1');
  if (v.with) out.set('with', String(v.with));
  if (v.message) out.set('message', String(v.message));
  return out;
}

/** The first line of a message, for a list row (the full text shows in the conversation). */
const preview = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * /messages (spec 2 §2, dashboard layout): received and sent messages, each paged and searchable; choosing one opens
 * the conversation with that person (both directions, by time) with a reply box. Wide screens show the list and the
 * conversation side by side; at 375 px the list, then the conversation with a way back.
 */
export default function MessagesPage() {
  const { user } = useAuth();
  const me = user?.id ?? 0;
  const can = usePermissionChecker();
  const [params, setParams] = useSearchParams();
  const view = viewFrom(params);
  const setView = (patch: Partial<View>, replace = false) =>
    setParams(paramsFrom({ ...view, ...patch }), { replace });
  const unread = useUnreadCount(user?.id ?? null, Boolean(user));
  const composer = canCompose(can, Boolean(user?.super_admin));
  const [names, setNames] = useState<Record<number, string>>({});
  // The row chosen, marked in the list (the conversation holds the person's other messages too, left unmarked).
  const [chosenId, setChosenId] = useState<string | null>(null);
  const open = (person: { id: number; name: string }, row: string) => {
    setNames((n) => ({ ...n, [person.id]: person.name }));
    setChosenId(row);
    setView({ with: person.id, message: null });
  };
  const chosen = (row: string) =>
    row === chosenId || (view.message !== null && row === `sent-${view.message}`);
  const selected = view.with !== null || view.message !== null;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Messages"
        description={
          <span data-testid="unread-summary">
            {unread === null
              ? 'Messages from your organisation and your replies.'
              : unread === 0
                ? 'No unread messages.'
                : `${unread} unread ${unread === 1 ? 'message' : 'messages'}.`}
          </span>
        }
        actions={composer ? <Button onClick={() => openCompose()}>New message</Button> : undefined}
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <Card padded={false} className={cx('min-w-0', selected && 'max-lg:hidden')}>
          <div className="px-4 pt-2">
            <Tabs
              label="Messages"
              selectedIndex={view.box === 'sent' ? 1 : 0}
              onChange={(i) =>
                setView({ box: i === 1 ? 'sent' : 'received', page: 1, search: '', unread: false })
              }
              tabs={[
                {
                  key: 'received',
                  label: unread ? `Received (${unread} unread)` : 'Received',
                  content: (
                    <ReceivedList me={me} view={view} setView={setView} onOpen={open} chosen={chosen} />
                  ),
                },
                {
                  key: 'sent',
                  label: 'Sent',
                  content: <SentList me={me} view={view} setView={setView} onOpen={open} chosen={chosen} />,
                },
              ]}
            />
          </div>
        </Card>
        <Card padded={false} className={cx('min-w-0', !selected && 'max-lg:hidden')}>
          {view.with !== null ? (
            <Conversation
              key={view.with}
              other={view.with}
              fallbackName={names[view.with]}
              onBack={() => setView({ with: null, message: null })}
            />
          ) : view.message !== null ? (
            <SentDetail
              me={me}
              page={view.page}
              search={view.search}
              message={view.message}
              onBack={() => setView({ with: null, message: null })}
            />
          ) : (
            <EmptyState
              title="Choose a message"
              description="Its conversation opens here, with a box to reply."
            />
          )}
        </Card>
      </div>
      <ComposeDialog />
    </div>
  );
}

function ListSearch({
  view,
  setView,
  label,
}: {
  view: View;
  setView: (p: Partial<View>) => void;
  label: string;
}) {
  return (
    <SearchInput
      label={label}
      placeholder="Search text or name…"
      value={view.search}
      onSearch={(search) => setView({ search, page: 1 })}
    />
  );
}

function ListState({ isError, error, fallback }: { isError: boolean; error: unknown; fallback: string }) {
  useEffect(() => {
    if (isError) notifyError(errorEnvelope(error, fallback), fallback);
  }, [isError, error, fallback]);
  return isError ? (
    <EmptyState title={fallback} description={errorEnvelope(error, 'Please try again.').message} />
  ) : null;
}

function Skeleton() {
  return (
    <ul className="divide-y divide-slate-100" aria-busy="true" aria-label="Loading messages">
      {[1, 2, 3].map((i) => (
        <li key={i} className="space-y-2 py-3">
          <div className="cc-skeleton h-4 w-1/3 rounded bg-slate-200" />
          <div className="cc-skeleton h-3 w-5/6 rounded bg-slate-100" />
        </li>
      ))}
    </ul>
  );
}

const rowClass = (active: boolean) =>
  cx(
    'focus-ring block w-full rounded-lg px-3 py-3 text-left hover:bg-slate-50',
    active && 'bg-primary-100 hover:bg-primary-100',
  );

/** What the Received and Sent lists share: whose mailbox, the list's address state, and the open conversation. */
interface MailboxListProps {
  me: number;
  view: View;
  setView: (p: Partial<View>) => void;
  onOpen: (p: { id: number; name: string }, row: string) => void;
  chosen: (row: string) => boolean;
}

function ReceivedList({ me, view, setView, onOpen, chosen }: MailboxListProps) {
  const list = useReceivedMessages(me, { page: view.page, search: view.search, unread: view.unread });
  const rows = list.data?.data;
  return (
    <div className="space-y-3 pb-2">
      <div className="flex flex-wrap items-center gap-3">
        <ListSearch view={view} setView={setView} label="Search received messages" />
        <Checkbox
          label="Unread only"
          checked={view.unread}
          onChange={(e) => setView({ unread: e.target.checked, page: 1 })}
        />
      </div>
      <ListState isError={list.isError} error={list.error} fallback="Could not load your messages." />
      {list.isPending ? (
        <Skeleton />
      ) : rows?.length ? (
        <ul className="divide-y divide-slate-100" aria-label="Received messages">
          {rows.map((m) => (
            <li key={m.id}>
              <ReceivedRow
                m={m}
                active={view.with === m.sender.id && chosen(`received-${m.id}`)}
                onOpen={() => onOpen(m.sender, `received-${m.id}`)}
              />
            </li>
          ))}
        </ul>
      ) : list.isError ? null : (
        <EmptyState
          title={view.search || view.unread ? 'No messages match' : 'No messages yet'}
          description={
            view.search || view.unread
              ? 'Try another search, or show every message.'
              : 'Messages sent to you appear here.'
          }
        />
      )}
      <CardPagination
        meta={list.data?.meta}
        onPageChange={(page) => setView({ page })}
        label="Received pages"
      />
    </div>
  );
}

function ReceivedRow({ m, active, onOpen }: { m: ReceivedMessage; active: boolean; onOpen: () => void }) {
  const unread = m.read_at === null;
  const group = audienceText(m.audience);
  return (
    <button type="button" className={rowClass(active)} onClick={onOpen} aria-current={active || undefined}>
      <span className="flex items-baseline justify-between gap-2">
        <span
          className={cx(
            'flex min-w-0 items-center gap-2 text-sm',
            unread ? 'font-bold text-slate-900' : 'text-slate-800',
          )}
        >
          {unread ? (
            <>
              <span className="h-2 w-2 shrink-0 rounded-full bg-primary-700" aria-hidden="true" />
              <span className="sr-only">Unread, </span>
            </>
          ) : null}
          <span className="truncate">{m.sender.name}</span>
        </span>
        <time dateTime={m.sent_at} className="shrink-0 text-xs text-slate-600">
          {formatDateTime(m.sent_at)}
        </time>
      </span>
      {group ? <span className="mt-0.5 block truncate text-xs text-slate-600">{group}</span> : null}
      <span
        className={cx(
          'mt-0.5 line-clamp-2 block text-sm',
          unread ? 'font-semibold text-slate-900' : 'text-slate-600',
        )}
      >
        {preview(m.message)}
      </span>
    </button>
  );
}

function SentList({ me, view, setView, onOpen, chosen }: MailboxListProps) {
  const list = useSentMessages(me, { page: view.page, search: view.search });
  const rows = list.data?.data;
  return (
    <div className="space-y-3 pb-2">
      <ListSearch view={view} setView={setView} label="Search sent messages" />
      <ListState isError={list.isError} error={list.error} fallback="Could not load your sent messages." />
      {list.isPending ? (
        <Skeleton />
      ) : rows?.length ? (
        <ul className="divide-y divide-slate-100" aria-label="Sent messages">
          {rows.map((m) => (
            <li key={m.id}>
              <SentRow
                m={m}
                active={
                  (m.recipient ? view.with === m.recipient.id : view.message === m.id) &&
                  chosen(`sent-${m.id}`)
                }
                onOpen={() =>
                  m.recipient ? onOpen(m.recipient, `sent-${m.id}`) : setView({ message: m.id, with: null })
                }
              />
            </li>
          ))}
        </ul>
      ) : list.isError ? null : (
        <EmptyState
          title={view.search ? 'No messages match' : 'No messages yet'}
          description={view.search ? 'Try another search.' : 'Messages you send appear here.'}
        />
      )}
      <CardPagination meta={list.data?.meta} onPageChange={(page) => setView({ page })} label="Sent pages" />
    </div>
  );
}

function SentRow({ m, active, onOpen }: { m: SentMessage; active: boolean; onOpen: () => void }) {
  return (
    <button type="button" className={rowClass(active)} onClick={onOpen} aria-current={active || undefined}>
      <span className="flex items-baseline justify-between gap-2">
        <span className="min-w-0 truncate text-sm text-slate-800">{sentTo(m)}</span>
        <time dateTime={m.sent_at} className="shrink-0 text-xs text-slate-600">
          {formatDateTime(m.sent_at)}
        </time>
      </span>
      {m.recipient ? null : (
        <span className="mt-0.5 block text-xs text-slate-600">
          Read by {m.read_count} of {m.recipient_count}
        </span>
      )}
      <span className="mt-0.5 line-clamp-2 block text-sm text-slate-600">{preview(m.message)}</span>
    </button>
  );
}
