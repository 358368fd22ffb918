import type {
  CareCertificateReportRow,
  CareCertificateSettingsView,
  CareCertificateStandardRow,
  CertificateSummary,
  CertificateView,
  CourseCriteriaView,
  Paged,
  ReportPreset,
  UserSummary,
  VersionSummary,
  VersionView,
} from '@cc/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { api, type Envelope, type Params } from '../../app/api';
import { notifyError, notifySuccess } from '../../app/notifications';
import { errorEnvelope } from '../../entities/shared';
import type { PickOption } from '../../presets/IdPicker';

/**
 * The administration calls of the certificate (contracts care-certificate.ts) through THE api client: versions and
 * their standards, settings, historical certificates, the report and its exports, courses' criteria. Query keys
 * live under ['care-certificate'] so one invalidation refreshes every list after a change.
 */
export const ccKeys = {
  all: ['care-certificate'] as const,
  versions: ['care-certificate', 'versions'] as const,
  version: (id: number) => ['care-certificate', 'version', id] as const,
  settings: (slug: string | null) => ['care-certificate', 'settings', slug] as const,
  historical: (f: unknown) => ['care-certificate', 'historical', f] as const,
  historicalOne: (uuid: string) => ['care-certificate', 'historical-one', uuid] as const,
  report: (q: unknown) => ['care-certificate', 'report', q] as const,
  courseCriteria: (id: number) => ['care-certificate', 'course-criteria', id] as const,
};

export function useVersions() {
  return useQuery({
    queryKey: ccKeys.versions,
    queryFn: async () => (await api.get<Envelope<VersionSummary[]>>('/care-certificate-versions')).data.data,
    staleTime: 60_000,
  });
}

export function useVersion(id: number | null) {
  return useQuery({
    queryKey: ccKeys.version(id ?? 0),
    queryFn: async () => (await api.get<Envelope<VersionView>>(`/care-certificate-versions/${id}`)).data.data,
    enabled: id !== null,
  });
}

export function useCareCertificateSettings(slug: string | null) {
  return useQuery({
    queryKey: ccKeys.settings(slug),
    queryFn: async () =>
      (await api.get<Envelope<CareCertificateSettingsView>>('/care-certificate-settings')).data.data,
  });
}

