import { z } from 'zod';
import { PageQuery, queryBool, updateSchemaOf } from './common';
import { COURSE_LIST_DEFAULT_FIRST } from './constants';

/**
 * Authoring contracts (spec 2 §3, §4, §7): courses and categories, content of every type, lessons, topics,
 * quizzes with questions and answers, H5P items, entity content/courses and feedback.
 */

/** Permission ids of the content creator (spec 2 §6). */
export const ContentPerm = {
  addCourses: 27,
  editCourses: 28,
  addContent: 29,
  editContent: 30,
  contentCreator: 63,
  entityCourses: 68,
  entityContent: 69,
  restrictContent: 122,
} as const;

export const CONTENT_TYPES = ['elearning', 'scorm', 'historical', 'face2face'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];
export const QUIZ_PASS_MARK_DEFAULT = 80;

/** Ids fit PostgreSQL's integer, so a huge number is a 422, not a database error. */
const dbId = z.coerce.number().int().positive().max(2147483647);
const required = (field: string) => `The ${field} field is required.`;
const title = z.string().trim().min(1, required('title')).max(255);
const optionalText = z.string().max(20000).nullable().optional();

export const ContentIdParams = z.object({ id: dbId });
export const ContentRefParams = z.object({ contentId: dbId });
export const LessonRefParams = z.object({ lessonId: dbId });
export const QuizContentParams = z.object({ quizId: dbId, contentId: dbId });
export const SlugContentParams = z.object({ slug: z.string().min(1).max(120), contentId: dbId });
export const SlugCourseParams = z.object({ slug: z.string().min(1).max(120), courseId: dbId });

const Ref = z.object({ id: z.number(), title: z.string() });
const PositionedRef = Ref.extend({ position: z.number() });

// --- Course categories ---------------------------------------------------------------------------------------

export const CourseCategoryBody = z.object({
  name: z.string().trim().min(1, required('name')).max(255),
  /** Super admins only: a platform-wide category (entity_id null). */
  platform: z.boolean().optional(),
});
export const UpdateCourseCategoryBody = CourseCategoryBody.pick({ name: true });
export const CourseCategory = z.object({
  id: z.number(),
  entity_id: z.number().nullable(),
  name: z.string(),
});
export type CourseCategory = z.infer<typeof CourseCategory>;

// --- Courses -------------------------------------------------------------------------------------------------

export const CourseBody = z.object({
  title,
  short_title: z.string().trim().max(100).nullable().optional(),
  category_id: dbId.nullable().optional(),
  published: z.boolean().default(false),
  /** Super admins only: a platform catalogue course (entity_id null). */
  platform: z.boolean().optional(),
});
export const UpdateCourseBody = updateSchemaOf(CourseBody.omit({ platform: true }));

/** spec 2 §9: the course listing asks for the first 10 by default; `first` is accepted as per_page. */
export const CourseListQuery = PageQuery.extend({
  per_page: z.coerce.number().int().min(1).max(100).default(COURSE_LIST_DEFAULT_FIRST),
  first: z.coerce.number().int().min(1).max(100).optional(),
  category_id: dbId.optional(),
  published: queryBool.optional(),
});

/** What a course is (issue 17): ordinary training, or the course backing a document or a pathway. */
export const COURSE_KINDS = ['course', 'document', 'pathway'] as const;
export type CourseKind = (typeof COURSE_KINDS)[number];

export const Course = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  short_title: z.string().nullable(),
  published: z.boolean(),
  /** 'document' / 'pathway': backs a document or a pathway (not started as training; the web labels it). */
  kind: z.enum(COURSE_KINDS),
  /** Issue 17: the document or pathway a 'document' / 'pathway' course backs (the web opens its page instead). */
  document_id: z.number().nullable().optional(),
  pathway_id: z.number().nullable().optional(),
  entity_id: z.number().nullable(),
  platform: z.boolean(),
  category: CourseCategory.nullable(),
  contents_count: z.number().optional(),
  contents: z.array(Ref.extend({ type: z.enum(CONTENT_TYPES), published: z.boolean() })).optional(),
  lessons: z.array(Ref).optional(),
  topics: z.array(Ref).optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Course = z.infer<typeof Course>;

// --- Content -------------------------------------------------------------------------------------------------

/** A list of options, each a list of content ids: any one option fully completed unlocks the content. */
export const Prerequisites = z.array(z.array(dbId).min(1).max(50)).max(20);

