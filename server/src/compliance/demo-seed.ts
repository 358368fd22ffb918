import { sql } from 'kysely';
import type { ComplianceType } from '../db/schema';
import type { Trx } from '../results/queries';
import { redateResultsUnderRule } from './queries';
import { expiryOf, isNewStarter } from './rules';

/**
 * Demo compliance (issue 5 items 2, 3): Meadowbrook Care Group's own mandatory training courses, the compliance rows
 * of its job roles (inherited by its three homes; Willow Court overrides Fire safety for care assistants to 6
 * months), and results for its staff with a realistic mix: most in date, some expiring, some expired, some missing,
 * a few exemptions, new starters mostly not started yet. Results are bulk INSERTs into results + latest_results,
 * kept consistent with the engine (expires_at from the rule's validity, result_count 1).
 *
 * Casey Lee (learner@demo.test) and a few Oakfield House care assistants also passed Information Governance, which
 * no care assistant rule requires yet: the browser test adds it to the role and re-dates those results.
 */
const COURSES = [
  'Fire Safety',
  'Moving and Handling',
  'Safeguarding Adults',
  'Infection Control',
  'Food Hygiene',
  'Medication Administration',
  'Basic Life Support',
  'Health and Safety',
] as const;
type Course = (typeof COURSES)[number] | 'Dementia Awareness' | 'Information Governance';
type Row = [Course, ComplianceType, number | null];

const CARE: Row[] = [
  ['Fire Safety', 'primary', 12],
  ['Moving and Handling', 'primary', 12],
  ['Safeguarding Adults', 'primary', 36],
  ['Infection Control', 'primary', 12],
  ['Food Hygiene', 'secondary', 36],
  ['Dementia Awareness', 'secondary', 24],
];
const RULES: Record<string, Row[]> = {
  'Care Assistant': CARE,
  'Senior Carer': [...CARE, ['Medication Administration', 'primary', 12]],
  Nurse: [
    ['Fire Safety', 'primary', 12],
    ['Moving and Handling', 'primary', 12],
    ['Safeguarding Adults', 'primary', 36],
    ['Infection Control', 'primary', 12],
    ['Medication Administration', 'primary', 12],
    ['Basic Life Support', 'primary', 12],
  ],
  'Home Manager': [
    ['Fire Safety', 'primary', 12],
    ['Safeguarding Adults', 'primary', 36],
    ['Health and Safety', 'primary', 36],
    ['Information Governance', 'secondary', 24],
  ],
  'Deputy Manager': [
    ['Fire Safety', 'primary', 12],
    ['Safeguarding Adults', 'primary', 36],
    ['Health and Safety', 'primary', 36],
    ['Information Governance', 'secondary', 24],
  ],
  'Activities Coordinator': [
    ['Fire Safety', 'primary', 12],
    ['Safeguarding Adults', 'primary', 36],
    ['Infection Control', 'primary', 12],
  ],
  Housekeeper: [
    ['Fire Safety', 'primary', 12],
    ['Infection Control', 'primary', 12],
    ['Health and Safety', 'secondary', null],
  ],
  Cook: [
    ['Fire Safety', 'primary', 12],
    ['Food Hygiene', 'primary', 36],
    ['Infection Control', 'primary', 12],
  ],
  'Maintenance Officer': [
    ['Fire Safety', 'primary', 12],
    ['Health and Safety', 'primary', 36],
  ],
  Administrator: [
    ['Fire Safety', 'primary', 12],
    ['Information Governance', 'primary', 24],
  ],
};

const DAY = 86_400_000;

