import { type Kysely, sql } from 'kysely';

/**
 * Authoring (spec 2 §3/§7): courses and their categories, content of every type, lessons, topics, quizzes with
 * questions and answers, H5P items, which organisations a course or content is available to, and feedback.
 * Owner `entity_id` null on courses/contents means the platform catalogue (made by super admins).
 * Statements run one by one (PGlite's extended protocol takes one statement per query).
 */
const statements = [
  `CREATE TABLE course_categories (
    id serial PRIMARY KEY,
    entity_id integer REFERENCES entities(id) ON DELETE CASCADE,
    name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX course_categories_name_uq ON course_categories(COALESCE(entity_id, 0), lower(name))`,

  `CREATE TABLE courses (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer REFERENCES entities(id) ON DELETE CASCADE,
    title text NOT NULL,
    short_title text,
    category_id integer REFERENCES course_categories(id) ON DELETE SET NULL,
    published boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX courses_entity_idx ON courses(entity_id)`,
  `CREATE INDEX courses_category_idx ON courses(category_id)`,
  `CREATE INDEX courses_title_idx ON courses(lower(title))`,

  `CREATE TABLE h5ps (
    id serial PRIMARY KEY,
    entity_id integer REFERENCES entities(id) ON DELETE CASCADE,
    title text NOT NULL,
    video_id text,
    package_dir text,
    library text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX h5ps_entity_idx ON h5ps(entity_id)`,

  `CREATE TABLE contents (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer REFERENCES entities(id) ON DELETE CASCADE,
    course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    type text NOT NULL CHECK (type IN ('elearning','scorm','historical','face2face')),
    title text NOT NULL,
    aims text,
    outcomes text,
    image_file_id integer REFERENCES files(id) ON DELETE SET NULL,
    estimated_duration integer CHECK (estimated_duration IS NULL OR estimated_duration >= 0),
    cpd_accredited boolean NOT NULL DEFAULT false,
    admin_only boolean NOT NULL DEFAULT false,
    published boolean NOT NULL DEFAULT false,
    prerequisites jsonb NOT NULL DEFAULT '[]',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX contents_entity_idx ON contents(entity_id)`,
  `CREATE INDEX contents_course_idx ON contents(course_id)`,
  `CREATE INDEX contents_type_idx ON contents(type)`,
  `CREATE INDEX contents_title_idx ON contents(lower(title))`,

  `CREATE TABLE lessons (
    id serial PRIMARY KEY,
    entity_id integer REFERENCES entities(id) ON DELETE CASCADE,
    title text NOT NULL,
    question_qty integer CHECK (question_qty IS NULL OR question_qty >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX lessons_entity_idx ON lessons(entity_id)`,

  `CREATE TABLE content_lessons (
    content_id integer NOT NULL REFERENCES contents(id) ON DELETE CASCADE,
    lesson_id integer NOT NULL REFERENCES lessons(id) ON DELETE CASCADE,
    position integer NOT NULL DEFAULT 0,
    PRIMARY KEY (content_id, lesson_id)
  )`,
  `CREATE INDEX content_lessons_lesson_idx ON content_lessons(lesson_id)`,

  `CREATE TABLE topics (
    id serial PRIMARY KEY,
    entity_id integer REFERENCES entities(id) ON DELETE CASCADE,
    title text NOT NULL,
    body_html text NOT NULL DEFAULT '',
    hidden boolean NOT NULL DEFAULT false,
    skippable boolean NOT NULL DEFAULT false,
    is_child boolean NOT NULL DEFAULT false,
    h5p_id integer REFERENCES h5ps(id) ON DELETE SET NULL,
    resources jsonb NOT NULL DEFAULT '[]',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX topics_entity_idx ON topics(entity_id)`,
  `CREATE INDEX topics_h5p_idx ON topics(h5p_id)`,

  `CREATE TABLE lesson_topics (
    lesson_id integer NOT NULL REFERENCES lessons(id) ON DELETE CASCADE,
    topic_id integer NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
    position integer NOT NULL DEFAULT 0,
    PRIMARY KEY (lesson_id, topic_id)
  )`,
  `CREATE INDEX lesson_topics_topic_idx ON lesson_topics(topic_id)`,

  `CREATE TABLE quizzes (
    id serial PRIMARY KEY,
    entity_id integer REFERENCES entities(id) ON DELETE CASCADE,
    title text NOT NULL,
    published boolean NOT NULL DEFAULT false,
    is_randomized boolean NOT NULL DEFAULT false,
    pass_mark integer NOT NULL DEFAULT 80 CHECK (pass_mark BETWEEN 0 AND 100),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX quizzes_entity_idx ON quizzes(entity_id)`,

  `CREATE TABLE questions (
    id serial PRIMARY KEY,
    quiz_id integer NOT NULL REFERENCES quizzes(id) ON DELETE CASCADE,
    text text NOT NULL,
    position integer NOT NULL DEFAULT 0
  )`,
  `CREATE INDEX questions_quiz_idx ON questions(quiz_id, position)`,

  `CREATE TABLE answers (
    id serial PRIMARY KEY,
    question_id integer NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
    text text NOT NULL,
    is_correct boolean NOT NULL DEFAULT false,
    position integer NOT NULL DEFAULT 0
  )`,
  `CREATE INDEX answers_question_idx ON answers(question_id, position)`,

  `CREATE TABLE content_quizzes (
    content_id integer NOT NULL REFERENCES contents(id) ON DELETE CASCADE,
    quiz_id integer NOT NULL REFERENCES quizzes(id) ON DELETE CASCADE,
    position integer NOT NULL DEFAULT 0,
    PRIMARY KEY (content_id, quiz_id)
  )`,
  `CREATE INDEX content_quizzes_quiz_idx ON content_quizzes(quiz_id)`,

  `CREATE TABLE entity_content (
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    content_id integer NOT NULL REFERENCES contents(id) ON DELETE CASCADE,
    enabled boolean NOT NULL DEFAULT true,
    admin_only_override boolean,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (entity_id, content_id)
  )`,
  `CREATE INDEX entity_content_content_idx ON entity_content(content_id)`,

  `CREATE TABLE entity_courses (
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    enabled boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (entity_id, course_id)
  )`,
  `CREATE INDEX entity_courses_course_idx ON entity_courses(course_id)`,

  `CREATE TABLE feedback (
    id serial PRIMARY KEY,
    content_id integer NOT NULL REFERENCES contents(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    rating integer NOT NULL CHECK (rating BETWEEN 1 AND 5),
    message text,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX feedback_content_idx ON feedback(content_id, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
