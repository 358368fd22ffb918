import { DesignerMessages as M, ContentPerm as P } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHOR_PERMISSIONS, authoringWorld } from '../../test/content-clients';
import { buildH5p } from '../../test/content-factories';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { samplePages, uid } from './design-fixtures';

/** Publishing a design (issue 17): content, lesson, topics and quiz the player plays unchanged. */
let h: Harness;
let w: Awaited<ReturnType<typeof authoringWorld>>;
beforeAll(async () => {
  h = await createHarness();
  w = await authoringWorld(h);
});
afterAll(async () => h?.close());

async function newDesign(pages: unknown[] = samplePages(), title = `Design ${uid()}`) {
  const res = await w.author('POST', '/api/designs', { title, pages });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().data as { id: number; revision: number };
}

async function structureOf(contentId: number) {
  const lessons = await h.db
    .selectFrom('content_lessons as cl')
    .innerJoin('lesson_topics as lt', 'lt.lesson_id', 'cl.lesson_id')
    .innerJoin('topics as t', 't.id', 'lt.topic_id')
    .select(['cl.lesson_id', 't.id', 't.title', 't.body_html', 't.hidden', 't.h5p_id'])
    .where('cl.content_id', '=', contentId)
    .orderBy('lt.position')
    .execute();
  const quizzes = await h.db
    .selectFrom('content_quizzes as cq')
    .innerJoin('quizzes as q', 'q.id', 'cq.quiz_id')
    .select(['q.id', 'q.pass_mark'])
    .where('cq.content_id', '=', contentId)
    .execute();
  const questions = quizzes[0]
    ? await h.db
        .selectFrom('questions')
        .select(['id', 'text'])
        .where('quiz_id', '=', quizzes[0].id)
        .orderBy('position')
        .execute()
    : [];
  return { topics: lessons, quizzes, questions };
}

