import { type AcknowledgementRow, formatDate } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope } from '../entities/shared';
import { Badge, Button, Card, CardPagination, type Column, DataTable, EmptyState, Select } from '../ui';
import { organisationWord } from '../whitelabel/words';
import { type AcknowledgementFilters, docAction, remindUnread, useAcknowledgements } from './api';

/** A person's acknowledgement in words: of the current version, of an earlier one, or none. */
function ackState(row: AcknowledgementRow) {
  if (row.current && row.acknowledged_at)
    return { tone: 'success' as const, label: `Acknowledged ${formatDate(row.acknowledged_at)}` };
  if (row.acknowledged_version)
    return { tone: 'warning' as const, label: `Read version ${row.acknowledged_version} only` };
  return { tone: 'neutral' as const, label: 'Not yet' };
}

/** "Who has read it" (136): everyone who must read it, acknowledged or outstanding, paged. */
export function AcknowledgementsCard({ documentId }: { documentId: number }) {
  const wl = useWhitelabel();
  const [filters, setFilters] = useState<AcknowledgementFilters>({ page: 1 });
  const list = useAcknowledgements(documentId, filters, true);
  const queryClient = useQueryClient();
  const [reminding, setReminding] = useState(false);
  // Issue 33 §4: an in-app notification and an e-mail to each person who has not read the current version.
  const remind = async () => {
    setReminding(true);
    try {
      await docAction(queryClient, () => remindUnread(documentId), 'Reminder sent.');
    } catch {
      // docAction showed the server's message.
    } finally {
      setReminding(false);
    }
  };
  const columns: Column<AcknowledgementRow>[] = [
    {
      key: 'person',
      header: 'Person',
      render: (r) => (
        <span className="flex flex-col gap-0.5">
          <span className="font-medium text-slate-900 wrap-anywhere">{r.user.name}</span>
          <span className="text-xs text-slate-600">{[r.role, r.entity.name].filter(Boolean).join(', ')}</span>
          <span className="sm:hidden">
            <Badge tone={ackState(r).tone}>{ackState(r).label}</Badge>
          </span>
        </span>
      ),
    },
    {
      key: 'state',
      header: 'Acknowledged',
      hideOnMobile: true,
      render: (r) => <Badge tone={ackState(r).tone}>{ackState(r).label}</Badge>,
    },
  ];
  return (
    <Card
      title="Who has read it"
      padded={false}
      data-testid="acknowledgements"
      actions={
        <Button variant="secondary" loading={reminding} onClick={() => void remind()}>
          Remind those who have not read it
        </Button>
      }
    >
      <div className="border-b border-slate-200 p-4 sm:max-w-xs">
        <Select
          label="Show"
          value={filters.status ?? ''}
          onChange={(e) =>
            setFilters({ page: 1, status: (e.target.value || undefined) as AcknowledgementFilters['status'] })
          }
          options={[
            { value: '', label: 'Everyone who must read it' },
            { value: 'acknowledged', label: 'Acknowledged' },
            { value: 'outstanding', label: 'Outstanding' },
          ]}
        />
      </div>
      {list.isError ? (
        <p role="alert" className="p-4 text-sm text-danger-800">
          {errorEnvelope(list.error, 'The list could not be loaded.').message}
        </p>
      ) : (
        <DataTable
          caption="Who has read it"
          columns={columns}
          rows={list.data?.data}
          rowKey={(r) => `${r.user.id}-${r.entity.id}`}
          loading={list.isLoading}
          empty={
            <EmptyState
              title={filters.status ? 'Nobody here' : 'Nobody must read it yet'}
              description={
                filters.status
                  ? 'Choose another filter to see everyone.'
                  : `Choose the job roles of a ${organisationWord(wl).toLowerCase()} who must read it.`
              }
            />
          }
        />
      )}
      <CardPagination
        meta={list.data?.meta}
        onPageChange={(page) => setFilters((f) => ({ ...f, page }))}
        label="Pages of people"
      />
    </Card>
  );
}
