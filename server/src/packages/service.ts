import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { ContentPerm } from '@cc/contracts';
import { sql } from 'kysely';
import { visibleBlockOr404 } from '../content/blocks';
import { visibleContent } from '../content/service';
import { assertCanChange } from '../courses/visibility';
import { actorOf, authorize, type Ctx } from '../http/context';
import { invalidField, notFound } from '../http/errors';
import { findAttempt } from '../learning/queries';
import { packagePrefix, removePackageFiles } from './files';
import { signLaunch, verifyLaunch } from './launch';
import { type PackageLimits, packageLimits } from './limits';
import { type ReadText, readH5pManifest, readScormManifest, type ScormItem } from './manifest';
import { extractZip, FIELD } from './zip';

/**
 * SCORM and H5P packages (issue 4 items 2 and 5): upload (permission 30 on content / H5P items in the caller's
 * scope), safe extraction into the store under packages/<uuid>/ (ctx.storage: DATA_DIR/files or the S3 bucket,
 * issue 12 §4), what the players need (signed launch URLs, launch.ts), and which folder a launch token opens for the
 * files served at /packages/… (routes.ts).
 */
const P = ContentPerm;

/** Where an upload is received before extraction: local to this process, never shared. */
const scratchDir = (ctx: Pick<Ctx, 'config'>) => path.join(ctx.config.dataDir, 'tmp');
/** A manifest is read whole to parse it: one bigger than this is refused rather than held in memory. */
const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The upload as the route received it: written to `file`, `truncated` when it went over the size limit. */
export interface ReceivedUpload {
  filename: string;
  size: number;
  truncated: boolean;
}
export type Receive = (file: string, maxBytes: number) => Promise<ReceivedUpload | null>;

/**
 * Receives the upload into a temporary local file (a zip is read from its end), extracts it entry by entry into the
 * store under a fresh prefix, and reads its manifest from there. The temporary file goes whatever happens; the
 * prefix goes when anything fails.
 */
async function receiveAndExtract<T>(
  ctx: Ctx,
  receive: Receive,
  read: (text: ReadText, files: Set<string>) => Promise<T>,
): Promise<{ uuid: string; size: number; manifest: T }> {
  const limits: PackageLimits = packageLimits();
  const scratch = scratchDir(ctx);
  await mkdir(scratch, { recursive: true });
  const uuid = randomUUID();
  const tmp = path.join(scratch, `.upload-${uuid}`);
  const prefix = packagePrefix(uuid);
  try {
    const upload = await receive(tmp, limits.maxBytes);
    if (!upload || upload.size === 0) throw invalidField(FIELD, 'The package field is required.');
    if (upload.truncated || upload.size > limits.maxBytes)
      throw invalidField(
        FIELD,
        `The package may not be greater than ${Math.floor(limits.maxBytes / 1024)} kilobytes.`,
      );
    const extracted = await extractZip(tmp, ctx.storage, prefix, limits);
    const manifest = await read((name) => readText(ctx, prefix + name), extracted.files);
    return { uuid, size: upload.size, manifest };
  } catch (error) {
    await ctx.storage
      .removeAll(prefix)
      .catch((err) => ctx.log.warn({ err }, 'could not remove a failed package'));
    throw error;
  } finally {
    await rm(tmp, { force: true });
  }
}

async function readText(ctx: Ctx, key: string): Promise<string> {
  const found = await ctx.storage.head(key);
  if (found && found.size > MANIFEST_MAX_BYTES)
    throw invalidField(FIELD, `The package's ${key.split('/').slice(2).join('/')} is too large to read.`);
  const bytes = await ctx.storage.get(key);
  if (!bytes) throw new Error(`${key} vanished from the store during the upload`);
  return bytes.toString('utf8');
}

/**
 * Where the files of package `uuid` are served for the caller: the signed launch path (launch.ts), on
 * PACKAGE_ORIGIN when one is configured, else a path on the server's own host.
 */
export async function launchBase(ctx: Ctx, uuid: string): Promise<string> {
  const token = await signLaunch(ctx, uuid, actorOf(ctx).userId);
  return `${ctx.config.packageOrigin ?? ''}/packages/${token}/${uuid}`;
}

/**
 * How the players frame package content: null when it runs in an opaque sandboxed origin (postMessage from it
 * comes from origin "null"), else the package origin its messages come from.
 */
const packageOriginOf = (ctx: Ctx) => ctx.config.packageOrigin ?? null;

/** An item as the player needs it: its launch URL beside the manifest's data. */
function presentItem(base: string, item: ScormItem) {
  return {
    ...item,
    launch_url: item.launch_path === null ? null : `${base}/${item.launch_path}`,
  };
}

