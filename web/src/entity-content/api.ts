import { ACTING_AS_HEADER, type CertificateBrandingBody, type ContentType, type Paged } from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, type Envelope } from '../app/api';

/**
 * Calls of the entity content screens (spec 2 §7 "Entity content and courses", the /course-categories page and
 * /entities/{slug}/certificate-branding). The server is server/src/courses/assignments.ts, courses/service.ts and
 * certificates/service.ts.
 */
export type AssignmentKind = 'course' | 'content';

/** One row of GET /entities/{slug}/courses or /content (contracts EntityCourseItem / EntityContentItem). */
export interface AssignmentRow {
  id: number;
  title: string;
  type?: ContentType;
  enabled: boolean;
  admin_only_override?: boolean | null;
  /** Courses: available through a parent organisation, no row of this entity's own (issue 38). */
  inherited?: boolean;
}

interface RawRow {
  course_id?: number;
  content_id?: number;
  title: string;
  type?: ContentType;
  enabled: boolean;
  admin_only_override?: boolean | null;
  inherited?: boolean;
}

const segment = (kind: AssignmentKind) => (kind === 'course' ? 'courses' : 'content');
const keyField = (kind: AssignmentKind) => (kind === 'course' ? 'course_id' : 'content_id');
export const assignmentsPath = (slug: string, kind: AssignmentKind) =>
  `/entities/${encodeURIComponent(slug)}/${segment(kind)}`;

export const PER_PAGE = 15;

export function useAssignments(
  slug: string,
  kind: AssignmentKind,
  o: { page: number; search: string; enabled: boolean },
) {
  return useQuery({
    queryKey: ['entity-content', slug, kind, { page: o.page, search: o.search }],
    enabled: o.enabled,
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const res = await api.get<Paged<RawRow>>(assignmentsPath(slug, kind), {
        params: { page: o.page, per_page: PER_PAGE, search: o.search || undefined },
      });
      const data: AssignmentRow[] = res.data.data.map((r) => ({
        id: (kind === 'course' ? r.course_id : r.content_id) ?? 0,
        title: r.title,
        type: r.type,
        enabled: r.enabled,
        admin_only_override: r.admin_only_override,
        inherited: r.inherited ?? false,
      }));
      return { ...res.data, data };
    },
  });
}

/** PATCH /entities/{slug}/{courses|content}/{id}: one row's switch (and, for content, the admin-only override). */
export async function updateAssignment(
  slug: string,
  kind: AssignmentKind,
  id: number,
  body: { enabled?: boolean; admin_only_override?: boolean | null },
) {
  const res = await api.patch<Envelope<unknown>>(`${assignmentsPath(slug, kind)}/${id}`, body);
  return res.data.message;
}

/** PATCH /entities/{slug}/{courses|content}/updateMultiple: one change applied to many rows (all or nothing). */
export async function updateAssignments(slug: string, kind: AssignmentKind, ids: number[], enabled: boolean) {
  const items = ids.map((id) => ({ [keyField(kind)]: id, enabled }));
  const res = await api.patch<Envelope<unknown>>(`${assignmentsPath(slug, kind)}/updateMultiple`, { items });
  return res.data.message;
}

/**
 * Adds items: one course or content item through POST /entities/{slug}/{courses|content}; several content items in
 * one call through POST /entity-content (spec 2 §7).
 */
export async function addAssignments(slug: string, kind: AssignmentKind, ids: number[], enabled: boolean) {
  if (kind === 'content' && ids.length > 1) {
    const res = await api.post<Envelope<unknown>>('/entity-content', {
      entity: slug,
      content_ids: ids,
      enabled,
    });
    return res.data.message;
  }
  let message: string | undefined;
  for (const id of ids) {
    const res = await api.post<Envelope<unknown>>(assignmentsPath(slug, kind), {
      [keyField(kind)]: id,
      enabled,
    });
    message = res.data.message;
  }
  return message;
}

