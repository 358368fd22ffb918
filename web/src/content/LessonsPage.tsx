import { KINDS, type LessonDto } from './api';
import { ResourceList } from './ResourceList';

/** `/content-creator/lessons` (spec 2 §7 GET /lessons). */
export default function LessonsPage() {
  const k = KINDS.lessons;
  return (
    <ResourceList
      kind="lessons"
      title={k.plural}
      singular={k.singular}
      base={k.base}
      listError={k.listError}
      description="Lessons hold the topics learners read through in e-learning content."
      columns={[
        {
          key: 'qty',
          header: 'Questions asked',
          hideOnMobile: true,
          render: (l: LessonDto) => (l.question_qty ?? '—').toString(),
        },
      ]}
    />
  );
}
