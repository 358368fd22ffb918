import type {
  AcknowledgementRow,
  CheckQuestion,
  DocumentSummary,
  DocumentVersionView,
  DocumentView,
  MyDocument,
  Paged,
} from '@cc/contracts';
import { DocumentMessages } from '@cc/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';
import { type ChangeOptions, runChange } from '../app/change';
import {
  createLibraryMutation,
  librariesPage,
  library,
  libraryDocumentsPage,
  updateLibraryMutation,
} from '../app/graphql/operations';
import { notifyError } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { downloadFile } from '../native/files';

/**
 * The calls of /libraries, /libraries/{id} and /document/{id} (contracts documents.ts) through THE api client; query
 * keys under ['documents'] so one invalidation after a change refreshes every list, view and the learner's to-do.
 */
export { DocumentMessages };

/** A manager's view carries the check question with its answer (contracts DocumentAdminView). */
export type DocumentPageView = DocumentView & { check_question_full?: CheckQuestion | null };

export interface LibraryFilters {
  page: number;
  search?: string;
}
export interface AcknowledgementFilters {
  page: number;
  status?: 'acknowledged' | 'outstanding';
}

export const docKeys = {
  all: ['documents'] as const,
  libraries: (f: LibraryFilters) => ['documents', 'libraries', f] as const,
  library: (id: number) => ['documents', 'library', id] as const,
  libraryDocuments: (id: number, f: LibraryFilters) => ['documents', 'library', id, 'documents', f] as const,
  document: (id: number) => ['documents', 'document', id] as const,
  acknowledgements: (id: number, f: AcknowledgementFilters) =>
    ['documents', 'document', id, 'acknowledgements', f] as const,
  mine: ['documents', 'mine'] as const,
  /** A version's bytes: a version never changes, so its key is outside ['documents'] (never invalidated). */
  file: (id: number, number: number) => ['document-file', id, number] as const,
};

const listOf = <T>(data: Envelope<T[]> | T[]): T[] => (Array.isArray(data) ? data : (data.data ?? []));

export function useLibraries(f: LibraryFilters) {
  return useQuery({
    queryKey: docKeys.libraries(f),
    placeholderData: keepPreviousData,
    // GraphQL (spec 2 §7 "libraries"): web/src/app/graphql/README.md.
    queryFn: () => librariesPage(f),
  });
}

export function useLibrary(id: number) {
  return useQuery({
    queryKey: docKeys.library(id),
    enabled: id > 0,
    queryFn: () => library(id),
  });
}

export function useLibraryDocuments(id: number, f: LibraryFilters) {
  return useQuery({
    queryKey: docKeys.libraryDocuments(id, f),
    enabled: id > 0,
    placeholderData: keepPreviousData,
    queryFn: () => libraryDocumentsPage(id, f),
  });
}

export function useDocument(id: number) {
  return useQuery({
    queryKey: docKeys.document(id),
    enabled: id > 0,
    queryFn: async () => (await api.get<Envelope<DocumentPageView>>(`/documents/${id}`)).data.data,
  });
}

export function useAcknowledgements(id: number, f: AcknowledgementFilters, enabled: boolean) {
  return useQuery({
    queryKey: docKeys.acknowledgements(id, f),
    enabled: enabled && id > 0,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (
        await api.get<Paged<AcknowledgementRow>>(`/documents/${id}/acknowledgements`, {
          params: { page: f.page, status: f.status },
        })
      ).data,
  });
}

/** The caller's required documents (GET /documents/mine): the learner dashboard's "Policies to read". */
export function useMyDocuments() {
  return useQuery({
    queryKey: docKeys.mine,
    queryFn: async () =>
      listOf((await api.get<Envelope<MyDocument[]> | MyDocument[]>('/documents/mine')).data),
  });
}

// --- The file ---------------------------------------------------------------------------------------------------

/** The API path of a version's file (GET /documents/{id}/versions/{number}/file): fetching it records the opening. */
export const versionFilePath = (documentId: number, number: number) =>
  `/documents/${documentId}/versions/${number}/file`;

