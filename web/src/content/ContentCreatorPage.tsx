import { CONTENT_TYPES } from '@cc/contracts';
import { Link } from 'react-router';
import { PageHeader } from '../ui';
import { CONTENT_LABELS, KINDS, type Kind, type ListFilters, useList } from './api';

interface Tile {
  key: string;
  title: string;
  description: string;
  to: string;
  kind: Kind;
  extra?: Partial<ListFilters>;
}

const TILES: Tile[] = [
  {
    key: 'courses',
    title: 'Courses',
    description: 'Group content into the courses learners are assigned.',
    to: KINDS.courses.base,
    kind: 'courses',
  },
  ...CONTENT_TYPES.map((type) => ({
    key: type,
    title: `${CONTENT_LABELS[type]} content`,
    description: {
      elearning: 'Lessons and quizzes learners work through online.',
      scorm: 'SCORM 1.2 and 2004 packages.',
      historical: 'Training done before, recorded for the history.',
      face2face: 'Classroom and virtual sessions.',
    }[type],
    to: `${KINDS.content.base}/${type}`,
    kind: 'content' as const,
    extra: { type },
  })),
  {
    key: 'lessons',
    title: 'Lessons',
    description: 'Ordered topics.',
    to: KINDS.lessons.base,
    kind: 'lessons',
  },
  {
    key: 'topics',
    title: 'Topics',
    description: 'The pages of a lesson.',
    to: KINDS.topics.base,
    kind: 'topics',
  },
  {
    key: 'quizzes',
    title: 'Quizzes',
    description: 'Questions with a pass mark.',
    to: KINDS.quizzes.base,
    kind: 'quizzes',
  },
  {
    key: 'h5ps',
    title: 'H5P items',
    description: 'Interactive items shown in topics.',
    to: KINDS.h5ps.base,
    kind: 'h5ps',
  },
];

/** The count on a tile: the list's total from a one-row page. */
function Count({ kind, extra }: { kind: Kind; extra?: Partial<ListFilters> }) {
  const list = useList(kind, { page: 1, search: '', published: '', per_page: 1, ...extra });
  if (list.isLoading) return <span className="cc-skeleton inline-block h-6 w-8 rounded bg-slate-200" />;
  if (list.isError || !list.data) return <span className="text-slate-500">—</span>;
  return <span>{list.data.meta.total}</span>;
}

/** `/content-creator`: the hub of the content creator (spec 2 §2). */
export default function ContentCreatorPage() {
  return (
    <div>
      <PageHeader
        title="Content creator"
        description="Build the courses, content, lessons, topics, quizzes and H5P items your learners take."
      />
      <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {TILES.map((tile) => (
          <li key={tile.key}>
            <Link
              to={tile.to}
              className="focus-ring flex h-full items-start justify-between gap-4 rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 transition hover:ring-primary-400"
            >
              <span className="min-w-0">
                <span className="block text-base font-semibold text-slate-900">{tile.title}</span>
                <span className="mt-1 block text-sm text-slate-600">{tile.description}</span>
              </span>
              <span className="text-2xl font-semibold text-primary-800">
                <Count kind={tile.kind} extra={tile.extra} />
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
