import type { Course } from '@cc/contracts';
import type { courseParts, findCourse } from './queries';

type Row = NonNullable<Awaited<ReturnType<typeof findCourse>>> & { contents_count?: number };
type Parts = Awaited<ReturnType<typeof courseParts>>;

export const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function presentCourse(row: Row, parts?: Parts): Course {
  return {
    id: row.id,
    uuid: row.uuid,
    title: row.title,
    short_title: row.short_title,
    published: row.published,
    kind: row.kind,
    document_id: row.document_id ?? null,
    pathway_id: row.pathway_id ?? null,
    entity_id: row.entity_id,
    platform: row.entity_id === null,
    category:
      row.category_id === null
        ? null
        : { id: row.category_id, name: row.category_name ?? '', entity_id: row.category_entity_id ?? null },
    ...(row.contents_count === undefined ? {} : { contents_count: row.contents_count }),
    ...(parts ? { contents: parts.contents, lessons: parts.lessons, topics: parts.topics } : {}),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
