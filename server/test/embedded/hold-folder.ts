/**
 * Test fixture: opens the embedded database on DATA_DIR as the server does (connect + migrate), prints one line
 * "ready <where>" (or the start-up error), then serves SQL lines from stdin ("sql <statement>" answers "ok <json>" or
 * "error <code> <message>") until stdin ends or SIGTERM, and closes.
 */
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { connect } from '../../src/db/connect';
import { StartupError } from '../../src/db/embedded/errors';
import { guardStartupSignals } from '../../src/db/embedded/processes';
import { migrate } from '../../src/db/migrate';

async function main() {
  const release = guardStartupSignals();
  const dataDir = process.env.DATA_DIR as string;
  const engine = (process.env.EMBEDDED_ENGINE ?? 'auto') as 'auto' | 'postgres' | 'pglite';
  const connection = await connect({
    dataDir,
    embeddedEngine: engine,
    joinRunningServer: process.env.JOIN === 'true',
  });
  await migrate(connection.db);
  release();
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await connection.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void close());
  process.on('SIGINT', () => void close());
  process.stdout.write(`ready ${connection.where}${connection.note ? ` note: ${connection.note}` : ''}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.startsWith('sql ')) continue;
    try {
      const result = await sql.raw(line.slice(4)).execute(connection.db);
      process.stdout.write(`ok ${JSON.stringify(result.rows)}\n`);
    } catch (error) {
      const e = error as { code?: string; message: string };
      process.stdout.write(`error ${e.code ?? '-'} ${e.message.replaceAll('\n', ' ')}\n`);
    }
  }
  await close();
}

main().catch((error) => {
  process.stdout.write(`failed ${error instanceof StartupError ? error.message : String(error)}\n`);
  process.exit(1);
});