function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function seedComplianceDemo(
  trx: Trx,
  o: { groupId: number; roleIds: Record<string, number>; now: Date },
): Promise<void> {
  const { now } = o;
  const courseIds: Record<string, number> = {};
  for (const title of COURSES) {
    const course = await trx
      .insertInto('courses')
      .values({ entity_id: o.groupId, title, short_title: null, published: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    courseIds[title] = course.id;
    const content = await trx
      .insertInto('contents')
      .values({
        entity_id: o.groupId,
        course_id: course.id,
        type: 'elearning',
        title: `${title} e-learning`,
        published: true,
        estimated_duration: 30,
        prerequisites: '[]',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const lesson = await trx
      .insertInto('lessons')
      .values({ entity_id: o.groupId, title })
      .returning('id')
      .executeTakeFirstOrThrow();
    const topic = await trx
      .insertInto('topics')
      .values({
        entity_id: o.groupId,
        title: 'Key points',
        body_html: `<p>The key points of ${title.toLowerCase()} for care staff, with the group's policy.</p>`,
        resources: '[]',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('content_lessons')
      .values({ content_id: content.id, lesson_id: lesson.id })
      .execute();
    await trx.insertInto('lesson_topics').values({ lesson_id: lesson.id, topic_id: topic.id }).execute();
  }
  // Platform catalogue courses made available to the group (demo/catalogue.ts).
  const catalogue = await trx
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('title', 'in', ['Dementia Awareness', 'Information Governance'])
    .where('entity_id', 'is', null)
    .execute();
  for (const c of catalogue) courseIds[c.title] = c.id;

  const rules = Object.entries(RULES).flatMap(([role, rows]) =>
    rows
      .filter(([course]) => courseIds[course] && o.roleIds[role])
      .map(([course, type, validity]) => ({
        entity_id: o.groupId,
        role_id: o.roleIds[role] as number,
        course_id: courseIds[course] as number,
        type,
        validity_months: validity,
      })),
  );
  await trx.insertInto('compliance_rules').values(rules).execute();
  const willow = await trx
    .selectFrom('entities')
    .select('id')
    .where('slug', '=', 'willow-court')
    .executeTakeFirst();
  const careAssistant = o.roleIds['Care Assistant'];
  if (willow && careAssistant && courseIds['Fire Safety'])
    await trx
      .insertInto('compliance_rules')
      .values({
        entity_id: willow.id,
        role_id: careAssistant,
        course_id: courseIds['Fire Safety'],
        type: 'primary',
        validity_months: 6,
      })
      .execute();

  // What each user must do: the effective rows of their role in their primary entity (the engine's view).
  const required = await trx
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .innerJoin('effective_compliance_rules as ecr', (j) =>
      j.onRef('ecr.entity_id', '=', 'u.primary_entity_id').onRef('ecr.role_id', '=', 'u.role_id'),
    )
    .leftJoin('latest_results as lr', (j) =>
      j.onRef('lr.user_id', '=', 'u.id').onRef('lr.course_id', '=', 'ecr.course_id'),
    )
    .select([
      'u.id as user_id',
      'u.email',
      'u.primary_entity_id',
      'u.start_date',
      'u.created_at',
      'e.starter_period',
      'ecr.course_id',
      'ecr.validity_months',
    ])
    .where('lr.user_id', 'is', null)
    .where(
      sql<boolean>`u.primary_entity_id IN (SELECT id FROM entities WHERE id = ${o.groupId} OR parent_id = ${o.groupId})`,
    )
    .orderBy('u.id')
    .orderBy('ecr.course_id')
    .execute();

  const rand = random(2024);
  const results: {
    user_id: number;
    entity_id: number;
    course_id: number;
    type: 'elearning' | 'historical' | 'face2face' | 'exempt';
    passed: boolean;
    completed_at: Date;
    expires_at: Date | null;
  }[] = [];
  for (const r of required) {
    const started = new Date(r.start_date ? `${r.start_date}T00:00:00Z` : r.created_at);
    const starter = isNewStarter(started, now, r.starter_period);
    const roll = rand();
    if (starter ? roll < 0.55 : roll < 0.08) continue; // missing
    const months = r.validity_months;
    const span = (months ?? 36) * 30;
    let daysAgo: number;
    let type: 'elearning' | 'historical' | 'face2face' | 'exempt' = rand() < 0.6 ? 'elearning' : 'face2face';
    if (!starter && roll > 0.97) type = 'exempt';
    if (starter) daysAgo = Math.floor(rand() * Math.max(1, (now.getTime() - started.getTime()) / DAY));
    else if (roll < 0.18 && months)
      daysAgo = span + 5 + Math.floor(rand() * 120); // expired
    else if (roll < 0.26 && months)
      daysAgo = span - 1 - Math.floor(rand() * 25); // expiring soon
    else daysAgo = 20 + Math.floor(rand() * Math.max(1, span - 80)); // in date
    const completed = new Date(now.getTime() - daysAgo * DAY);
    completed.setUTCHours(9, 0, 0, 0);
    // A new starter's pass of today, seeded before 09:00: never dated after the seed's clock.
    if (completed > now) completed.setTime(now.getTime());
    if (type !== 'exempt' && rand() < 0.15) type = 'historical';
    results.push({
      user_id: r.user_id,
      entity_id: r.primary_entity_id,
      course_id: r.course_id,
      type,
      passed: true,
      completed_at: completed,
      expires_at: type === 'exempt' ? null : expiryOf(completed, months),
    });
  }

  // Information Governance passes at Oakfield House that no care assistant rule covers yet (no expiry).
  const ig = courseIds['Information Governance'];
  if (ig && careAssistant) {
    const oakfield = await trx
      .selectFrom('users as u')
      .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
      .select(['u.id', 'u.email', 'u.primary_entity_id'])
      .where('e.slug', '=', 'oakfield-house')
      .where('u.role_id', '=', careAssistant)
      .orderBy('u.id')
      .limit(6)
      .execute();
    oakfield.forEach((u, i) => {
      const completed = new Date(now.getTime() - (100 + i * 17) * DAY);
      completed.setUTCHours(9, 0, 0, 0);
      results.push({
        user_id: u.id,
        entity_id: u.primary_entity_id,
        course_id: ig,
        type: 'elearning',
        passed: true,
        completed_at: completed,
        expires_at: null,
      });
    });
  }

  for (let i = 0; i < results.length; i += 500) {
    const chunk = results.slice(i, i + 500);
    const ids = await trx
      .insertInto('results')
      .values(
        chunk.map((r) => ({
          ...r,
          content_id: null,
          score: r.type === 'elearning' ? 80 + Math.floor(rand() * 21) : null,
          attempt_id: null,
          created_by: null,
          created_at: r.completed_at,
          updated_at: r.completed_at,
          deleted_at: null,
          notes: r.type === 'exempt' ? 'Holds an equivalent qualification.' : null,
        })),
      )
      .returning(['id', 'user_id', 'course_id'])
      .execute();
    await trx
      .insertInto('latest_results')
      .values(
        ids.map((row, j) => {
          const r = chunk[j] as (typeof chunk)[number];
          return {
            user_id: row.user_id,
            course_id: row.course_id,
            result_id: row.id,
            passed: r.passed,
            completed_at: r.completed_at,
            expires_at: r.expires_at,
            type: r.type,
            result_count: 1,
            updated_at: now,
          };
        }),
      )
      .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
      .execute();
  }

  // Results recorded before these rows existed (demo/ results) get the rules' validity too.
  const stored = await trx
    .selectFrom('compliance_rules')
    .select(['id', 'course_id', 'validity_months'])
    .execute();
  for (const rule of stored) await redateResultsUnderRule(trx, rule, now);
}
