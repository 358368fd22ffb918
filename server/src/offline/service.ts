import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  LearningMessages,
  OFFLINE_CONTENT_TYPES,
  type OfflineDownload,
  OfflineMessages,
  type OfflinePackage,
  type OfflineRefusal,
  type OfflineSyncOutcome,
  type SyncOfflineAttemptBody,
} from '@cc/contracts';
import type { z } from 'zod';
import { auditVia } from '../audit/record';
import { actorOf, type Ctx } from '../http/context';
import { forbidden, invalidField, notFound } from '../http/errors';
import { assertPrerequisites } from '../learning/attempts-service';
import { learnerClauses } from '../learning/learner';
import { findContentForLearner } from '../learning/queries';
import { learnerTopic, lessonsOf } from '../learning/structure';
import { lessonsWithTopics } from '../learning/structure-queries';
import { packagePrefix } from '../packages/files';
import { LAUNCH_TTL_SECONDS } from '../packages/launch';
import { PACKAGE_TYPES } from '../packages/routes';
import { launchBase, PACKAGE_RUNTIME_PATH, scormLearnerName } from '../packages/service';
import { auditEarnedResult } from '../results/audit';
import { lockLatestResults, recordResult } from '../results/service';
import { WEB_DIST } from '../web-dist';
import { type Graded, gradeElearning, gradeScorm } from './grading';
import {
  claimOfflineAttempt,
  findOfflineAttempt,
  findOwnDownload,
  h5pPackagesOf,
  insertDownload,
  insertFinishedAttempt,
  insertGradedQuizzes,
  latestPassedResult,
  offlineQuizzes,
  scormPackageOf,
  settleOfflineAttempt,
} from './queries';
import { boundDeviceTime, decideOfflineOutcome } from './rules';

/**
 * Offline learning is the learner's own: their app (a session or a device login's token). A personal access token is
 * an integration acting for someone; taking courses and sending attempts as the learner is not among what it may
 * do (403), whatever its abilities.
 */
function learnerDeviceActor(ctx: Ctx) {
  const actor = actorOf(ctx);
  if (actor.via === 'token' && actor.tokenKind === 'personal')
    throw forbidden(OfflineMessages.notForIntegrations);
  return actor;
}

type OfflineType = (typeof OFFLINE_CONTENT_TYPES)[number];
const isOfflineType = (t: string): t is OfflineType =>
  (OFFLINE_CONTENT_TYPES as readonly string[]).includes(t);

/** Only files the package route serves (packages/routes.ts PACKAGE_TYPES): the rest would 404 anyway. */
const servable = (file: string) => path.extname(file).toLowerCase() in PACKAGE_TYPES;

/** Every file of a package in the store, as paths inside the package, with its signed URL. */
async function packageFiles(ctx: Ctx, uuid: string, storageDir: string) {
  const prefix = packagePrefix(storageDir);
  const base = await launchBase(ctx, uuid);
  const keys = await ctx.storage.list(prefix);
  const files = keys
    .map((key) => key.slice(prefix.length))
    .filter((file) => file && servable(file))
    .sort()
    .map((file) => ({ path: file, url: `${base}/${file.split('/').map(encodeURIComponent).join('/')}` }));
  return { base, files };
}