/**
 * A version's bytes through the api client (cookies, acting-as), as a Blob. The file is never put in the page as
 * a same-origin address: PDFs are drawn by pdf.js from these bytes, images shown from a blob: address.
 */
export async function fetchVersionFile(documentId: number, number: number): Promise<Blob> {
  const res = await api.get<Blob>(versionFilePath(documentId, number), { headers: { Accept: '*/*' } });
  return asFile(res.data);
}

/** The answer as a file; a JSON or text answer is not one. Duck-typed: a Blob of another realm fails instanceof. */
function asFile(data: unknown): Blob {
  if (typeof (data as Partial<Blob> | null)?.arrayBuffer !== 'function')
    throw new Error('The file could not be read.');
  return data as Blob;
}

/** Saves a version's file under its own name (office files, and "Download" in the history). */
export function downloadVersion(documentId: number, version: DocumentVersionView): Promise<boolean> {
  return downloadFile(
    async () => {
      const res = await api.get<Blob>(versionFilePath(documentId, version.number), {
        headers: { Accept: '*/*' },
      });
      return { ...res, data: asFile(res.data) };
    },
    {
      fallbackName: 'document',
      name: version.file_name || 'document',
      failure: 'The file could not be downloaded.',
      onError: (error) =>
        notifyError(errorEnvelope(error, 'The file could not be downloaded.'), 'Download failed.'),
    },
  );
}

// --- Changes ----------------------------------------------------------------------------------------------------

/**
 * Runs a change: shows the server's message (else `success`), refreshes every documents query (and the learner's
 * to-do, which lists required documents); a failure shows the server's message unless `quietErrors` (a form shows
 * its own) and is rethrown, so a dialog stays open with what was typed.
 */
export const docAction = <T = unknown>(
  queryClient: QueryClient,
  request: () => Promise<{ data?: { message?: string; data?: T } | null }>,
  success: string,
  options?: ChangeOptions,
) => runChange<T>(queryClient, [docKeys.all, ['learning', 'events']], request, success, options);

// GraphQL (spec 2 §7 "creating ... libraries"); a 422's field map reaches the dialog's fields as with REST.
export const createLibrary = createLibraryMutation;
export const updateLibrary = updateLibraryMutation;
export const deleteLibrary = (id: number) => api.delete<{ message?: string }>(`/libraries/${id}`);

export function uploadDocument(
  libraryId: number,
  fields: { file: File; title: string; description: string; check_question: CheckQuestion | null },
) {
  const form = new FormData();
  form.append('title', fields.title.trim());
  if (fields.description.trim()) form.append('description', fields.description.trim());
  if (fields.check_question) form.append('check_question', JSON.stringify(fields.check_question));
  // The file last: a streaming multipart reader has every field before the bytes.
  form.append('file', fields.file);
  return api.upload<Envelope<DocumentSummary>>(`/libraries/${libraryId}/documents`, form);
}

export const updateDocument = (
  id: number,
  body: { title?: string; description?: string | null; check_question?: CheckQuestion | null },
) => api.patch<Envelope<DocumentPageView>>(`/documents/${id}`, body);
export const deleteDocument = (id: number) => api.delete<{ message?: string }>(`/documents/${id}`);

export function uploadVersion(id: number, fields: { file: File; change_note: string }) {
  const form = new FormData();
  form.append('change_note', fields.change_note.trim());
  form.append('file', fields.file);
  return api.upload<Envelope<DocumentPageView>>(`/documents/${id}/versions`, form);
}

export const acknowledge = (
  id: number,
  body: { typed_name: string; answer?: number | null; version: number },
) => api.post<Envelope<DocumentPageView>>(`/documents/${id}/acknowledge`, body);

export const saveRequirements = (
  id: number,
  body: { entity: string; role_ids: number[]; type: 'primary' | 'secondary'; grace_days?: number },
) => api.put<Envelope<DocumentPageView>>(`/documents/${id}/requirements`, body);

/** POST /documents/{id}/remind (136): those who have not read the current version, once a day each (issue 33 §4). */
export const remindUnread = (id: number) =>
  api.post<Envelope<{ reminded: number }>>(`/documents/${id}/remind`);
