import { sql } from 'kysely';
import { cellStatus, type LatestResultFacts } from '../compliance/rules';
import { afterResultRecorded, type Trx } from '../results/service';
import { emitWebhookEvent } from './events';
import { subscribedEndpointIds } from './queries';

/**
 * result.recorded and compliance.status_changed (issue 18), from results/service.ts's afterResultRecorded hook:
 * inside recordResult's transaction, after latest_results moved, so the events commit with the result.
 * bootstrap.ts imports this module so every process registers it.
 */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

async function onResultRecorded(trx: Trx, r: { userId: number; courseId: number }, now: Date) {
  // The result just written is the newest row of the pair (its id is the highest).
  const result = await trx
    .selectFrom('results as res')
    .innerJoin('users as u', 'u.id', 'res.user_id')
    .innerJoin('courses as c', 'c.id', 'res.course_id')
    .select([
      'res.id',
      'res.uuid',
      'res.entity_id',
      'res.type',
      'res.passed',
      'res.status',
      'res.completed_at',
      'res.expires_at',
      'u.uuid as user_uuid',
      'u.primary_entity_id',
      'u.role_id',
      'c.uuid as course_uuid',
      'c.title as course_title',
    ])
    .where('res.user_id', '=', r.userId)
    .where('res.course_id', '=', r.courseId)
    .orderBy('res.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!result) return;
  const person = {
    user_id: r.userId,
    user_uuid: result.user_uuid,
    course_id: r.courseId,
    course_uuid: result.course_uuid,
  };
  await emitWebhookEvent(
    trx,
    {
      entityId: result.entity_id,
      type: 'result.recorded',
      data: {
        ...person,
        course_title: result.course_title,
        result_id: result.id,
        result_uuid: result.uuid,
        type: result.type,
        status: result.passed ? 'passed' : 'failed',
        approval: result.status,
        completed_at: iso(result.completed_at),
        expires_at: iso(result.expires_at),
      },
    },
    now,
  );
  await complianceChange(trx, r, result, person, now);
}

/** compliance.status_changed when the course is one the person's job role requires and the cell status moved. */
async function complianceChange(
  trx: Trx,
  r: { userId: number; courseId: number },
  result: { id: number; primary_entity_id: number; role_id: number | null },
  person: Record<string, unknown>,
  now: Date,
) {
  if (result.role_id === null) return;
  const entityId = result.primary_entity_id;
  // Cheap exit first: most organisations have no endpoint for it.
  if (!(await subscribedEndpointIds(trx, entityId, 'compliance.status_changed')).length) return;
  const rule = await trx
    .selectFrom('effective_compliance_rules as ecr')
    .innerJoin('entities as e', 'e.id', 'ecr.entity_id')
    .select(['ecr.type as rule_type', 'e.expiry_warning'])
    .where('ecr.entity_id', '=', entityId)
    .where('ecr.role_id', '=', result.role_id)
    .where('ecr.course_id', '=', r.courseId)
    .executeTakeFirst();
  if (!rule) return;
  const facts = (
    row:
      | {
          passed: boolean;
          type: string;
          expires_at: Date | null;
          then_passed?: boolean | null;
          then_expires_at?: Date | null;
          then_exempt?: boolean;
        }
      | undefined,
  ) =>
    row
      ? ({
          passed: row.passed,
          type: row.type,
          expiresAt: row.expires_at,
          // An exemption whose end has come: what counts after it (latest_results then_*, migration 063).
          afterEnd:
            row.then_passed === null || row.then_passed === undefined
              ? null
              : {
                  passed: row.then_passed,
                  type: row.then_exempt ? 'exempt' : 'historical',
                  expiresAt: row.then_expires_at ?? null,
                },
        } satisfies LatestResultFacts)
      : null;
  // Before: what latest_results held without this result (the same order as results/queries.ts pickLatestResult).
  const [previous, latest] = await Promise.all([
    trx
      .selectFrom('results')
      .select(['passed', 'type', 'expires_at'])
      .where('user_id', '=', r.userId)
      .where('course_id', '=', r.courseId)
      .where('status', '=', 'approved')
      .where('deleted_at', 'is', null)
      .where('id', '<>', result.id)
      // An exemption ended by now counts for nothing (latest_results_refresh, migration 063).
      .orderBy(sql`coalesce(type = 'exempt' AND expires_at <= ${now}, false)`)
      .orderBy('passed', 'desc')
      .orderBy('completed_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    trx
      .selectFrom('latest_results')
      .select(['passed', 'type', 'expires_at', 'then_passed', 'then_expires_at', 'then_exempt'])
      .where('user_id', '=', r.userId)
      .where('course_id', '=', r.courseId)
      .executeTakeFirst(),
  ]);
  const before = cellStatus(facts(previous), now, rule.expiry_warning);
  const after = cellStatus(facts(latest), now, rule.expiry_warning);
  if (before === after) return;
  await emitWebhookEvent(
    trx,
    {
      entityId,
      type: 'compliance.status_changed',
      data: {
        ...person,
        requirement: rule.rule_type,
        before,
        after,
        expires_at: iso(latest?.expires_at ?? null),
        changed_at: now.toISOString(),
      },
    },
    now,
  );
}

afterResultRecorded(onResultRecorded);