export interface HistoricalFilters {
  page: number;
  search?: string;
}
export function useHistoricalList(f: HistoricalFilters) {
  return useQuery({
    queryKey: ccKeys.historical(f),
    queryFn: async () =>
      (
        await api.get<Paged<CertificateSummary>>('/historical-care-certificates', {
          params: { page: f.page, per_page: 20, search: f.search || undefined },
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

export function useHistorical(uuid: string) {
  return useQuery({
    queryKey: ccKeys.historicalOne(uuid),
    queryFn: async () =>
      (await api.get<Envelope<CertificateView>>(`/historical-care-certificates/${uuid}`)).data.data,
    retry: false,
  });
}

/** Uploads one evidence file to a certificate (multipart; a historical one needs no criteria). */
export function uploadEvidence(
  uuid: string,
  file: File,
  description: string | null,
  criterionIds: number[] = [],
) {
  const form = new FormData();
  form.append('file', file);
  if (description) form.append('description', description);
  form.append('criterion_ids', JSON.stringify(criterionIds));
  return api.upload<Envelope<unknown>>(`/care-certificates/${uuid}/evidence`, form);
}

// --- Report ----------------------------------------------------------------------------------------------------

export type CertificateFilter = 'in_progress' | 'complete' | 'either';
export interface ReportFilters {
  entities: number[];
  certificates: number[];
  includeApproved: boolean;
  includeAwaitingApproval: boolean;
  includeOutstanding: boolean;
  includeWorkingTowards: boolean;
  care_certificate_filter: CertificateFilter;
  people: 'with_certificate' | 'all';
  overdue_only: boolean;
  search: string;
  view: 'person' | 'standard';
  page: number;
}
export const DEFAULT_REPORT_FILTERS: ReportFilters = {
  entities: [],
  certificates: [],
  includeApproved: true,
  includeAwaitingApproval: true,
  includeOutstanding: true,
  includeWorkingTowards: true,
  care_certificate_filter: 'either',
  people: 'with_certificate',
  overdue_only: false,
  search: '',
  view: 'person',
  page: 1,
};

/**
 * The report's address with its id lists as repeated keys (`entities=1&entities=2`, what the contract's query
 * reads; the api client would write `entities[]`), the other filters then go as params.
 */
export function reportPath(base: string, f: ReportFilters): string {
  const q = new URLSearchParams();
  for (const id of f.entities) q.append('entities', String(id));
  for (const id of f.certificates) q.append('certificates', String(id));
  const qs = q.toString();
  return qs ? `${base}?${qs}` : base;
}

/** The report's other query values (GET /reports/care-certificate and its exports): defaults are left out. */
export function reportParams(f: ReportFilters, withPage = true): Params {
  const flag = (v: boolean) => (v ? undefined : '0');
  return {
    includeApproved: flag(f.includeApproved),
    includeAwaitingApproval: flag(f.includeAwaitingApproval),
    includeOutstanding: flag(f.includeOutstanding),
    includeWorkingTowards: flag(f.includeWorkingTowards),
    care_certificate_filter: f.care_certificate_filter === 'either' ? undefined : f.care_certificate_filter,
    people: f.people === 'all' ? 'all' : undefined,
    overdue_only: f.overdue_only ? '1' : undefined,
    search: f.search.trim() || undefined,
    view: f.view === 'standard' ? 'standard' : undefined,
    page: withPage && f.page > 1 ? f.page : undefined,
    per_page: withPage ? 25 : undefined,
  };
}

const BOOL_KEYS = [
  'includeApproved',
  'includeAwaitingApproval',
  'includeOutstanding',
  'includeWorkingTowards',
  'overdue_only',
] as const;

/** The filters as the page's address keeps them (only what differs from the defaults), so a view can be shared. */
export function filtersToSearch(f: ReportFilters): URLSearchParams {
  const q = new URLSearchParams();
  if (f.entities.length) q.set('entities', f.entities.join(','));
  if (f.certificates.length) q.set('versions', f.certificates.join(','));
  for (const k of BOOL_KEYS) if (f[k] !== DEFAULT_REPORT_FILTERS[k]) q.set(k, f[k] ? '1' : '0');
  if (f.care_certificate_filter !== 'either') q.set('status', f.care_certificate_filter);
  if (f.people !== 'with_certificate') q.set('people', f.people);
  if (f.search.trim()) q.set('search', f.search.trim());
  if (f.view !== 'person') q.set('view', f.view);
  if (f.page > 1) q.set('page', String(f.page));
  return q;
}

export function filtersFromSearch(q: URLSearchParams): ReportFilters {
  const ids = (v: string | null) =>
    (v ?? '')
      .split(',')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0);
  const f: ReportFilters = { ...DEFAULT_REPORT_FILTERS };
  f.entities = ids(q.get('entities'));
  f.certificates = ids(q.get('versions'));
  for (const k of BOOL_KEYS) if (q.has(k)) f[k] = q.get(k) === '1';
  const status = q.get('status');
  if (status === 'in_progress' || status === 'complete') f.care_certificate_filter = status;
  if (q.get('people') === 'all') f.people = 'all';
  f.search = q.get('search') ?? '';
  if (q.get('view') === 'standard') f.view = 'standard';
  f.page = Math.max(1, Number(q.get('page')) || 1);
  return f;
}

/** A saved preset's fields onto the report's filters (organisations and the in progress / complete choice). */
export function applyPreset(
  f: ReportFilters,
  p: Pick<ReportPreset, 'entities' | 'care_certificate_filter'>,
): ReportFilters {
  return { ...f, entities: [...p.entities], care_certificate_filter: p.care_certificate_filter, page: 1 };
}

const REPORT = '/reports/care-certificate';

export type ReportOutcome =
  | { view: 'person'; page: Paged<CareCertificateReportRow> }
  | { view: 'standard'; rows: CareCertificateStandardRow[] };

export function useCareCertificateReport(f: ReportFilters) {
  return useQuery({
    queryKey: ccKeys.report(f),
    queryFn: async (): Promise<ReportOutcome> => {
      if (f.view === 'standard') {
        const res = await api.get<Envelope<CareCertificateStandardRow[]>>(reportPath(REPORT, f), {
          params: reportParams(f, false),
        });
        return { view: 'standard', rows: res.data.data };
      }
      const res = await api.get<Paged<CareCertificateReportRow>>(reportPath(REPORT, f), {
        params: reportParams(f),
      });
      return { view: 'person', page: res.data };
    },
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export const exportCareCertificateReport = (f: ReportFilters, format: 'pdf' | 'xlsx') =>
  api.get<Blob>(reportPath(`${REPORT}/export/${format}`, f), { params: reportParams(f, false) });

export async function fetchReportPresets(): Promise<ReportPreset[]> {
  return (
    await api.get<Paged<ReportPreset>>('/reports/presets', {
      params: { per_page: 100 },
      skipAuthHandling: true,
    })
  ).data.data;
}

// --- Pickers ---------------------------------------------------------------------------------------------------

/** Organisations in the caller's scope (GET /entities, deep). */
export async function searchOrganisations(search: string): Promise<PickOption[]> {
  const res = await api.get<Paged<{ id: number; name: string }>>('/entities', {
    params: { deep: true, search: search || undefined, per_page: 20 },
    skipAuthHandling: true,
  });
  return res.data.data.map((e) => ({ id: e.id, label: e.name }));
}

/** People in the caller's scope (GET /users, deep). */
export async function searchPeople(search: string): Promise<(PickOption & { hint: string })[]> {
  const res = await api.get<Paged<UserSummary>>('/users', {
    params: { deep: true, search: search || undefined, per_page: 20 },
    skipAuthHandling: true,
  });
  return res.data.data.map((u) => ({
    id: u.id,
    label: u.name,
    hint: [u.email, u.primary_entity?.name].filter(Boolean).join(' · '),
  }));
}

// --- Courses' criteria ----------------------------------------------------------------------------------------

export function useCourseCriteria(courseId: number) {
  return useQuery({
    queryKey: ccKeys.courseCriteria(courseId),
    queryFn: async () =>
      (await api.get<Envelope<CourseCriteriaView>>(`/courses/${courseId}/care-certificate-criteria`)).data
        .data,
    retry: false,
  });
}

// --- Actions ---------------------------------------------------------------------------------------------------

/**
 * Runs a change: shows the server's message (else `success`) and refreshes every certificate query; a failure
 * shows the server's message and is rethrown (a confirm dialog then stays open, a form keeps its field errors).
 */
export async function ccAction<T>(
  queryClient: QueryClient,
  call: () => Promise<{ data: { message?: string; data?: T } }>,
  success: string,
): Promise<T | undefined> {
  try {
    const res = await call();
    notifySuccess(res.data?.message ?? success);
    await queryClient.invalidateQueries({ queryKey: ccKeys.all });
    return res.data?.data;
  } catch (error) {
    notifyError(errorEnvelope(error, 'That did not work. Please try again.'), 'That did not work.');
    throw error;
  }
}
