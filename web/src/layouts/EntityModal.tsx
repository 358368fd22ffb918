import { Messages, type Paged } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { setActingAs, useActingAs } from '../app/acting-as';
import { api } from '../app/api';
import { useAuth } from '../app/auth';
import { Modal } from '../app/Modal';
import { hideModal } from '../app/modal';
import { notifyError } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { Button, SearchInput, Spinner } from '../ui';
import { organisationsWord } from '../whitelabel/words';

interface EntityRow {
  id: number;
  slug: string;
  name: string;
  level: 'A' | 'B';
}

/** The dashboard's entity modal: choose the entity to act as (spec 1 §2, §4; permission 19). */
export function EntityModal() {
  return (
    <Modal
      name="entity"
      title="Act as another organisation"
      width="560px"
      scrollable
      height="min(640px, 90vh)"
    >
      <EntityChooser />
    </Modal>
  );
}

function EntityChooser() {
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState<number | 'reset' | null>(null);
  const actingAs = useActingAs();
  const { user } = useAuth();
  const wl = useWhitelabel();
  const query = useQuery({
    queryKey: ['entities', 'acting-as-chooser', search],
    queryFn: async () =>
      (
        await api.get<Paged<EntityRow>>('/entities', {
          params: { search: search || undefined, per_page: 20, deep: true },
          actingAs: false,
        })
      ).data,
  });

  const choose = async (id: number | null) => {
    setBusy(id ?? 'reset');
    try {
      await setActingAs(id);
      hideModal('entity');
    } catch (error) {
      notifyError((error as { data?: { message?: string } }).data, Messages.failedToFetchEntities);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Currently acting as <strong>{actingAs?.name ?? '—'}</strong>.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <SearchInput label={`Search ${organisationsWord(wl).toLowerCase()}`} onSearch={setSearch} />
        {user ? (
          <Button variant="secondary" onClick={() => choose(null)} loading={busy === 'reset'}>
            Back to {user.a_entity.name}
          </Button>
        ) : null}
      </div>
      {query.isLoading ? (
        <Spinner className="text-slate-500" />
      ) : query.isError ? (
        <p role="alert" className="text-sm text-danger-700">
          {Messages.failedToFetchEntities}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
          {query.data?.data.map((e) => (
            <li key={e.id} className="flex items-center justify-between gap-3 px-3 py-2">
              <span className="min-w-0 truncate text-sm text-slate-800">
                {e.name} <span className="text-xs text-slate-500">({e.level})</span>
              </span>
              <Button size="sm" variant="secondary" onClick={() => choose(e.id)} loading={busy === e.id}>
                Act as
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
