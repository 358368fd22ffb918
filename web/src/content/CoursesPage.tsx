import { ContentPerm, type Course } from '@cc/contracts';
import { KINDS } from './api';
import { publishedColumn, ResourceList } from './ResourceList';

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
      columns={[
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
