import type { StarterMatrixApplied, StarterMatrixPreview } from '@cc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';

/** GET /entities/{slug}/starter-matrix (issue 37 §2): what applying the starter training matrix would do. */
export function useStarterMatrix(slug: string, enabled = true) {
  return useQuery({
    queryKey: ['starter-matrix', slug],
    queryFn: async () =>
      (await api.get<Envelope<StarterMatrixPreview>>(`/entities/${slug}/starter-matrix`)).data.data,
    enabled: enabled && slug !== '',
    retry: false,
  });
}

/** POST /entities/{slug}/starter-matrix: the preview after applying comes back and replaces the cached one. */
export function useApplyStarterMatrix(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await api.post<Envelope<StarterMatrixApplied>>(`/entities/${slug}/starter-matrix`)).data,
    onSuccess: (res) => {
      queryClient.setQueryData(['starter-matrix', slug], res.data);
      // Job roles, courses and their rules changed: the pages that list them read again.
      void queryClient.invalidateQueries({ queryKey: ['entities'] });
    },
  });
}

/** "Every year", "Every 3 years", "Every 6 months"; null: the organisation decides. */
export function refreshLabel(months: number | null): string {
  if (months === null) return 'Not set';
  if (months === 12) return 'Every year';
  if (months % 12 === 0) return `Every ${months / 12} years`;
  return months === 1 ? 'Every month' : `Every ${months} months`;
}
