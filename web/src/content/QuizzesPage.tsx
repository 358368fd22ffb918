import { KINDS, type QuizDto } from './api';
import { publishedColumn, ResourceList } from './ResourceList';

/** `/content-creator/quizzes` (spec 2 §7 GET /quizzes). */
export default function QuizzesPage() {
  const k = KINDS.quizzes;
  return (
    <ResourceList
      kind="quizzes"
      title={k.plural}
      singular={k.singular}
      base={k.base}
      listError={k.listError}
      description="Quizzes test what learners took in, scored against a pass mark."
      columns={[
        { key: 'pass', header: 'Pass mark', hideOnMobile: true, render: (q: QuizDto) => `${q.pass_mark}%` },
        {
          key: 'random',
          header: 'Order',
          hideOnMobile: true,
          render: (q: QuizDto) => (q.is_randomized ? 'Randomised' : 'Fixed'),
        },
        publishedColumn<QuizDto>(),
      ]}
    />
  );
}
