import {
  type AssignBody,
  CareCertificateMessages,
  type CareCertificatesQuery,
  type CertificateSummary,
  type CertificateView,
  type EvidenceResultBody,
  type ObservationBody,
  type ObservationUpdate,
  type Paged,
  type ResultView,
  type VersionSummary,
} from '@cc/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { api, buildUrl, type Envelope } from '../app/api';
import { type ChangeOptions, runChange } from '../app/change';
import { notifyError } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { downloadFile } from '../native/files';

/**
 * The calls of /care-certificate and /care-certificate/{uuid} (contracts care-certificate.ts) through THE api
 * client; query keys under ['care-certificate'] so one invalidation refreshes every list and view after a change.
 */
export { CareCertificateMessages };

export type CertificateFilters = Partial<
  Pick<
    CareCertificatesQuery,
    'page' | 'per_page' | 'search' | 'status' | 'awaiting_approval' | 'overdue' | 'version_id' | 'historical'
  >
>;

export const ccKeys = {
  all: ['care-certificate'] as const,
  mine: ['care-certificate', 'mine'] as const,
  list: (f: CertificateFilters) => ['care-certificate', 'list', f] as const,
  view: (uuid: string) => ['care-certificate', 'view', uuid] as const,
  versions: ['care-certificate', 'versions'] as const,
  results: (userUuid: string) => ['care-certificate', 'results', userUuid] as const,
};

/** Query-string values: booleans as 1, empty and false dropped. */
export function params(f: Record<string, unknown>) {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    out[k] = v as string | number | boolean;
  }
  return out;
}

/** A list answer may come as the envelope or the bare array. */
const listOf = <T>(data: Envelope<T[]> | T[]): T[] => (Array.isArray(data) ? data : (data.data ?? []));

/** The caller's own certificates (GET /care-certificates/mine), each opened as its full view. */
export function useMyCertificates() {
  return useQuery({
    queryKey: ccKeys.mine,
    queryFn: async () => {
      const res =
        await api.get<Envelope<(CertificateSummary | CertificateView)[]>>('/care-certificates/mine');
      const mine = listOf(res.data);
      // A summary has no standards: the progress by standard comes from the view.
      return Promise.all(
        mine.map(async (c) =>
          'standards' in c
            ? (c as CertificateView)
            : (await api.get<Envelope<CertificateView>>(`/care-certificates/${c.uuid}`)).data.data,
        ),
      );
    },
  });
}

export function useCertificates(f: CertificateFilters, enabled = true) {
  return useQuery({
    queryKey: ccKeys.list(f),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (await api.get<Paged<CertificateSummary>>('/care-certificates', { params: params(f) })).data,
  });
}

export function useCertificate(uuid: string | undefined) {
  return useQuery({
    queryKey: ccKeys.view(uuid ?? ''),
    enabled: Boolean(uuid),
    queryFn: async () => (await api.get<Envelope<CertificateView>>(`/care-certificates/${uuid}`)).data.data,
  });
}

export function useVersions(enabled = true) {
  return useQuery({
    queryKey: ccKeys.versions,
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async () =>
      listOf(
        (await api.get<Envelope<VersionSummary[]> | VersionSummary[]>('/care-certificate-versions')).data,
      ),
  });
}

/** The certificate's person's passed training records, to link one by hand as evidence. */
export function usePersonResults(userUuid: string, enabled: boolean) {
  return useQuery({
    queryKey: ccKeys.results(userUuid),
    enabled: enabled && Boolean(userUuid),
    queryFn: async () =>
      (
        await api.get<Paged<ResultView>>(`/users/${encodeURIComponent(userUuid)}/results`, {
          params: { per_page: 100 },
          skipAuthHandling: true,
        })
      ).data.data.filter((r) => r.passed),
  });
}

/** An evidence file (an attachment) through the API host, with the acting-as slug like every call. */
export const fileHref = (uuid: string, id: number) =>
  buildUrl(`/care-certificates/${uuid}/evidence/${id}/file`);

/** The PDF of a complete certificate (GET /care-certificates/{uuid}/pdf, 88 or own). */
export const pdfPath = (uuid: string) => `/care-certificates/${uuid}/pdf`;

// --- Changes -------------------------------------------------------------------------------------------------

/**
 * Runs a change: shows the server's message (else `success`), refreshes every care certificate query; a failure
 * shows the server's message and is rethrown (a form then shows its field errors, a confirm dialog stays open).
 */
export const ccAction = <T = unknown>(
  queryClient: QueryClient,
  request: () => Promise<{ data?: { message?: string; data?: T } | null }>,
  success: string,
  options?: ChangeOptions,
) => runChange<T>(queryClient, [ccKeys.all], request, success, options);

export const assign = (body: AssignBody) =>
  api.post<Envelope<CertificateSummary>>('/care-certificates', body);
export const withdraw = (uuid: string) => api.delete<{ message?: string }>(`/care-certificates/${uuid}`);

export function uploadEvidence(
  uuid: string,
  fields: { file: File; description: string; criterion_ids: number[] },
) {
  const form = new FormData();
  form.append('file', fields.file);
  if (fields.description.trim()) form.append('description', fields.description.trim());
  form.append('criterion_ids', JSON.stringify(fields.criterion_ids));
  return api.upload<Envelope<unknown>>(`/care-certificates/${uuid}/evidence`, form);
}
export const linkResult = (uuid: string, body: EvidenceResultBody) =>
  api.post<Envelope<unknown>>(`/care-certificates/${uuid}/evidence`, body);
export const removeEvidence = (uuid: string, id: number) =>
  api.delete<{ message?: string }>(`/care-certificates/${uuid}/evidence/${id}`);

export const createObservation = (uuid: string, body: ObservationBody) =>
  api.post<Envelope<unknown>>(`/care-certificates/${uuid}/observations`, body);
export const updateObservation = (uuid: string, id: number, body: ObservationUpdate) =>
  api.patch<Envelope<unknown>>(`/care-certificates/${uuid}/observations/${id}`, body);
export const deleteObservation = (uuid: string, id: number) =>
  api.delete<{ message?: string }>(`/care-certificates/${uuid}/observations/${id}`);
export const approveObservation = (uuid: string, id: number) =>
  api.post<Envelope<unknown>>(`/care-certificates/${uuid}/observations/${id}/approve`);

export const submitStandard = (uuid: string, standardId: number) =>
  api.post<Envelope<CertificateView>>(`/care-certificates/${uuid}/standards/${standardId}/submit`);
export const approveStandard = (uuid: string, standardId: number) =>
  api.post<Envelope<CertificateView>>(`/care-certificates/${uuid}/standards/${standardId}/approve`);
export const rejectStandard = (uuid: string, standardId: number, reasons: string) =>
  api.post<Envelope<CertificateView>>(`/care-certificates/${uuid}/standards/${standardId}/reject`, {
    reasons,
  });

/** Downloads the certificate's PDF through the api client (cookies or bearer, acting-as) and saves it. */
export async function downloadPdf(uuid: string, name: string): Promise<void> {
  await downloadFile(() => api.get<Blob>(pdfPath(uuid), { headers: { Accept: 'application/pdf' } }), {
    fallbackName: 'certificate.pdf',
    name: `${name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'certificate'}.pdf`,
    failure: 'The certificate could not be downloaded.',
    onError: (error) =>
      notifyError(errorEnvelope(error, 'The certificate could not be downloaded.'), 'Download failed.'),
  });
}
