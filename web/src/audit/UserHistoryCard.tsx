import { AuditPerm } from '@cc/contracts';
import { useState } from 'react';
import { usePermission } from '../app/auth';
import { errorEnvelope } from '../entities/shared';
import { PagedListCard } from '../ui';
import { AuditEntryItem } from './AuditEntry';
import { useUserHistory } from './api';

/**
 * "History" on `/users/{uuid}` (issue 35 §3): every change to the person's training records, exemptions, role and
 * permissions, who made it and when, newest first. Shown to holders of 24 (search training records).
 */
export function UserHistoryCard({ userRef }: { userRef: string }) {
  const allowed = usePermission([AuditPerm.viewHistory]);
  if (!allowed) return null;
  return <UserHistory userRef={userRef} />;
}

function UserHistory({ userRef }: { userRef: string }) {
  const [page, setPage] = useState(1);
  const history = useUserHistory(userRef, page);
  return (
    <PagedListCard
      title="History"
      testId="user-history"
      listLabel="History"
      loadingLabel="Loading history"
      pagesLabel="History pages"
      isLoading={history.isLoading}
      errorTitle="The history could not be loaded"
      errorText={history.isError ? errorEnvelope(history.error, 'Please try again.').message : undefined}
      empty={{
        title: 'No changes yet',
        description:
          'Training recorded, approved, changed or removed for them will appear here, with who did it.',
      }}
      page={history.data}
      onPageChange={setPage}
      itemClassName="px-5 py-3"
      renderItem={(e) => <AuditEntryItem entry={e} />}
    />
  );
}