/** The vendored H5P player's files (web/dist/h5p-player), which the offline H5P frame loads. */
async function h5pPlayerFiles(): Promise<string[]> {
  const root = path.join(WEB_DIST, 'h5p-player');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && servable(e.name))
    .map((e) => path.relative(WEB_DIST, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort()
    .map((file) => `${PACKAGE_RUNTIME_PATH}/${file}`);
}

async function offlinePackages(ctx: Ctx, contentId: number, type: OfflineType): Promise<OfflinePackage[]> {
  if (type === 'scorm') {
    const row = await scormPackageOf(ctx.db, contentId);
    if (!row) return [];
    const { base, files } = await packageFiles(ctx, row.uuid, row.storage_dir);
    return [
      {
        kind: 'scorm',
        uuid: row.uuid,
        h5p_id: null,
        title: row.title,
        version: row.version,
        launch_path: row.launch_path,
        mastery_score: row.mastery_score === null ? null : Number(row.mastery_score),
        items: row.items.map((item) => ({
          ...item,
          launch_url: item.launch_path === null ? null : `${base}/${item.launch_path}`,
        })),
        base_url: base,
        files,
        total_bytes: row.size_bytes,
      },
    ];
  }
  const rows = await h5pPackagesOf(ctx.db, contentId);
  return Promise.all(
    rows.map(async (row) => {
      const { base, files } = await packageFiles(ctx, row.uuid, row.storage_dir);
      return {
        kind: 'h5p' as const,
        uuid: row.uuid,
        h5p_id: row.h5p_id,
        title: row.title,
        version: row.main_library,
        launch_path: null,
        mastery_score: null,
        items: [],
        base_url: base,
        files,
        total_bytes: row.size_bytes,
      };
    }),
  );
}

/**
 * POST /offline/downloads: everything the device needs to take one content offline, for the caller only (a learner
 * takes their own learning). The content must be visible to them (404 otherwise, another organisation's too),
 * published and switched on (422), of a type that runs on the device (422), with its prerequisites passed (422).
 * Quiz questions come without their answers' correctness (graded on sync); package files come as signed,
 * short-lived URLs (packages/launch.ts), never with the caller's token. The download row's server time later bounds
 * the device's clock (rules.ts).
 */
export async function createOfflineDownload(ctx: Ctx, contentId: number): Promise<OfflineDownload> {
  const actor = learnerDeviceActor(ctx);
  const learner = { id: actor.userId, primary_entity_id: actor.primaryEntity.id };
  const content = await findContentForLearner(ctx.db, contentId, await learnerClauses(ctx, learner));
  if (!content) throw notFound();
  if (!content.takeable) throw invalidField('content_id', LearningMessages.contentUnpublished);
  const type = content.type;
  if (!isOfflineType(type)) throw invalidField('content_id', OfflineMessages.notOffline);
  // As online (POST /users/{id}/attempts): content behind unpassed prerequisites cannot be started, so not taken away.
  await assertPrerequisites(ctx, actor.userId, content.prerequisites ?? []);

  const now = ctx.clock();
  const [{ lessons, topics }, quizzes, packages] = await Promise.all([
    type === 'elearning' ? lessonsWithTopics(ctx.db, content.id) : { lessons: [], topics: [] },
    type === 'elearning' ? offlineQuizzes(ctx.db, content.id) : [],
    offlinePackages(ctx, content.id, type),
  ]);
  const runtime = [
    ...(packages.some((p) => p.kind === 'scorm') ? [`${PACKAGE_RUNTIME_PATH}/scorm-frame.js`] : []),
    ...(packages.some((p) => p.kind === 'h5p')
      ? [
          `${PACKAGE_RUNTIME_PATH}/h5p.html`,
          `${PACKAGE_RUNTIME_PATH}/h5p-frame.js`,
          ...(await h5pPlayerFiles()),
        ]
      : []),
  ];
  const download = await insertDownload(ctx.db, {
    userId: actor.userId,
    contentId: content.id,
    courseId: content.course_id,
    now,
  });
  return {
    download_id: download.id,
    downloaded_at: download.downloaded_at.toISOString(),
    files_expire_at: new Date(now.getTime() + LAUNCH_TTL_SECONDS * 1000).toISOString(),
    user_id: actor.userId,
    content: { id: content.id, title: content.title, type },
    course: { id: content.course_id, title: content.course_title },
    lessons: lessonsOf({ lessons, topics }, learnerTopic),
    quizzes,
    packages,
    runtime_files: runtime,
    learner: { id: String(actor.userId), name: scormLearnerName(actor.name) },
  };
}

type SyncBody = z.output<typeof SyncOfflineAttemptBody>;

function presentOutcome(row: {
  client_uuid: string;
  attempt_id: number | null;
  status: OfflineSyncOutcome['status'];
  score: string | number | null;
  counted: boolean;
  rule: string;
  completed_at: Date | null;
  synced_at: Date;
  refused: OfflineRefusal[];
}): OfflineSyncOutcome {
  return {
    client_uuid: row.client_uuid,
    attempt_id: row.attempt_id,
    status: row.status,
    score: row.score === null ? null : Number(row.score),
    counted: row.counted,
    rule: row.rule as OfflineSyncOutcome['rule'],
    completed_at: row.completed_at?.toISOString() ?? null,
    synced_at: row.synced_at.toISOString(),
    refused: row.refused,
  };
}

/**
 * POST /offline/attempts: one attempt a device took offline, stored exactly once. In one transaction: the claim
 * (insert ... on conflict do nothing on (user, client_uuid)) makes a resend or a racing second send answer with the
 * first outcome (created false) and write nothing; the first send grades the attempt, stores it as an attempt of its
 * own when finished (beside any attempt made online meanwhile, never over it), lets decideOfflineOutcome say whether
 * it gives the learner's result (under the (user, course) results lock, so it sees every pass committed before),
 * and records that result like an online completion (recordResult: latest_results, listeners such as pathways).
 * A step the online rules refuse (grading.ts: an "I have read" on a topic whose H5P item must be passed…) is not
 * applied: it is stored and answered with its reason in `refused`, and the rest of the attempt is judged as usual.
 * The download must be the caller's (404) and for this content (422).
 */
export async function syncOfflineAttempt(
  ctx: Ctx,
  body: SyncBody,
): Promise<{ outcome: OfflineSyncOutcome; created: boolean }> {
  const actor = learnerDeviceActor(ctx);
  const download = await findOwnDownload(ctx.db, body.download_id, actor.userId);
  // Another user's download (another organisation's too) answers like a missing one.
  if (!download) throw notFound();
  if (download.content_id !== body.content_id)
    throw invalidField('content_id', OfflineMessages.downloadOtherContent);

  const content = await ctx.db
    .selectFrom('contents')
    .select(['id', 'type', 'course_id', 'title'])
    .where('id', '=', download.content_id)
    .executeTakeFirst();
  if (!content) throw notFound();

  const created = await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock();
    const claimed = await claimOfflineAttempt(trx, {
      userId: actor.userId,
      clientUuid: body.client_uuid,
      downloadId: download.id,
      contentId: content.id,
      courseId: content.course_id,
      payload: body as unknown as Record<string, unknown>,
      deviceStartedAt: new Date(body.started_at),
      deviceCompletedAt: body.completed_at === null ? null : new Date(body.completed_at),
      now,
    });
    if (claimed === undefined) return false;

    const completedAt =
      body.completed_at === null
        ? null
        : boundDeviceTime(new Date(body.completed_at), download.downloaded_at, now);
    const graded: Graded =
      content.type === 'scorm'
        ? await gradeScorm(trx, content.id, body)
        : await gradeElearning(trx, content.id, body, completedAt ?? now);
    const finished = graded.status !== 'incomplete' && completedAt !== null;

    let attemptId: number | null = null;
    let decision = decideOfflineOutcome({
      offline: { status: graded.status, completedAt },
      recordedPass: null,
    });
    if (graded.status !== 'incomplete' && completedAt !== null) {
      await lockLatestResults(trx, [{ userId: actor.userId, courseId: content.course_id }]);
      const recorded = await latestPassedResult(trx, actor.userId, content.course_id);
      decision = decideOfflineOutcome({
        offline: { status: graded.status, completedAt },
        recordedPass: recorded ? { completedAt: recorded.completed_at } : null,
        failIsResult: content.type === 'scorm',
      });
      attemptId = await insertFinishedAttempt(trx, {
        userId: actor.userId,
        contentId: content.id,
        courseId: content.course_id,
        status: graded.status,
        score: graded.score,
        progress: graded.progress,
        cmi: graded.cmi,
        startedAt: boundDeviceTime(new Date(body.started_at), download.downloaded_at, completedAt),
        completedAt,
        now,
      });
      await insertGradedQuizzes(trx, attemptId, graded.quizzes);
      if (decision.counts) {
        const result = await recordResult(
          trx,
          {
            userId: actor.userId,
            entityId: actor.primaryEntity.id,
            courseId: content.course_id,
            contentId: content.id,
            type: content.type === 'scorm' ? 'scorm' : 'elearning',
            passed: graded.status !== 'failed',
            score: graded.score,
            completedAt,
            attemptId,
            createdBy: actor.userId,
          },
          now,
        );
        // The audit trail (issue 35 §3): the learner earned it offline on a device, recorded when the attempt synced.
        await auditEarnedResult(
          trx,
          ctx,
          result.id,
          auditVia({ how: 'offline', label: content.title, ref: String(attemptId) }),
        );
      }
    }
    await settleOfflineAttempt(trx, claimed, {
      attemptId,
      status: graded.status,
      score: graded.status === 'incomplete' ? null : graded.score,
      completedAt: finished ? completedAt : null,
      counted: decision.counts,
      rule: decision.rule,
      refused: graded.refused,
    });
    return true;
  });
  const row = await findOfflineAttempt(ctx.db, actor.userId, body.client_uuid);
  if (!row) throw notFound();
  return { outcome: presentOutcome(row), created };
}
