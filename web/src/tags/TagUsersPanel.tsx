import { type Tag, TagsMessages, type TagUser } from '@cc/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, serverFieldErrors } from '../entities/shared';
import { Picker, type PickItem } from '../results/Picker';
import { Button, CardPagination, DataTable, EmptyState } from '../ui';
import { linkTagUsers, searchUsersIn, unlinkTagUser, useTagUsers } from './api';

/**
 * One tag's users: a paged list by name, a picker over the staff of the tag's entity and its sites to add one, and
 * "Remove" on each row (96). The heading takes focus when the panel opens, so keyboard users land on it.
 */
export function TagUsersPanel({
  tag,
  canLink,
  onChanged,
  onClose,
}: {
  tag: Tag;
  canLink: boolean;
  onChanged: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [page, setPage] = useState(1);
  const [picked, setPicked] = useState<PickItem | null>(null);
  const [error, setError] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const users = useTagUsers(tag.id, { page });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView?.({ behavior: 'smooth', block: 'nearest' });
  }, []);

  const add = async () => {
    if (!picked) return setError(['Choose a user.']);
    setBusy(true);
    try {
      const res = await linkTagUsers(tag.id, [picked.id]);
      notifySuccess(res.data.message ?? TagsMessages.usersLinked);
      setPicked(null);
      setError(null);
      await onChanged();
    } catch (e) {
      const fields = serverFieldErrors(e);
      setError(fields.users ?? null);
      if (!fields.users) notifyError(errorEnvelope(e, 'Could not add the user.'), 'Could not add the user.');
    } finally {
      setBusy(false);
    }
  };
  const remove = async (user: TagUser) => {
    try {
      const res = await unlinkTagUser(tag.id, user.id);
      notifySuccess(res.data.message ?? TagsMessages.userUnlinked);
      // The last user of the last page gone: show the page before it.
      if (users.data && users.data.data.length === 1 && page > 1) setPage(page - 1);
      await onChanged();
    } catch (e) {
      notifyError(errorEnvelope(e, 'Could not remove the user.'), 'Could not remove the user.');
    }
  };

  return (
    <section
      id="tag-users"
      aria-labelledby="tag-users-heading"
      className="relative overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
    >
      <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-5 py-4">
        <h2
          id="tag-users-heading"
          ref={heading}
          tabIndex={-1}
          className="text-base font-semibold text-slate-900"
        >
          Users tagged {tag.name}
        </h2>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Close <span className="sr-only">users of {tag.name}</span>
        </Button>
      </header>
      {canLink ? (
        <form
          noValidate
          className="flex flex-col gap-3 border-b border-slate-200 p-5 sm:flex-row sm:items-start"
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <div className="flex-1">
            <Picker
              label="Add a user"
              queryKey={`tag-${tag.entity_id}-users`}
              search={searchUsersIn(tag.entity_id)}
              value={picked}
              onChange={(item) => {
                setPicked(item);
                setError(null);
              }}
              error={error}
              hint={`Staff of ${tag.entity.name} and its sites.`}
            />
          </div>
          <Button type="submit" loading={busy} className="sm:mt-7">
            Add user
          </Button>
        </form>
      ) : null}
      <div>
        <DataTable
          caption={`Users tagged ${tag.name}`}
          rows={users.data?.data}
          rowKey={(u) => u.id}
          loading={users.isLoading}
          columns={[
            {
              key: 'name',
              header: 'Name',
              render: (u) => (
                <Link
                  to={`/users/${u.uuid}`}
                  className="focus-ring rounded font-medium text-primary-800 hover:underline"
                >
                  {u.name}
                </Link>
              ),
            },
            { key: 'email', header: 'E-mail', render: (u) => u.email, hideOnMobile: true },
            {
              key: 'entity',
              header: 'Organisation',
              render: (u) => u.primary_entity.name,
              hideOnMobile: true,
            },
          ]}
          rowActions={
            canLink
              ? (u) => (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-danger-700"
                    onClick={() => void remove(u)}
                    aria-label={`Remove ${u.name} from ${tag.name}`}
                  >
                    Remove
                  </Button>
                )
              : undefined
          }
          empty={
            <EmptyState
              title="Nobody has this tag yet"
              description={canLink ? 'Add a user with the search above.' : undefined}
            />
          }
        />
        <CardPagination meta={users.data?.meta} onPageChange={setPage} label={`Users of ${tag.name} pages`} />
      </div>
    </section>
  );
}