describe('POST /api/designs/{id}/publish', () => {
  it('answers 422, 403 and 404 before writing anything', async () => {
    const design = await newDesign();
    const url = `/api/designs/${design.id}/publish`;
    expect((await w.author('POST', url, { pass_mark: 101 })).statusCode).toBe(422);
    expect((await w.author('POST', url, {})).statusCode).toBe(422); // no course named
    expect((await w.learner('POST', url, { new_course_title: 'X' })).statusCode).toBe(403);
    expect((await w.outsider('POST', url, { new_course_title: 'X' })).statusCode).toBe(404);
    const theirCourse = await buildCourse(h.db, (await buildEntity(h.db)).id);
    const foreign = await w.author('POST', url, { course_id: theirCourse.id });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors).toHaveProperty('course_id');
    // A new course needs add courses (27): the content creator alone may not make one.
    const noCourses = await clientFor(
      h.app,
      h.db,
      (await buildUser(h.db, { entityId: w.org.id, permissions: [P.contentCreator, P.addContent] })).id,
    );
    expect((await noCourses('POST', url, { new_course_title: 'X' })).statusCode).toBe(403);
    const empty = await newDesign([{ id: uid(), title: 'Empty', blocks: [] }]);
    const nothing = await w.author('POST', `/api/designs/${empty.id}/publish`, { new_course_title: 'X' });
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().message).toBe(M.nothingToPublish);
    const row = await h.db
      .selectFrom('designs')
      .selectAll()
      .where('id', '=', design.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ content_id: null, published_revision: null });
  });

  it('makes content in a new course that a learner plays to a passed result; re-publishing updates it', async () => {
    const h5p = await buildH5p(h.db, w.org.id);
    const pages = samplePages();
    pages.push({ id: uid(), title: 'Try it', blocks: [{ id: uid(), type: 'h5p', h5p_id: h5p.id }] } as never);
    const design = await newDesign(pages, 'Moving and handling basics');
    const res = await w.author('POST', `/api/designs/${design.id}/publish`, {
      new_course_title: 'Moving and handling',
      pass_mark: 100,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(M.published);
    const published = res.json().data;
    expect(published).toMatchObject({ state: 'published', content: { title: 'Moving and handling basics' } });
    const contentId = published.content.id as number;
    const content = await h.db
      .selectFrom('contents')
      .selectAll()
      .where('id', '=', contentId)
      .executeTakeFirstOrThrow();
    expect(content).toMatchObject({ type: 'elearning', entity_id: w.org.id, published: true });
    const course = await h.db
      .selectFrom('courses')
      .selectAll()
      .where('id', '=', content.course_id)
      .executeTakeFirstOrThrow();
    expect(course).toMatchObject({ title: 'Moving and handling', entity_id: w.org.id, kind: 'course' });
    const first = await structureOf(contentId);
    expect(first.topics.map((t) => t.title)).toEqual(['Why it matters', 'Check', 'Try it']);
    expect(first.topics[2]?.h5p_id).toBe(h5p.id);
    expect(first.topics[1]?.body_html).toContain('<details>');
    expect(first.quizzes).toEqual([{ id: expect.any(Number), pass_mark: 100 }]);
    expect(first.questions.map((q) => q.text)).toEqual(['Who plans a move?']);

    // A learner of the organisation plays it: every topic, then the quiz, to a passed result.
    const learner = await buildUser(h.db, { entityId: w.org.id, permissions: [] });
    const as = await clientFor(h.app, h.db, learner.id);
    const started = await as('POST', `/api/users/${learner.id}/attempts`, { content_id: contentId });
    expect(started.statusCode, started.body).toBe(201);
    let attempt = started.json().data;
    const structure = (await as('GET', `/api/attempts/${attempt.id}/structure`)).json().data;
    expect(structure.lessons[0].topics.map((t: { title: string }) => t.title)).toEqual([
      'Why it matters',
      'Check',
      'Try it',
    ]);
    const sheet = (
      await as('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: first.quizzes[0]?.id })
    ).json().data;
    const question = sheet.questions[0];
    const right = question.answers.find((a: { text: string }) => a.text === 'Everyone');
    const scored = await as('POST', '/api/quizzes/take', {
      quiz_attempt_id: sheet.quiz_attempt_id,
      responses: { [String(question.id)]: [right.id] },
    });
    expect(scored.json().data).toMatchObject({ score: 100, passed: true });
    attempt = scored.json().data.attempt;
    for (const topic of structure.lessons[0].topics) {
      const step = await as('PATCH', `/api/attempts/${attempt.id}`, {
        version: attempt.version,
        completed_topic_id: topic.id,
      });
      expect(step.statusCode, step.body).toBe(200);
      attempt = step.json().data;
    }
    expect(attempt.status).toBe('passed');
    const result = await h.db
      .selectFrom('results')
      .selectAll()
      .where('user_id', '=', learner.id)
      .executeTakeFirstOrThrow();
    expect(result).toMatchObject({
      type: 'elearning',
      passed: true,
      content_id: contentId,
      course_id: course.id,
    });

    // Saved since publishing: "changed"; re-publishing updates the same content, keeping ids by position.
    const changedPages = [
      { ...pages[1], title: 'Check again' },
      {
        id: uid(),
        title: 'Quiz page',
        blocks: [
          { id: uid(), type: 'question', question: 'First?', options: ['Yes', 'No'], correct: 1 },
          { id: uid(), type: 'question', question: 'Second?', options: ['A', 'B', 'C'], correct: 2 },
        ],
      },
    ];
    const saved = await w.author('PATCH', `/api/designs/${design.id}`, { revision: 1, pages: changedPages });
    expect(saved.json().data.state).toBe('changed');
    const again = await w.author('POST', `/api/designs/${design.id}/publish`, { pass_mark: 50 });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ state: 'published', content: { id: contentId } });
    const second = await structureOf(contentId);
    expect(second.topics.map((t) => [t.id, t.title, t.hidden])).toEqual([
      [first.topics[0]?.id, 'Check again', false],
      [first.topics[1]?.id, 'Quiz page', false],
      [first.topics[2]?.id, 'Try it', true], // soft-removed: attempts naming it stay valid
    ]);
    expect(second.topics[0]?.h5p_id).toBeNull();
    expect(second.quizzes).toEqual([{ id: first.quizzes[0]?.id, pass_mark: 50 }]);
    // Page 'Check' keeps its question; the new page adds two.
    expect(second.questions.map((q) => q.text)).toEqual(['Who plans a move?', 'First?', 'Second?']);
    expect(second.questions[0]?.id).toBe(first.questions[0]?.id);
    const contents = await h.db
      .selectFrom('contents')
      .select('id')
      .where('course_id', '=', course.id)
      .execute();
    expect(contents).toHaveLength(1);
  });

  it('publishes into an existing course; updating published content needs edit content (30)', async () => {
    const course = await buildCourse(h.db, w.org.id);
    const design = await newDesign();
    // An author without 30 may publish the first time (it adds content) but not update it afterwards.
    const adder = await clientFor(
      h.app,
      h.db,
      (
        await buildUser(h.db, {
          entityId: w.org.id,
          permissions: AUTHOR_PERMISSIONS.filter((p) => p !== P.editContent),
        })
      ).id,
    );
    const first = await adder('POST', `/api/designs/${design.id}/publish`, { course_id: course.id });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.content.course_id).toBe(course.id);
    expect((await adder('POST', `/api/designs/${design.id}/publish`, {})).statusCode).toBe(403);
    expect((await w.author('POST', `/api/designs/${design.id}/publish`, {})).statusCode).toBe(200);
  });

  it('a question-free re-publish detaches the quiz; a topic body never carries script from a text block', async () => {
    const design = await newDesign([
      {
        id: uid(),
        title: 'Only page',
        blocks: [
          {
            id: uid(),
            type: 'text',
            html: '<p>Safe</p><script>alert(1)</script><img src="x" onerror="alert(2)">',
          },
          { id: uid(), type: 'question', question: 'Q?', options: ['a', 'b'], correct: 0 },
        ],
      },
    ]);
    const res = await w.author('POST', `/api/designs/${design.id}/publish`, {
      new_course_title: 'Safe course',
    });
    const contentId = res.json().data.content.id;
    // Even HTML written around the save (straight into the table) is sanitised again when published.
    await h.db
      .updateTable('designs')
      .set({
        pages: JSON.stringify([
          {
            id: 'p1',
            title: 'Only page',
            blocks: [
              { id: 'x1', type: 'text', html: '<p onmouseover="steal()">Hi</p><script>bad()</script>' },
            ],
          },
        ]),
        revision: 5,
      })
      .where('id', '=', design.id)
      .execute();
    expect((await w.author('POST', `/api/designs/${design.id}/publish`, {})).statusCode).toBe(200);
    const after = await structureOf(contentId);
    expect(after.topics[0]?.body_html).toBe('<p>Hi</p>');
    expect(after.quizzes).toEqual([]);
  });
});
