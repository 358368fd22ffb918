import type {
  CheckQuestion,
  DocumentStatus,
  DocumentSummary,
  DocumentVersionView,
  LibraryView,
} from '@cc/contracts';
import { displayOf } from './file-check';
import type { DocumentListRow, LibraryListRow, VersionRow } from './queries';

/** Row → contract view of documents and libraries (contracts documents.ts). No queries here. */
const iso = (d: Date | string) => new Date(d).toISOString();

export function libraryView(row: LibraryListRow, manage: boolean): LibraryView {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    entity: { id: row.entity_id, slug: row.entity_slug, name: row.entity_name },
    document_count: Number(row.document_count),
    updated_at: iso(row.updated_at),
    can: { manage },
  };
}

/**
 * The caller's state: acknowledged the current version; acknowledged an earlier one while it is required (a new
 * version asks again); required and never acknowledged; else not required.
 */
export function statusOf(row: {
  version: number;
  my_version: number | null;
  required: boolean;
}): DocumentStatus {
  if (row.my_version !== null && Number(row.my_version) >= Number(row.version)) return 'acknowledged';
  if (!row.required) return 'not_required';
  return row.my_version === null ? 'to_read' : 'new_version';
}

export function documentSummary(row: DocumentListRow): DocumentSummary {
  return {
    id: row.id,
    uuid: row.uuid,
    title: row.title,
    description: row.description,
    library: { id: row.library_id, name: row.library_name },
    entity: { id: row.entity_id, slug: row.entity_slug, name: row.entity_name },
    course_id: row.course_id,
    version: Number(row.version),
    updated_at: iso(row.updated_at),
    my_status: statusOf({ ...row, required: Boolean(row.required) }),
  };
}

export const fileUrl = (documentId: number, number: number) =>
  `/api/documents/${documentId}/versions/${number}/file`;

export function versionView(documentId: number, v: VersionRow): DocumentVersionView {
  return {
    id: v.id,
    number: v.number,
    change_note: v.change_note,
    file_name: v.original_name,
    mime_type: v.mime_type,
    size_bytes: Number(v.size_bytes),
    display: displayOf(v.mime_type),
    file_url: fileUrl(documentId, v.number),
    created_by:
      v.user_id !== null ? { id: v.user_id, uuid: v.user_uuid ?? '', name: v.user_name ?? '' } : null,
    created_at: iso(v.created_at),
  };
}

/** The question as staff see it: without its answer. */
export function publicQuestion(q: CheckQuestion | null) {
  return q ? { question: q.question, options: q.options } : null;
}
