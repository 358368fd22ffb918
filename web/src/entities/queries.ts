import type { EntityDto, Paged } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';

/** Server state of the entity screens (TanStack Query). Keys start with 'entities' so a save can invalidate them. */
export interface EntityListFilters {
  page: number;
  search: string;
  deep: boolean;
  level: '' | 'A' | 'B';
  per_page?: number;
}

export async function fetchEntities(filters: EntityListFilters): Promise<Paged<EntityDto>> {
  const res = await api.get<Paged<EntityDto>>('/entities', {
    params: {
      page: filters.page,
      per_page: filters.per_page,
      search: filters.search || undefined,
      deep: filters.deep || undefined,
      level: filters.level || undefined,
    },
  });
  return res.data;
}

export function useEntities(filters: EntityListFilters) {
  return useQuery({
    queryKey: ['entities', 'list', filters],
    queryFn: () => fetchEntities(filters),
    placeholderData: (previous) => previous,
  });
}

export const entityKey = (ref: string | undefined) => ['entities', 'one', ref] as const;

/** GET /entities/{id|slug}: the entity with its children and white-label. */
export function useEntity(ref: string | undefined) {
  return useQuery({
    queryKey: entityKey(ref),
    enabled: Boolean(ref),
    queryFn: async () =>
      (await api.get<Envelope<EntityDto>>(`/entities/${encodeURIComponent(ref ?? '')}`)).data.data,
  });
}

/** Level A entities in scope: the possible parents of a level B entity. */
export function useLevelAEntities(enabled = true) {
  return useQuery({
    queryKey: ['entities', 'level-a'],
    enabled,
    queryFn: async () =>
      (await fetchEntities({ page: 1, per_page: 100, search: '', deep: true, level: 'A' })).data.map((e) => ({
        id: e.id,
        name: e.name,
      })),
  });
}

/** Every entity in scope (deep), for choosing a user's organisation. */
export function useEntityOptions(enabled = true) {
  return useQuery({
    queryKey: ['entities', 'options'],
    enabled,
    queryFn: async () =>
      (await fetchEntities({ page: 1, per_page: 100, search: '', deep: true, level: '' })).data.map((e) => ({
        id: e.id,
        slug: e.slug,
        name: e.name,
        level: e.level,
        parent: e.parent?.name ?? null,
      })),
  });
}
