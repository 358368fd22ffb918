import type { AuditAction, AuditEntryView, AuditKind, Paged } from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../app/api';

/** Query keys of the audit trail (GET /audit/..., issue 35 §3). */
export const auditKeys = {
  user: (ref: string, page: number) => ['audit', 'user', ref, page] as const,
  entity: (ref: string, f: AuditFilters) => ['audit', 'entity', ref, f] as const,
};

export interface AuditFilters {
  page: number;
  kind: AuditKind | '';
  action: AuditAction | '';
  from: string;
  to: string;
}

/** GET /audit/users/{id}: a person's history, newest first. */
export function useUserHistory(ref: string, page: number) {
  return useQuery({
    queryKey: auditKeys.user(ref, page),
    queryFn: async () =>
      (
        await api.get<Paged<AuditEntryView>>(`/audit/users/${ref}`, {
          params: { page, per_page: 10 },
          skipAuthHandling: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

/** GET /audit/entities/{id}: an organisation's history (and its sites'), filtered. */
export function useEntityHistory(ref: string, f: AuditFilters) {
  return useQuery({
    queryKey: auditKeys.entity(ref, f),
    queryFn: async () =>
      (
        await api.get<Paged<AuditEntryView>>(`/audit/entities/${ref}`, {
          params: {
            page: f.page,
            per_page: 15,
            kind: f.kind || undefined,
            action: f.action || undefined,
            from: f.from || undefined,
            to: f.to || undefined,
          },
          skipAuthHandling: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}
