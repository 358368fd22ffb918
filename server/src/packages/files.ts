import type { Ctx } from '../http/context';

/** Where a package's files live in the store (ctx.storage, issue 12 §4): packages/<storage_dir>/, a uuid. */
export const packagePrefix = (storageDir: string) => `packages/${storageDir}/`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Removes a package's files (replaced, or its content or H5P item deleted): after its row is gone, so no reader can
 * reach them any more. A failure only leaves files nobody can reach; it is logged, never the caller's error.
 */
export async function removePackageFiles(ctx: Pick<Ctx, 'storage' | 'log'>, storageDir: string | undefined) {
  if (!storageDir || !UUID.test(storageDir)) return;
  await ctx.storage
    .removeAll(packagePrefix(storageDir))
    .catch((err) => ctx.log.warn({ err }, 'could not remove the files of a package'));
}
