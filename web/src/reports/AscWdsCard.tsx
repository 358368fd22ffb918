import { ASC_WDS_MAX, Perm } from '@cc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { usePermission } from '../app/auth';
import { notifySuccess } from '../app/notifications';
import { serverFieldErrors } from '../entities/shared';
import { Button, Card, TextField } from '../ui';
import {
  ASC_WDS_PATH,
  ascWdsKey,
  ascWdsSettingsKey,
  fetchAscWdsSettings,
  saveAscWdsSettings,
} from './asc-wds-api';

/**
 * The organisation's settings page, "ASC-WDS" (issue 37 §1): its workplace ID in Skills for Care's Adult Social Care
 * Workforce Data Set, the LOCALESTID of the ASC-WDS training export. Shown to callers who may update the organisation
 * (2), as the other settings.
 */
export function AscWdsCard({ slug }: { slug: string }) {
  const may = usePermission([Perm.updateEntity]);
  const queryClient = useQueryClient();
  const key = ascWdsSettingsKey(slug);
  const state = useQuery({ queryKey: key, queryFn: () => fetchAscWdsSettings(slug), enabled: may });
  const [value, setValue] = useState('');
  useEffect(() => {
    if (state.data) setValue(state.data.local_establishment_id ?? '');
  }, [state.data]);
  // The export page links here with #asc-wds: the card is below the organisation's form, so it is brought into view.
  const shown = Boolean(may && state.data);
  useEffect(() => {
    if (shown && window.location.hash === '#asc-wds')
      document.getElementById('asc-wds')?.scrollIntoView?.({ block: 'start' });
  }, [shown]);
  const save = useMutation({
    mutationFn: (v: string) => saveAscWdsSettings(slug, v),
    onSuccess: (res) => {
      queryClient.setQueryData(key, res.data);
      void queryClient.invalidateQueries({ queryKey: ascWdsKey(slug) });
      notifySuccess(res.message ?? 'Saved.');
    },
  });
  if (!may || !state.data) return null;
  const errors = serverFieldErrors(save.error);
  return (
    <Card title="ASC-WDS" id="asc-wds" data-testid="asc-wds">
      <p className="mb-4 max-w-prose text-sm text-slate-600">
        The workplace ID this organisation has in the Adult Social Care Workforce Data Set (Skills for Care).
        It is the LOCALESTID of the{' '}
        <Link className="underline" to={`${ASC_WDS_PATH}?home=${encodeURIComponent(slug)}`}>
          ASC-WDS training export
        </Link>
        .
      </p>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(value);
        }}
      >
        <div className="w-full max-w-xs">
          <TextField
            label="Workplace ID (LOCALESTID)"
            name="local_establishment_id"
            maxLength={ASC_WDS_MAX.localId}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={errors.local_establishment_id}
          />
        </div>
        <Button type="submit" variant="secondary" loading={save.isPending}>
          Save
        </Button>
      </form>
    </Card>
  );
}
