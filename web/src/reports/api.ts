import {
  type CertificateReportRow,
  type ComplianceReport,
  type ComplianceTooLarge,
  DRILL_DOWN_POLL_MS,
  type DrillDownEntityRow,
  type DrillDownTagRow,
  type DrillDownUserRow,
  type Paged,
  type RoleReportRow,
} from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ApiResponse, api, type Envelope, isApiError, type Params } from '../app/api';
import { downloadFile } from '../native/files';
import { taskStarted } from '../tasks/api';

/** The reports' calls (spec 2 §7 "Reports") through THE api client. */

export interface ComplianceQuery {
  entities?: number[];
  deep?: boolean;
  roles?: number[];
  courses?: number[];
  compliance_type: 'primary' | 'secondary' | 'all';
  new_starters_filter: 'include_new_starters' | 'exclude_new_starters' | 'new_starters_only';
  previousMonths?: number;
}

export type ComplianceOutcome =
  | { kind: 'report'; report: ComplianceReport }
  | { kind: 'too_large'; info: ComplianceTooLarge };

/** POST /reports/compliance; spec 2 §4: status 300 means too large (expected_time shown). */
export async function fetchComplianceReport(body: ComplianceQuery): Promise<ComplianceOutcome> {
  try {
    const res = await api.post<Envelope<ComplianceReport>>('/reports/compliance', body);
    return { kind: 'report', report: res.data.data };
  } catch (error) {
    if (isApiError(error) && error.status === 300)
      return { kind: 'too_large', info: error.data as unknown as ComplianceTooLarge };
    throw error;
  }
}

export function useComplianceReport(body: ComplianceQuery) {
  return useQuery({
    queryKey: ['reports', 'compliance', body],
    queryFn: () => fetchComplianceReport(body),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** emailFormat: queue the report to be e-mailed to the caller. */
export async function requestEmailedReport(body: ComplianceQuery, format: 'PDF' | 'XLSX'): Promise<string> {
  const res = await api.post<{ message: string }>('/reports/compliance', { ...body, emailFormat: format });
  taskStarted(); // the header's count of tasks in progress
  return res.data.message;
}

/** The compliance report's query params (GET /reports/compliance/courses and the exports). */
export function complianceParams(q: ComplianceQuery): Params {
  return {
    entities: q.entities?.length ? q.entities.join(',') : undefined,
    deep: q.deep === false ? '0' : undefined,
    roles: q.roles?.length ? q.roles.join(',') : undefined,
    courses: q.courses?.length ? q.courses.join(',') : undefined,
    compliance_type: q.compliance_type,
    new_starters_filter: q.new_starters_filter,
    previousMonths: q.previousMonths,
  };
}

/**
 * Runs a file call and saves its answer (native/files.ts downloadFile: the browser's download, or the shell's file
 * save); spec 2 §4: a 204 is an empty result (onEmpty); failures show `failure` (spec 2 §8) unless the server sent
 * a message. Returns whether a file was saved.
 */
export const download = (
  call: () => Promise<ApiResponse<Blob>>,
  fallbackName: string,
  failure: string,
  onEmpty?: () => void,
): Promise<boolean> => downloadFile(call, { fallbackName, failure, onEmpty });

export const exportCompliance = (q: ComplianceQuery, format: 'pdf' | 'xlsx') =>
  api.get<Blob>(`/reports/compliance/export/${format}`, { params: complianceParams(q) });

/** The role report as a file (issue 33 §5): POST /reports/role with the page's filters and `format`. */
export const exportRoles = (q: ComplianceQuery, format: 'pdf' | 'xlsx') =>
  api.post<Blob>('/reports/role', { ...q, format });

/** A drill-down: 202 while computing (polled every DRILL_DOWN_POLL_MS, spec 2 §4), then 200 with the rows. */
export type Drill<T> = { ready: false } | { ready: true; rows: T[] };
function useDrill<T>(key: unknown[], path: string | null, params: Params) {
  return useQuery({
    queryKey: ['reports', 'drill', ...key, params],
    enabled: path !== null,
    queryFn: async (): Promise<Drill<T>> => {
      const res = await api.get<Envelope<T[]>>(path as string, { params });
      return res.status === 202 ? { ready: false } : { ready: true, rows: res.data.data };
    },
    refetchInterval: (query) => (query.state.data && !query.state.data.ready ? DRILL_DOWN_POLL_MS : false),
    retry: false,
  });
}

export const useDrillEntities = (entity: number | null, params: Params) =>
  useDrill<DrillDownEntityRow>(['entities', entity], '/reports/drill-down/entities', {
    ...params,
    entity: entity ?? undefined,
  });
export const useDrillRoles = (entity: number | null, params: Params) =>
  useDrill<RoleReportRow>(
    ['roles', entity],
    entity === null ? null : `/reports/drill-down/${entity}/roles`,
    params,
  );
export const useDrillUsers = (entity: number | null, role: number | null, params: Params) =>
  useDrill<DrillDownUserRow>(
    ['users', entity, role],
    entity === null || role === null ? null : `/reports/drill-down/${entity}/${role}/users`,
    params,
  );

/** The tags of `entity` (default the caller's current one) and its subtree (13 and 97 tags use). */
export const useDrillTags = (entity: number | null, params: Params, enabled = true) =>
  useDrill<DrillDownTagRow>(['tags', entity], enabled ? '/reports/drill-down/tags' : null, {
    ...params,
    entity: entity ?? undefined,
  });
export const useDrillTagUsers = (entity: number | null, tag: number | null, params: Params) =>
  useDrill<DrillDownUserRow>(
    ['tag-users', entity, tag],
    tag === null ? null : `/reports/drill-down/tags/${tag}/users`,
    {
      ...params,
      entity: entity ?? undefined,
    },
  );

export function useRoleReport(body: ComplianceQuery) {
  return useQuery({
    queryKey: ['reports', 'role', body],
    queryFn: async () => (await api.post<Envelope<RoleReportRow[]>>('/reports/role', body)).data.data,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export interface CertificateQuery {
  period: 'today' | 'last_week' | 'last_month';
  from_date?: string | null;
  to_date?: string | null;
  filter_by: 'completed' | 'expires';
  course_type?: string | null;
  new_starters_filter: ComplianceQuery['new_starters_filter'];
}

export function useCertificateReport(body: CertificateQuery, page: number) {
  return useQuery({
    queryKey: ['reports', 'certificate', body, page],
    queryFn: async () =>
      (
        await api.post<Paged<CertificateReportRow>>('/reports/certificate', body, {
          params: { page, per_page: 25 },
        })
      ).data,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export const downloadCertificates = (resultIds: number[]) =>
  api.post<Blob>('/results/certificate/download-multiple', { result_ids: resultIds });
export const exportCertificates = (body: CertificateQuery, format: 'PDF' | 'XLSX') =>
  api.post<Blob>('/report', { ...body, report_type: 'certificate', format });
