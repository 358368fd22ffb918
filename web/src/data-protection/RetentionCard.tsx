import { DataProtectionPerm, DEFAULT_RETENTION_YEARS, MAX_RETENTION_YEARS } from '@cc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { usePermission } from '../app/auth';
import { notifySuccess } from '../app/notifications';
import { serverFieldErrors } from '../entities/shared';
import { Button, Card, TextField } from '../ui';
import { entityDataProtectionKey, fetchRetention, saveRetention } from './api';

/**
 * The organisation's settings page, "Data protection" (issue 35 §4): how many years a leaver's training record is
 * kept after they leave (6 by default, the care sector's practice; docs/data-protection.md) before the nightly job
 * removes it. Shown to callers who may update the organisation (2).
 */
export function RetentionCard({ slug }: { slug: string }) {
  const may = usePermission([DataProtectionPerm.organisation]);
  const queryClient = useQueryClient();
  const key = entityDataProtectionKey(slug);
  const state = useQuery({ queryKey: key, queryFn: () => fetchRetention(slug), enabled: may });
  const [years, setYears] = useState('');
  useEffect(() => {
    if (state.data) setYears(String(state.data.retention_years));
  }, [state.data]);
  const save = useMutation({
    mutationFn: (value: number) => saveRetention(slug, value),
    onSuccess: (res) => {
      queryClient.setQueryData(key, res.data);
      notifySuccess(res.message ?? 'Saved.');
    },
  });
  if (!may || !state.data) return null;
  const errors = serverFieldErrors(save.error);
  return (
    <Card title="Data protection" data-testid="retention">
      <p className="mb-4 max-w-prose text-sm text-slate-600">
        {`When a person leaves and their personal details are erased, their training record is kept for this many years after their leaving date, then removed by a nightly job. Care providers usually keep training records ${DEFAULT_RETENTION_YEARS} years after employment ends.`}
      </p>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(Number(years));
        }}
      >
        <div className="w-full max-w-xs">
          <TextField
            label="Keep a leaver’s training record for (years)"
            type="number"
            min={1}
            max={MAX_RETENTION_YEARS}
            step={1}
            name="retention_years"
            value={years}
            onChange={(e) => setYears(e.target.value)}
            error={errors.retention_years}
          />
        </div>
        <Button type="submit" variant="secondary" loading={save.isPending}>
          Save
        </Button>
      </form>
    </Card>
  );
}
