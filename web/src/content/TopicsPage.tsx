import { Badge } from '../ui';
import { KINDS, type TopicDto } from './api';
import { ResourceList } from './ResourceList';

/** `/content-creator/topics` (spec 2 §7 GET /topics). */
export default function TopicsPage() {
  const k = KINDS.topics;
  return (
    <ResourceList
      kind="topics"
      title={k.plural}
      singular={k.singular}
      base={k.base}
      listError={k.listError}
      description="Topics are the pages of a lesson: text, an optional H5P item and resources."
      columns={[
        {
          key: 'flags',
          header: 'Flags',
          hideOnMobile: true,
          render: (t: TopicDto) => (
            <span className="flex flex-wrap gap-1">
              {t.hidden ? <Badge>Hidden</Badge> : null}
              {t.skippable ? <Badge tone="primary">Skippable</Badge> : null}
              {t.is_child ? <Badge tone="primary">Child</Badge> : null}
              {!t.hidden && !t.skippable && !t.is_child ? '—' : null}
            </span>
          ),
        },
        { key: 'h5p', header: 'H5P item', hideOnMobile: true, render: (t: TopicDto) => t.h5p?.title ?? '—' },
      ]}
    />
  );
}
