import type { MessageAudience, ReceivedMessage, SentMessage } from '@cc/contracts';
import type { MessageColumns, ReceivedRow, SentStats } from './queries';

const iso = (d: Date | string) => new Date(d).toISOString();

const audienceOf = (m: MessageColumns): MessageAudience => ({
  kind: m.audience_kind,
  name: m.audience_name,
  deep: m.audience_deep,
});

export function presentReceived(row: ReceivedRow): ReceivedMessage {
  return {
    id: row.id,
    message: row.text,
    sender: { id: row.sender_id, uuid: row.sender_uuid, name: row.sender_name },
    audience: audienceOf(row),
    sent_at: iso(row.sent_at),
    read_at: row.read_at ? iso(row.read_at) : null,
    mailed: row.mailed,
  };
}

export function presentSent(row: MessageColumns, stats: SentStats | undefined): SentMessage {
  return {
    id: row.id,
    message: row.text,
    audience: audienceOf(row),
    recipient: stats?.person ?? null,
    recipient_count: stats?.recipientCount ?? 0,
    read_count: stats?.readCount ?? 0,
    sent_at: iso(row.sent_at),
    mailed: row.mailed,
  };
}