export async function presentScorm(
  ctx: Ctx,
  row: {
    uuid: string;
    version: '1.2' | '2004';
    title: string;
    launch_path: string;
    mastery_score: string | number | null;
    size_bytes: number;
    created_at: Date;
    content_id: number;
    items: ScormItem[];
  },
) {
  const base = await launchBase(ctx, row.uuid);
  return {
    uuid: row.uuid,
    content_id: row.content_id,
    version: row.version,
    title: row.title,
    launch_path: row.launch_path,
    /** Signed and short-lived (launch.ts): a fresh one comes with every read of the launch data. */
    launch_url: `${base}/${row.launch_path}`,
    package_origin: packageOriginOf(ctx),
    /**
     * With a package origin, the launcher page the player frames: it holds the SCO's window.API and frames the SCO,
     * so a SCO that looks for the API from window.parent (as many do) finds it in its own origin. Null without one.
     */
    player_url: ctx.config.packageOrigin
      ? `${ctx.config.packageOrigin}${PACKAGE_RUNTIME_PATH}/scorm.html`
      : null,
    mastery_score: row.mastery_score === null ? null : Number(row.mastery_score),
    size_bytes: row.size_bytes,
    created_at: row.created_at.toISOString(),
    /** Every item of the organisation, depth first (headings have no launch_url). */
    items: row.items.map((item) => presentItem(base, item)),
  };
}

export async function presentH5p(
  ctx: Ctx,
  row: {
    uuid: string;
    h5p_id: number;
    title: string;
    main_library: string;
    size_bytes: number;
    created_at: Date;
  },
) {
  return {
    uuid: row.uuid,
    h5p_id: row.h5p_id,
    title: row.title,
    main_library: row.main_library,
    /** Signed and short-lived (launch.ts): h5p.json, content/ and the libraries below it. */
    base_url: await launchBase(ctx, row.uuid),
    /** The page that runs h5p-standalone inside the sandbox (routes.ts, web/public/package-runtime/). */
    player_url: `${ctx.config.packageOrigin ?? ''}${PACKAGE_RUNTIME_PATH}/h5p.html`,
    package_origin: packageOriginOf(ctx),
    size_bytes: row.size_bytes,
    created_at: row.created_at.toISOString(),
  };
}

const scormColumns = [
  'uuid',
  'content_id',
  'version',
  'title',
  'launch_path',
  'mastery_score',
  'size_bytes',
  'created_at',
  'items',
] as const;
const h5pColumns = ['uuid', 'h5p_id', 'title', 'main_library', 'size_bytes', 'created_at'] as const;

/** POST /content/{id}/package: content in scope (404), 63 + 30 (403), changeable, of type scorm (422). */
export async function uploadScormPackage(ctx: Ctx, contentId: number, receive: Receive) {
  const content = await visibleContent(ctx, contentId);
  authorize(ctx, [P.contentCreator, P.editContent]);
  await assertCanChange(ctx, content.entity_id);
  if (content.type !== 'scorm') throw invalidField(FIELD, 'Only SCORM content takes a SCORM package.');
  const { uuid, size, manifest } = await receiveAndExtract(ctx, receive, readScormManifest);
  let old: string | undefined;
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const previous = await trx
        .deleteFrom('scorm_packages')
        .where('content_id', '=', contentId)
        .returning('storage_dir')
        .executeTakeFirst();
      old = previous?.storage_dir;
      return trx
        .insertInto('scorm_packages')
        .values({
          uuid,
          entity_id: content.entity_id,
          content_id: contentId,
          version: manifest.version,
          title: manifest.title,
          launch_path: manifest.launchPath,
          mastery_score: manifest.masteryScore,
          items: JSON.stringify(manifest.items),
          storage_dir: uuid,
          size_bytes: size,
        })
        .returning(scormColumns)
        .executeTakeFirstOrThrow();
    });
    await removePackageFiles(ctx, old);
    return presentScorm(ctx, row);
  } catch (error) {
    await removePackageFiles(ctx, uuid);
    throw error;
  }
}

/** POST /h5ps/{id}/package: the H5P item in scope (404), 63 + 30 (403), changeable. */
export async function uploadH5pPackage(ctx: Ctx, h5pId: number, receive: Receive) {
  const item = await visibleBlockOr404(ctx, 'h5ps', h5pId);
  authorize(ctx, [P.contentCreator, P.editContent]);
  await assertCanChange(ctx, item.entity_id);
  const { uuid, size, manifest } = await receiveAndExtract(ctx, receive, readH5pManifest);
  let old: string | undefined;
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const previous = await trx
        .deleteFrom('h5p_packages')
        .where('h5p_id', '=', h5pId)
        .returning('storage_dir')
        .executeTakeFirst();
      old = previous?.storage_dir;
      await trx
        .updateTable('h5ps')
        .set({ package_dir: uuid, library: manifest.mainLibrary, updated_at: ctx.clock() })
        .where('id', '=', h5pId)
        .execute();
      return trx
        .insertInto('h5p_packages')
        .values({
          uuid,
          entity_id: item.entity_id,
          h5p_id: h5pId,
          title: manifest.title,
          main_library: manifest.mainLibrary,
          storage_dir: uuid,
          size_bytes: size,
        })
        .returning(h5pColumns)
        .executeTakeFirstOrThrow();
    });
    await removePackageFiles(ctx, old);
    return presentH5p(ctx, row);
  } catch (error) {
    await removePackageFiles(ctx, uuid);
    throw error;
  }
}

