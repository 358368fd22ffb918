import type {
  DesignPage,
  DesignPreview,
  DesignSummary,
  DesignView,
  Paged,
  PublishDesignBody,
} from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, type Envelope } from '../app/api';

/**
 * The calls of /content-designer (contracts designer.ts) through THE api client; query keys under ['designer'] so
 * one invalidation refreshes the list and the design after a save, delete or publish.
 */
export const designerKeys = {
  all: ['designer'] as const,
  list: (page: number) => ['designer', 'list', page] as const,
  one: (id: number) => ['designer', 'one', id] as const,
};

export function useDesigns(page: number) {
  return useQuery({
    queryKey: designerKeys.list(page),
    queryFn: async () => (await api.get<Paged<DesignSummary>>('/designs', { params: { page } })).data,
    placeholderData: keepPreviousData,
  });
}

export function useDesign(id: number | null) {
  return useQuery({
    queryKey: designerKeys.one(id ?? 0),
    enabled: id !== null,
    queryFn: async () => (await api.get<Envelope<DesignView>>(`/designs/${id}`)).data.data,
  });
}

export async function createDesign(body: { title: string; pages: DesignPage[] }) {
  return (await api.post<Envelope<DesignView>>('/designs', body)).data;
}

export async function saveDesign(id: number, body: { title: string; pages: DesignPage[]; revision: number }) {
  return (await api.patch<Envelope<DesignView>>(`/designs/${id}`, body)).data;
}

export async function deleteDesign(id: number) {
  return (await api.delete<{ message?: string }>(`/designs/${id}`)).data;
}

export async function previewDesign(pages: DesignPage[]) {
  return (await api.post<Envelope<DesignPreview>>('/designs/preview', { pages })).data.data;
}

export async function publishDesign(id: number, body: z.input<typeof PublishDesignBody>) {
  return (await api.post<Envelope<DesignView>>(`/designs/${id}/publish`, body)).data;
}

/** Courses the author may publish into (first publish), as options. */
export function useCourseOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['designer', 'courses'],
    enabled,
    queryFn: async () =>
      (
        await api.get<Paged<{ id: number; title: string }>>('/courses', { params: { per_page: 100 } })
      ).data.data.map((c) => ({ value: c.id, label: c.title })),
  });
}

/** Where an author opens published content (the content creator's page of it). */
export const contentPath = (contentId: number) => `/content-creator/content/elearning/update/${contentId}`;