export const ContentBody = z.object({
  course_id: dbId,
  type: z.enum(CONTENT_TYPES),
  title,
  aims: optionalText,
  outcomes: optionalText,
  /** A file id from POST /content/images. */
  image_id: dbId.nullable().optional(),
  estimated_duration: z.coerce.number().int().min(0).max(100000).nullable().optional(),
  cpd_accredited: z.boolean().default(false),
  admin_only: z.boolean().default(false),
  published: z.boolean().default(false),
  prerequisites: Prerequisites.default([]),
  platform: z.boolean().optional(),
});
export const UpdateContentBody = updateSchemaOf(ContentBody.omit({ platform: true }));

export const ContentListQuery = PageQuery.extend({
  type: z.enum(CONTENT_TYPES).optional(),
  course_id: dbId.optional(),
  published: queryBool.optional(),
});

export const ContentImage = z.object({ id: z.number(), url: z.string() });
export const DeleteImageBody = z.object({ id: dbId });

export const Content = z.object({
  id: z.number(),
  uuid: z.string(),
  type: z.enum(CONTENT_TYPES),
  title: z.string(),
  course_id: z.number(),
  course: Ref,
  entity_id: z.number().nullable(),
  platform: z.boolean(),
  published: z.boolean(),
  cpd_accredited: z.boolean(),
  admin_only: z.boolean(),
  image: ContentImage.nullable(),
  estimated_duration: z.number().nullable(),
  aims: z.string().nullable(),
  outcomes: z.string().nullable(),
  prerequisites: z.array(z.array(z.number())),
  lessons: z.array(PositionedRef).optional(),
  quizzes: z.array(PositionedRef).optional(),
  topics: z.array(Ref).optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Content = z.infer<typeof Content>;

/** spec 2 §4: lessons and quizzes on content, and topics on lessons, change by an action. */
const ActionFields = {
  action: z.enum(['add', 'remove', 'order']),
  /** order: every attached id, in the new order. */
  ids: z.array(dbId).max(500).optional(),
};
const needsTarget =
  (key: string) =>
  (body: { action: string; ids?: number[] } & Record<string, unknown>, c: z.RefinementCtx) => {
    if (body.action === 'order' && !body.ids)
      c.addIssue({ code: 'custom', path: ['ids'], message: required('ids') });
    if (body.action !== 'order' && body[key] === undefined)
      c.addIssue({ code: 'custom', path: [key], message: required(key.replace('_', ' ')) });
  };
export const LessonActionBody = z
  .object({ ...ActionFields, lesson_id: dbId.optional() })
  .superRefine(needsTarget('lesson_id'));
export const QuizActionBody = z
  .object({ ...ActionFields, quiz_id: dbId.optional() })
  .superRefine(needsTarget('quiz_id'));
export const TopicActionBody = z
  .object({ ...ActionFields, topic_id: dbId.optional() })
  .superRefine(needsTarget('topic_id'));

export const FeedbackBody = z.object({
  rating: z.coerce
    .number()
    .int()
    .min(1, 'The rating must be between 1 and 5.')
    .max(5, 'The rating must be between 1 and 5.'),
  message: z.string().trim().max(5000).nullable().optional(),
});

// --- Entity content and courses ------------------------------------------------------------------------------

export const EntityContentBody = z.object({
  content_id: dbId,
  enabled: z.boolean().default(true),
  /** Needs permission 122. null: use the content's own admin_only. */
  admin_only_override: z.boolean().nullable().optional(),
});
export const UpdateEntityContentBody = updateSchemaOf(EntityContentBody.omit({ content_id: true }));
export const EntityContentMultipleBody = z.object({
  items: z
    .array(z.object({ content_id: dbId, enabled: z.boolean() }))
    .min(1)
    .max(500),
});
export const EntityCourseBody = z.object({ course_id: dbId, enabled: z.boolean().default(true) });
export const UpdateEntityCourseBody = z.object({ enabled: z.boolean() });
export const EntityCourseMultipleBody = z.object({
  items: z
    .array(z.object({ course_id: dbId, enabled: z.boolean() }))
    .min(1)
    .max(500),
});
/** POST /entity-content: assign several content items to one entity (mirrors POST /entity-permissions). */
export const AssignContentBody = z.object({
  entity: z.string().min(1).max(120),
  content_ids: z.array(dbId).min(1).max(500),
  enabled: z.boolean().default(true),
});
export const EntityAssignmentQuery = PageQuery;

export const EntityContentItem = z.object({
  content_id: z.number(),
  title: z.string(),
  type: z.enum(CONTENT_TYPES),
  enabled: z.boolean(),
  admin_only_override: z.boolean().nullable(),
});
export const EntityCourseItem = z.object({
  course_id: z.number(),
  title: z.string(),
  enabled: z.boolean(),
  /** Available through a parent organisation, with no row of the entity's own (switch it off here to hide it). */
  inherited: z.boolean(),
});

// --- Lessons, topics, quizzes, H5P ---------------------------------------------------------------------------

export const OwnedListQuery = PageQuery;

export const LessonBody = z.object({
  title,
  question_qty: z.coerce.number().int().min(0).max(1000).nullable().optional(),
  platform: z.boolean().optional(),
});
export const UpdateLessonBody = updateSchemaOf(LessonBody.omit({ platform: true }));
export const Lesson = z.object({
  id: z.number(),
  title: z.string(),
  question_qty: z.number().nullable(),
  entity_id: z.number().nullable(),
  topics: z.array(PositionedRef).optional(),
});

export const TopicResource = z.object({
  title: z.string().trim().min(1).max(255),
  url: z
    .string()
    .url()
    .max(2000)
    .refine((u) => /^https?:\/\//i.test(u), 'The url must start with http:// or https://.'),
});
export const TopicBody = z.object({
  title,
  /** Rich text; sanitised by the server before it is stored. */
  body_html: z.string().max(200000).optional(),
  hidden: z.boolean().default(false),
  skippable: z.boolean().default(false),
  is_child: z.boolean().default(false),
  h5p_id: dbId.nullable().optional(),
  resources: z.array(TopicResource).max(50).default([]),
  platform: z.boolean().optional(),
});
export const UpdateTopicBody = updateSchemaOf(TopicBody.omit({ platform: true }));
export const Topic = z.object({
  id: z.number(),
  title: z.string(),
  body_html: z.string(),
  hidden: z.boolean(),
  skippable: z.boolean(),
  is_child: z.boolean(),
  h5p: Ref.nullable(),
  h5p_id: z.number().nullable(),
  /** spec 2 §3 Topic `h5ps`: the topic's H5P as a list (empty or one), beside our `h5p` and `h5p_id`. */
  h5ps: z.array(Ref),
  resources: z.array(TopicResource),
  entity_id: z.number().nullable(),
});

export const AnswerInput = z.object({
  id: dbId.optional(),
  text: z.string().trim().min(1, required('text')).max(2000),
  is_correct: z.boolean().default(false),
});
export const QuestionInput = z.object({
  id: dbId.optional(),
  text: z.string().trim().min(1, required('text')).max(5000),
  answers: z
    .array(AnswerInput)
    .min(2, 'Each question needs at least 2 answers.')
    .max(20)
    .refine((a) => a.some((x) => x.is_correct), 'Each question needs at least one correct answer.'),
});
export const QuizBody = z.object({
  title,
  published: z.boolean().default(false),
  is_randomized: z.boolean().default(false),
  pass_mark: z.coerce.number().int().min(0).max(100).default(QUIZ_PASS_MARK_DEFAULT),
  questions: z.array(QuestionInput).max(200).default([]),
  platform: z.boolean().optional(),
});
export const UpdateQuizBody = updateSchemaOf(QuizBody.omit({ platform: true }));
export const ChangeQuestionOrderBody = z.object({ quiz_id: dbId, ids: z.array(dbId).min(1).max(500) });
export const Quiz = z.object({
  id: z.number(),
  title: z.string(),
  published: z.boolean(),
  is_randomized: z.boolean(),
  pass_mark: z.number(),
  entity_id: z.number().nullable(),
  questions: z
    .array(
      z.object({
        id: z.number(),
        text: z.string(),
        position: z.number(),
        answers: z.array(
          z.object({ id: z.number(), text: z.string(), is_correct: z.boolean(), position: z.number() }),
        ),
      }),
    )
    .optional(),
});

export const H5pBody = z.object({
  title,
  video_id: z.string().trim().max(255).nullable().optional(),
  platform: z.boolean().optional(),
});
export const UpdateH5pBody = updateSchemaOf(H5pBody.omit({ platform: true }));
export const H5p = z.object({
  id: z.number(),
  title: z.string(),
  video_id: z.string().nullable(),
  library: z.string().nullable(),
  entity_id: z.number().nullable(),
});
