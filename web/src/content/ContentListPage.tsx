import { CONTENT_TYPES, type Content, type ContentType } from '@cc/contracts';
import { Navigate, useParams } from 'react-router';
import { Badge } from '../ui';
import { CONTENT_LABELS, contentNoun, KINDS } from './api';
import { publishedColumn, ResourceList } from './ResourceList';

export const isContentType = (t: string | undefined): t is ContentType =>
  (CONTENT_TYPES as readonly string[]).includes(t ?? '');

/** `/content-creator/content/{type}` (spec 2 §7 GET /content?type=…): content of one type. */
export default function ContentListPage() {
  const { type } = useParams();
  if (!isContentType(type)) return <Navigate to="/404" replace />;
  const k = KINDS.content;
  return (
    <ResourceList
      key={type}
      kind="content"
      title={`${CONTENT_LABELS[type]} content`}
      singular={`${contentNoun(type)} content`}
      base={`${k.base}/${type}`}
      listError={k.listError}
      description="Content learners take as part of a course."
      publishedFilter
      extra={{ type }}
      columns={[
        { key: 'course', header: 'Course', hideOnMobile: true, render: (c: Content) => c.course.title },
        {
          key: 'flags',
          header: 'Flags',
          hideOnMobile: true,
          render: (c: Content) => (
            <span className="flex flex-wrap gap-1">
              {c.cpd_accredited ? <Badge tone="primary">CPD</Badge> : null}
              {c.admin_only ? <Badge tone="warning">Admin only</Badge> : null}
              {!c.cpd_accredited && !c.admin_only ? '—' : null}
            </span>
          ),
        },
        publishedColumn<Content>(),
      ]}
    />
  );
}
