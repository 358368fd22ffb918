import { ContentPerm, type Course } from '@cc/contracts';
import { Badge } from '../ui';
import { KINDS } from './api';
import { publishedColumn, ResourceList } from './ResourceList';

/**
 * Issue 17: a course may back a document or a pathway (Course.kind, with the backing item's id). Such a course is
 * labelled and opens its own page, never the course editor.
 */
export const COURSE_KIND_LABEL = { document: 'Document', pathway: 'Pathway' } as const;

export function courseKindLink(c: Course): { to: string; label: string } | null {
  if (c.kind === 'document' && c.document_id) return { to: `/document/${c.document_id}`, label: 'Open' };
  if (c.kind === 'pathway' && c.pathway_id) return { to: `/pathways/${c.pathway_id}`, label: 'Open' };
  return null;
}

export function CourseKindBadge({ course }: { course: Course }) {
  const kind = course.kind;
  if (kind === 'document' || kind === 'pathway')
    return <Badge tone="primary">{COURSE_KIND_LABEL[kind]}</Badge>;
  return <>{kind === 'course' ? 'Course' : '—'}</>;
}

/** `/content-creator/courses` (spec 2 §7 GET /courses with search, published and paging). */
export default function CoursesPage() {
  const k = KINDS.courses;
  return (
    <ResourceList
      kind="courses"
      title={k.plural}
      singular={k.singular}
      base={k.base}
      listError={k.listError}
      description="Courses group the e-learning, SCORM, historical and face-to-face content learners complete."
      publishedFilter
      addPermission={ContentPerm.addCourses}
      rowLink={courseKindLink}
      columns={[
        {
          key: 'kind',
          header: 'Type',
          hideOnMobile: true,
          render: (c: Course) => <CourseKindBadge course={c} />,
        },
        {
          key: 'short',
          header: 'Short title',
          hideOnMobile: true,
          render: (c: Course) => c.short_title ?? '—',
        },
        {
          key: 'category',
          header: 'Category',
          hideOnMobile: true,
          render: (c: Course) => c.category?.name ?? '—',
        },
        {
          key: 'contents',
          header: 'Contents',
          hideOnMobile: true,
          render: (c: Course) => (c.contents_count ?? c.contents?.length ?? 0).toString(),
        },
        publishedColumn<Course>(),
      ]}
    />
  );
}
