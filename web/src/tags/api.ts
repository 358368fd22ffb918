import type { LinkTagUsersResult, Paged, Tag, TagUser, UserSummary } from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';
import type { PickItem } from '../results/Picker';

/** The tags calls (contracts tags.ts) through THE api client; query keys under ['tags', …]. */

export const tagKeys = {
  list: (slug: string) => ['tags', 'entity', slug] as const,
  users: (tagId: number) => ['tags', 'users', tagId] as const,
};

export function useTags(slug: string, q: { page: number; search: string }) {
  return useQuery({
    queryKey: [...tagKeys.list(slug), q],
    queryFn: async () =>
      (
        await api.get<Paged<Tag>>(`/entities/${encodeURIComponent(slug)}/tags`, {
          params: { page: q.page, search: q.search || undefined },
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

export function useTagUsers(tagId: number, q: { page: number }) {
  return useQuery({
    queryKey: [...tagKeys.users(tagId), q],
    queryFn: async () =>
      (await api.get<Paged<TagUser>>(`/tags/${tagId}/users`, { params: { page: q.page } })).data,
    placeholderData: keepPreviousData,
  });
}

export const createTag = (slug: string, body: unknown) =>
  api.post<Envelope<Tag>>(`/entities/${encodeURIComponent(slug)}/tags`, body);
export const renameTag = (id: number, body: unknown) => api.patch<Envelope<Tag>>(`/tags/${id}`, body);
export const deleteTag = (id: number) => api.delete<{ message?: string }>(`/tags/${id}`);
export const linkTagUsers = (id: number, users: number[]) =>
  api.post<Envelope<LinkTagUsersResult>>(`/tags/${id}/users`, { users });
export const unlinkTagUser = (id: number, userId: number) =>
  api.delete<Envelope<Tag>>(`/tags/${id}/users/${userId}`);

/** Users of the tag's entity and its sites: the only ones the server lets a tag hold. */
export const searchUsersIn =
  (entityId: number) =>
  async (search: string): Promise<PickItem[]> => {
    const res = await api.get<Paged<UserSummary>>('/users', {
      params: { search: search || undefined, entity_id: entityId, deep: true, per_page: 10 },
    });
    return res.data.data.map((u) => ({
      id: u.id,
      label: u.name,
      hint: [u.email, u.primary_entity.name].filter(Boolean).join(' · '),
    }));
  };
