import type { Trx } from '../results/queries';

/**
 * Demo data for the entity content screens (issue 4: entity courses, course categories, certificate branding): a few
 * published platform catalogue courses (owner null), each with one short e-learning content, made available to
 * Meadowbrook Care Group (one switched off there), Meadowbrook's own course categories, and its certificate branding.
 */
const CATALOGUE = [
  {
    title: 'Dementia Awareness',
    short: 'Dementia',
    enabled: true,
    body: '<p>Dementia is a group of symptoms affecting memory, thinking and social abilities.</p><p>Speak calmly, use short sentences and give the person time to answer.</p>',
  },
  {
    title: 'Information Governance',
    short: 'IG',
    enabled: true,
    body: '<p>Keep personal information confidential, accurate and secure.</p><p>Share it only with those who need it to provide care.</p>',
  },
  {
    title: 'Equality and Diversity',
    short: 'E&D',
    enabled: false,
    body: '<p>Treat everyone fairly and with respect, whatever their background, beliefs or abilities.</p>',
  },
] as const;

export async function seedCatalogue(trx: Trx, o: { groupId: number; now: Date }): Promise<void> {
  await trx
    .insertInto('course_categories')
    .values([
      { entity_id: o.groupId, name: 'Mandatory training' },
      { entity_id: o.groupId, name: 'Clinical skills' },
    ])
    .execute();

  for (const item of CATALOGUE) {
    const course = await trx
      .insertInto('courses')
      .values({ entity_id: null, title: item.title, short_title: item.short, published: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const content = await trx
      .insertInto('contents')
      .values({
        entity_id: null,
        course_id: course.id,
        type: 'elearning',
        title: `${item.title} e-learning`,
        published: true,
        estimated_duration: 20,
        prerequisites: '[]',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const lesson = await trx
      .insertInto('lessons')
      .values({ entity_id: null, title: item.title })
      .returning('id')
      .executeTakeFirstOrThrow();
    const topic = await trx
      .insertInto('topics')
      .values({ entity_id: null, title: 'Key points', body_html: item.body, resources: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('content_lessons')
      .values({ content_id: content.id, lesson_id: lesson.id })
      .execute();
    await trx.insertInto('lesson_topics').values({ lesson_id: lesson.id, topic_id: topic.id }).execute();
    await trx
      .insertInto('entity_courses')
      .values({ entity_id: o.groupId, course_id: course.id, enabled: item.enabled })
      .execute();
    await trx
      .insertInto('entity_content')
      .values({
        entity_id: o.groupId,
        content_id: content.id,
        enabled: item.enabled,
        admin_only_override: null,
      })
      .execute();
  }

  await trx
    .insertInto('certificate_branding')
    .values({
      entity_id: o.groupId,
      title: 'Certificate of Achievement',
      signatory_name: 'Helen Carter',
      signatory_role: 'Head of Care Quality',
      accent_colour: '#0f766e',
      logo_file_id: null,
      updated_at: o.now,
    })
    .execute();
}