/** GET /content/{id}/package (authoring view): content in scope (404), 63 (403), 404 when none uploaded. */
export async function contentPackage(ctx: Ctx, contentId: number) {
  await visibleContent(ctx, contentId);
  authorize(ctx, [P.contentCreator]);
  const row = await ctx.db
    .selectFrom('scorm_packages')
    .select(scormColumns)
    .where('content_id', '=', contentId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return presentScorm(ctx, row);
}

/** GET /h5ps/{id}/package (authoring view): the item in scope (404), 63 (403), 404 when none uploaded. */
export async function h5pPackage(ctx: Ctx, h5pId: number) {
  await visibleBlockOr404(ctx, 'h5ps', h5pId);
  authorize(ctx, [P.contentCreator]);
  const row = await ctx.db
    .selectFrom('h5p_packages')
    .select(h5pColumns)
    .where('h5p_id', '=', h5pId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return presentH5p(ctx, row);
}

/** The caller's own attempt (anyone else: 404, like a missing one). */
async function ownAttempt(ctx: Ctx, attemptId: number) {
  const actor = actorOf(ctx);
  const attempt = await findAttempt(ctx.db, attemptId);
  if (!attempt || attempt.user_id !== actor.userId) throw notFound();
  return attempt;
}

/**
 * SCORM's learner name is "Last, First" (1.2 RTE 3.4.2.1.2 cmi.core.student_name; 2004 cmi.learner_name). We hold one
 * name: its last word is taken as the family name.
 */
export function scormLearnerName(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return words.join('');
  const last = words.pop() as string;
  return `${last}, ${words.join(' ')}`;
}

/**
 * GET /attempts/{id}/package: the SCORM package of the caller's own attempt (the player's launch data), with the
 * learner as the runtime presents them (cmi.core.student_id / student_name, cmi.learner_id / learner_name).
 */
export async function attemptScormPackage(ctx: Ctx, attemptId: number) {
  const attempt = await ownAttempt(ctx, attemptId);
  const row = await ctx.db
    .selectFrom('scorm_packages')
    .select(scormColumns)
    .where('content_id', '=', attempt.content_id)
    .executeTakeFirst();
  if (!row) throw notFound();
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('id', '=', attempt.user_id)
    .executeTakeFirstOrThrow();
  return {
    ...(await presentScorm(ctx, row)),
    learner: { id: String(user.id), name: scormLearnerName(user.name) },
  };
}

/** GET /attempts/{id}/h5ps/{h5pId}/package: an H5P item used by a topic of the caller's own attempt's content. */
export async function attemptH5pPackage(ctx: Ctx, attemptId: number, h5pId: number) {
  const attempt = await ownAttempt(ctx, attemptId);
  const row = await ctx.db
    .selectFrom('h5p_packages as hp')
    .select(h5pColumns.map((c) => `hp.${c}` as const))
    .where('hp.h5p_id', '=', h5pId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('content_lessons as cl')
          .innerJoin('lesson_topics as lt', 'lt.lesson_id', 'cl.lesson_id')
          .innerJoin('topics as t', 't.id', 'lt.topic_id')
          .select(sql`1`.as('one'))
          .where('cl.content_id', '=', attempt.content_id)
          .where('t.h5p_id', '=', h5pId),
      ),
    )
    .executeTakeFirst();
  if (!row) throw notFound();
  return presentH5p(ctx, row);
}

/** The path the trusted player runtime (bridge scripts, the H5P player) is served at, beside the packages. */
export const PACKAGE_RUNTIME_PATH = '/packages/runtime';

/**
 * The store's folder of package `uuid` when `token` is a valid launch token for it (launch.ts), else 404 (no token, a
 * wrong, expired or other package's token, an unknown package alike). No session is consulted: package content runs
 * where the app's cookies are not sent, and the token was issued by a launch data endpoint that checked the caller.
 */
export async function launchFolderFor(
  ctx: Pick<Ctx, 'db' | 'clock' | 'config'>,
  token: string,
  uuid: string,
): Promise<{ prefix: string; kind: 'scorm' | 'h5p' }> {
  if (!UUID.test(uuid) || !(await verifyLaunch(ctx, token, uuid))) throw notFound();
  const scorm = await ctx.db
    .selectFrom('scorm_packages')
    .select('storage_dir')
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  if (scorm) return { prefix: packagePrefix(scorm.storage_dir), kind: 'scorm' };
  const h5p = await ctx.db
    .selectFrom('h5p_packages')
    .select('storage_dir')
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  if (h5p) return { prefix: packagePrefix(h5p.storage_dir), kind: 'h5p' };
  throw notFound();
}
