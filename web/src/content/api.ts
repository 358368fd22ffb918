import type {
  Content,
  ContentType,
  Course,
  CourseCategory,
  H5p,
  Lesson,
  Paged,
  Quiz,
  Topic,
} from '@cc/contracts';
import { Messages } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, type Envelope } from '../app/api';

/**
 * Server state of the content creator (spec 2 §7): one list/one-item pair of queries per kind. Query keys start
 * with 'content-creator' and the kind, so a save invalidates the lists and the item of its kind.
 */
export type LessonDto = z.infer<typeof Lesson>;
export type TopicDto = z.infer<typeof Topic>;
export type QuizDto = z.infer<typeof Quiz>;
export type H5pDto = z.infer<typeof H5p>;
export type { Content, ContentType, Course, CourseCategory };

export type Kind = 'courses' | 'content' | 'lessons' | 'topics' | 'quizzes' | 'h5ps';

export interface DtoOf {
  courses: Course;
  content: Content;
  lessons: LessonDto;
  topics: TopicDto;
  quizzes: QuizDto;
  h5ps: H5pDto;
}

/** What each kind is called, where its screens live, and the spec's texts (§8) for it. */
export const KINDS = {
  courses: {
    plural: 'Courses',
    singular: 'course',
    base: '/content-creator/courses',
    listError: 'Failed to fetch courses.',
    loadError: Messages.somethingWentWrong,
    deleted: Messages.courseDeleted,
  },
  content: {
    plural: 'Content',
    singular: 'content',
    base: '/content-creator/content',
    listError: Messages.failedToFetchContent,
    loadError: Messages.errorLoadingContent,
    deleted: Messages.contentDeleted,
  },
  lessons: {
    plural: 'Lessons',
    singular: 'lesson',
    base: '/content-creator/lessons',
    listError: Messages.failedToFetchLessons,
    loadError: Messages.somethingWentWrong,
    deleted: Messages.lessonDeleted,
  },
  topics: {
    plural: 'Topics',
    singular: 'topic',
    base: '/content-creator/topics',
    listError: Messages.failedToFetchTopics,
    loadError: Messages.errorLoadingTopic,
    deleted: Messages.topicDeleted,
  },
  quizzes: {
    plural: 'Quizzes',
    singular: 'quiz',
    base: '/content-creator/quizzes',
    listError: 'Failed to fetch quizzes.',
    loadError: Messages.somethingWentWrong,
    deleted: Messages.quizDeleted,
  },
  h5ps: {
    plural: 'H5P items',
    singular: 'H5P item',
    base: '/content-creator/h5ps',
    listError: Messages.failedToFetchH5ps,
    loadError: Messages.somethingWentWrong,
    deleted: Messages.h5pDeleted,
  },
} as const satisfies Record<Kind, unknown>;

export const CONTENT_LABELS: Record<ContentType, string> = {
  elearning: 'E-learning',
  scorm: 'SCORM',
  historical: 'Historical',
  face2face: 'Face-to-face',
};

export interface ListFilters {
  page: number;
  search: string;
  /** '' all, '1' published, '0' unpublished (courses and content). */
  published: '' | '0' | '1';
  type?: ContentType;
  course_id?: number;
  per_page?: number;
}

const endpoint = (kind: Kind) => `/${kind}`;

export async function fetchList<K extends Kind>(kind: K, f: ListFilters): Promise<Paged<DtoOf[K]>> {
  const res = await api.get<Paged<DtoOf[K]>>(endpoint(kind), {
    params: {
      page: f.page,
      per_page: f.per_page,
      search: f.search || undefined,
      published: f.published || undefined,
      type: f.type,
      course_id: f.course_id,
    },
  });
  return res.data;
}

export function useList<K extends Kind>(kind: K, filters: ListFilters, enabled = true) {
  return useQuery({
    queryKey: ['content-creator', kind, 'list', filters],
    queryFn: () => fetchList(kind, filters),
    placeholderData: (previous) => previous,
    enabled,
  });
}

export function useItem<K extends Kind>(kind: K, id: number | null) {
  return useQuery({
    queryKey: ['content-creator', kind, 'one', id],
    enabled: id !== null,
    queryFn: async () => (await api.get<Envelope<DtoOf[K]>>(`${endpoint(kind)}/${id}`)).data.data,
  });
}

/** Up to 100 items of a kind as {id, title} options (pickers: add a lesson, prerequisites, H5P item). */
export function useOptions(kind: Kind, extra: Partial<ListFilters> = {}, enabled = true) {
  return useQuery({
    queryKey: ['content-creator', kind, 'options', extra],
    enabled,
    queryFn: async () =>
      (await fetchList(kind, { page: 1, search: '', published: '', per_page: 100, ...extra })).data.map(
        (row) => ({ id: row.id, title: (row as { title: string }).title }),
      ),
  });
}

export function useCategories() {
  return useQuery({
    queryKey: ['content-creator', 'categories'],
    queryFn: async () =>
      (await api.get<Paged<CourseCategory>>('/course-categories', { params: { per_page: 100 } })).data.data,
  });
}

/** The numeric id of an /update/{id} route, or null (create, or not a number). */
export function routeId(raw: string | undefined): number | null {
  return raw && /^\d+$/.test(raw) ? Number(raw) : null;
}

/** The type's name inside a sentence ("Add e-learning content", "Add SCORM content"). */
export const contentNoun = (type: ContentType) =>
  type === 'scorm' ? 'SCORM' : CONTENT_LABELS[type].toLowerCase();
