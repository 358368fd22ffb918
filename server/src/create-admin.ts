import { parseArgs } from 'node:util';
import { PRODUCT_NAME } from '@cc/contracts';
import { z } from 'zod';
import { openDeps } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { StartupError } from './db/embedded/errors';
import { guardStartupSignals } from './db/embedded/processes';
import { createSuperAdmin, SETUP_LINK_TTL_MINUTES, setupLink } from './first-admin';

const USAGE = `Usage: npm run create-admin -- --email you@example.com --name "Your Name" [--organisation "Name"]

Creates a super admin without a password and prints a one-time link (valid ${SETUP_LINK_TTL_MINUTES / 60} hours) where
they set it: never a password on the command line. They join the first organisation, or a new one named
--organisation (default ${PRODUCT_NAME}) on an empty database. Uses the configured database (DATA_DIR, or
DATABASE_URL); with the server running on the same DATA_DIR it joins the server's embedded PostgreSQL.`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

/** issue 29 §2: `npm run create-admin`, the console's alternative to the first start's setup link. */
async function main() {
  guardStartupSignals();
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      organisation: { type: 'string', default: PRODUCT_NAME },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return console.log(USAGE);
  const email = z.email().safeParse(values.email?.trim());
  if (!email.success) fail('--email must be an e-mail address.');
  const name = values.name?.trim();
  if (!name) fail('--name is needed.');

  const deps = await openDeps(loadConfig(), { joinRunningServer: true });
  try {
    const taken = await deps.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.data.toLowerCase()))
      .executeTakeFirst();
    if (taken) throw new StartupError(`${email.data} already has an account.`);
    const now = deps.clock();
    const id = await createSuperAdmin(
      deps.db,
      { email: email.data, name, organisation: values.organisation },
      now,
    );
    const link = await setupLink(deps.db, deps.config.appUrl, { id, email: email.data }, now);
    console.log(
      `Super admin ${email.data} created. They set their password with this one-time link:\n  ${link}`,
    );
  } finally {
    deps.bus.publish({ topic: 'writes' });
    await deps.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