export async function removeAssignment(slug: string, kind: AssignmentKind, id: number) {
  const res = await api.delete<{ message?: string }>(`${assignmentsPath(slug, kind)}/${id}`);
  return res.data?.message;
}

/** A course or content item the author may add (GET /courses or /content: needs 63). */
export interface CatalogueItem {
  id: number;
  title: string;
  type?: ContentType;
  published?: boolean;
  platform?: boolean;
  course?: { id: number; title: string } | null;
}

export function useCatalogue(kind: AssignmentKind, search: string, enabled: boolean) {
  return useQuery({
    queryKey: ['entity-content', 'catalogue', kind, search],
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const res = await api.get<Paged<CatalogueItem> & { message?: string }>(
        kind === 'course' ? '/courses' : '/content',
        { params: { search: search || undefined, per_page: 20 } },
      );
      return res.data;
    },
  });
}

// --- Course categories ---------------------------------------------------------------------------------------

export interface CategoryRow {
  id: number;
  entity_id: number | null;
  name: string;
}

/**
 * Course categories belong to the organisation they were created for: the server takes the owner from the acting-as
 * entity (courses/visibility.ts ownerForNew), so this page sends the page's entity as acting-as on every call. The
 * list then holds the entity's own categories and those of its parent organisation (read-only here).
 */
export const actingAsEntity = (slug: string) => ({
  actingAs: false as const,
  headers: { [ACTING_AS_HEADER]: slug },
});

export function useCategories(slug: string, o: { page: number; search: string; enabled: boolean }) {
  return useQuery({
    queryKey: ['entity-content', slug, 'categories', { page: o.page, search: o.search }],
    enabled: o.enabled,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (
        await api.get<Paged<CategoryRow>>('/course-categories', {
          ...actingAsEntity(slug),
          params: { page: o.page, per_page: PER_PAGE, search: o.search || undefined, actingAs: slug },
        })
      ).data,
  });
}

export async function saveCategory(slug: string, id: number | undefined, name: string) {
  const res = id
    ? await api.patch<Envelope<CategoryRow>>(`/course-categories/${id}`, { name }, actingAsEntity(slug))
    : await api.post<Envelope<CategoryRow>>('/course-categories', { name }, actingAsEntity(slug));
  return res.data;
}

export async function deleteCategory(slug: string, id: number) {
  const res = await api.delete<{ message?: string }>(`/course-categories/${id}`, actingAsEntity(slug));
  return res.data?.message;
}

// --- Certificate branding ------------------------------------------------------------------------------------

export interface CertificateBranding {
  title: string;
  signatory_name: string | null;
  signatory_role: string | null;
  accent_colour: string;
  logo_file_id: number | null;
  /** /api/files/{uuid} of the logo, when one is set. */
  logo_url?: string | null;
}

export function useCertificateBranding(slug: string) {
  return useQuery({
    queryKey: ['entity-content', slug, 'certificate-branding'],
    queryFn: async () =>
      (
        await api.get<Envelope<CertificateBranding>>(
          `/entities/${encodeURIComponent(slug)}/certificate-branding`,
        )
      ).data.data,
  });
}

export async function saveCertificateBranding(slug: string, body: z.infer<typeof CertificateBrandingBody>) {
  const res = await api.patch<Envelope<CertificateBranding>>(
    `/entities/${encodeURIComponent(slug)}/certificate-branding`,
    body,
  );
  return res.data;
}

/**
 * The logo goes up through POST /content/images (the one image upload of the API: raster images, stored as a file
 * of the acting-as entity), sent as this entity so the branding may use it (the server accepts PNG or JPEG files of
 * the entity or its parents).
 */
export async function uploadLogo(slug: string, file: File) {
  const form = new FormData();
  form.append('image', file);
  const res = await api.post<Envelope<{ id: number; url: string }>>(
    '/content/images',
    form,
    actingAsEntity(slug),
  );
  return res.data.data;
}
