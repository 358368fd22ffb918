import type { AscWdsPreview, AscWdsSince } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';
import { downloadFile } from '../native/files';

/** The ASC-WDS training export's calls (issue 37 §1; server reports/asc-wds-routes.ts). */

export const ASC_WDS_PATH = '/reports/asc-wds';
export const ascWdsKey = (slug: string) => ['reports', 'asc-wds', slug] as const;
export const ascWdsSettingsKey = (slug: string) => ['entities', 'asc-wds', slug] as const;

export function useAscWdsPreview(slug: string | null, since: AscWdsSince) {
  return useQuery({
    queryKey: [...ascWdsKey(slug ?? ''), since],
    enabled: Boolean(slug),
    retry: false,
    queryFn: async () =>
      (await api.get<Envelope<AscWdsPreview>>(`/entities/${slug}/asc-wds/training`, { params: { since } }))
        .data.data,
  });
}

export const fetchAscWdsSettings = async (slug: string) =>
  (await api.get<Envelope<{ local_establishment_id: string | null }>>(`/entities/${slug}/asc-wds`)).data.data;

export const saveAscWdsSettings = async (slug: string, localId: string) =>
  (
    await api.put<Envelope<{ local_establishment_id: string | null }>>(`/entities/${slug}/asc-wds`, {
      local_establishment_id: localId,
    })
  ).data;

export const saveAscWdsCategory = async (slug: string, courseId: number, category: number | null) =>
  (await api.put<Envelope<unknown>>(`/entities/${slug}/asc-wds/categories/${courseId}`, { category })).data;

/** POST …/exports: the file (recorded as the home's latest export), saved as the browser's download. */
export const downloadAscWds = (slug: string, since: AscWdsSince) =>
  downloadFile(
    () => api.post<Blob>(`/entities/${slug}/asc-wds/exports`, undefined, { params: { since }, blob: true }),
    {
      fallbackName: `asc-wds-training-${slug}.csv`,
      failure: 'The ASC-WDS file could not be made. Please try again.',
    },
  );
