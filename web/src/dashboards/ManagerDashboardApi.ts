import type {
  BehindFilter,
  BehindPerson,
  BehindSummary,
  DashboardNewStarter,
  DashboardPeopleList,
  DashboardPerson,
  ManagementDashboard,
  ManagerDashboard,
  Paged,
} from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';

/** The dashboards' calls (contracts dashboards.ts; ours, not in the spec) through THE api client. */

export type DashboardType = 'primary' | 'secondary' | 'all';

export const dashboardKeys = {
  manager: (entity: string | undefined, type: DashboardType) => ['dashboards', 'manager', entity ?? '', type],
  people: (entity: string | undefined, type: DashboardType, list: DashboardPeopleList, page: number) => [
    'dashboards',
    'manager',
    'people',
    entity ?? '',
    type,
    list,
    page,
  ],
  management: (entity: string | undefined, type: DashboardType) => [
    'dashboards',
    'management',
    entity ?? '',
    type,
  ],
};

export function useManagerDashboard(entity: string | undefined, type: DashboardType) {
  return useQuery({
    queryKey: dashboardKeys.manager(entity, type),
    queryFn: async () =>
      (
        await api.get<Envelope<ManagerDashboard>>('/dashboards/manager', {
          params: { entity, compliance_type: type },
        })
      ).data.data,
    placeholderData: keepPreviousData,
  });
}

export function useDashboardPeople(
  entity: string | undefined,
  type: DashboardType,
  list: DashboardPeopleList,
  page: number,
  enabled: boolean,
) {
  return useQuery({
    queryKey: dashboardKeys.people(entity, type, list, page),
    enabled,
    queryFn: async () =>
      (
        await api.get<Paged<DashboardPerson | DashboardNewStarter>>('/dashboards/manager/people', {
          params: { entity, compliance_type: type, list, page, per_page: 25 },
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

export function useManagementDashboard(entity: string | undefined, type: DashboardType) {
  return useQuery({
    queryKey: dashboardKeys.management(entity, type),
    queryFn: async () =>
      (
        await api.get<Envelope<ManagementDashboard>>('/dashboards/management', {
          params: { entity, compliance_type: type },
        })
      ).data.data,
    placeholderData: keepPreviousData,
  });
}

export interface EntityOption {
  id: number;
  slug: string;
  name: string;
  level: 'A' | 'B';
  parent_id?: number | null;
}

/** The entities the caller may see (their scope, with descendants): the dashboards' switcher. */
export function useScopeEntities(enabled: boolean) {
  return useQuery({
    queryKey: ['entities', 'dashboard-switcher'],
    enabled,
    queryFn: async () =>
      (await api.get<Paged<EntityOption>>('/entities', { params: { deep: true, per_page: 100 } })).data,
    staleTime: 60_000,
  });
}

// --- Who is behind (issue 33 §7): GET /dashboards/manager/behind(/people), POST /dashboards/manager/behind/remind.

export const behindKeys = {
  all: ['dashboards', 'behind'] as const,
  summary: (entity: string | undefined) => ['dashboards', 'behind', 'summary', entity ?? ''],
  people: (entity: string | undefined, kind: BehindFilter, page: number) => [
    'dashboards',
    'behind',
    'people',
    entity ?? '',
    kind,
    page,
  ],
};

export function useBehindSummary(entity: string | undefined, enabled = true) {
  return useQuery({
    queryKey: behindKeys.summary(entity),
    enabled,
    queryFn: async () =>
      (await api.get<Envelope<BehindSummary>>('/dashboards/manager/behind', { params: { entity } })).data
        .data,
    placeholderData: keepPreviousData,
  });
}

export const BEHIND_PAGE_SIZE = 25;

export const fetchBehindPeople = async (
  entity: string | undefined,
  kind: BehindFilter,
  page: number,
  perPage: number,
) =>
  (
    await api.get<Paged<BehindPerson>>('/dashboards/manager/behind/people', {
      params: { entity, kind, page, per_page: perPage },
    })
  ).data;

export function useBehindPeople(entity: string | undefined, kind: BehindFilter, page: number) {
  return useQuery({
    queryKey: behindKeys.people(entity, kind, page),
    queryFn: () => fetchBehindPeople(entity, kind, page, BEHIND_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
}

export const remindBehind = (entity: string | undefined, kind: BehindFilter) =>
  api.post<Envelope<{ reminded: number }> & { message?: string }>('/dashboards/manager/behind/remind', {
    entity,
    kind,
  });
