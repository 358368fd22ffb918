import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config';
import { StartupError } from './db/embedded/errors';
import { guardStartupSignals } from './db/embedded/processes';
import { formatMails, lastMails } from './mail/last-mails';

const USAGE = `Usage: npm run mail:last -- [N] [--to you@example.com]

Prints the last N mails of the outbox (default 5, oldest first): recipient, subject and every link in the body,
whole (the in-app outbox masks them). For development: without SMTP a password reset or a welcome mail only lands
in the outbox. Uses the configured database (DATA_DIR, or DATABASE_URL); with the server running on the same
DATA_DIR it joins the server's embedded PostgreSQL. Refuses to run with NODE_ENV=production.`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

/** issue 31 §8: the development mail viewer, on the console. */
async function main() {
  // Before anything is opened: the links sign whoever reads them in as the recipient.
  if (process.env.NODE_ENV === 'production') {
    console.error(
      'npm run mail:last refuses to run with NODE_ENV=production: its links act as the recipient.',
    );
    process.exit(1);
  }
  guardStartupSignals();
  const { values, positionals } = parseArgs({
    options: {
      to: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return console.log(USAGE);
  if (positionals.length > 1) fail('Give one number of mails.');
  const count = z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .safeParse(positionals[0] ?? 5);
  if (!count.success) fail('N must be a whole number from 1 to 100.');
  const to = values.to === undefined ? undefined : z.email().safeParse(values.to.trim());
  if (to && !to.success) fail('--to must be an e-mail address.');

  // Loaded here, not at the top: the production refusal above answers without loading every capability.
  const { openDeps } = await import('./bootstrap');
  const deps = await openDeps(loadConfig(), { joinRunningServer: true });
  try {
    console.log(formatMails(await lastMails(deps.db, { count: count.data, to: to?.data })));
  } finally {
    await deps.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
