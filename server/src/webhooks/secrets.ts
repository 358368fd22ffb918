import type { Db } from '../db/connect';
import type { DbOrTrx } from '../jobs/queries';
import { SealError, type SecretBox } from '../security/sealing';
import type { EndpointRow } from './queries';

/**
 * Webhook signing secrets at rest (issue 29 §14): sealed under SECRETS_KEY (security/sealing.ts), bound to the
 * endpoint's uuid, opened only to sign a delivery. The API shows a secret once, in the answer that made it (create,
 * rotate); no read shows it again.
 */

/** The additional data a secret is sealed with: the endpoint it belongs to. */
const contextOf = (uuid: string) => `webhook_endpoints.secret:${uuid}`;

export const sealSecret = (box: SecretBox, uuid: string, secret: string) => box.seal(secret, contextOf(uuid));

type Clear = Pick<EndpointRow, 'id' | 'uuid' | 'secret' | 'previous_secret'>;

/**
 * Seals one row's clear secrets and empties the clear columns, in one statement guarded by the values read: of two
 * processes doing it at once, the second changes nothing. A clear previous secret replaces the sealed one only when
 * there is one (a row from before migration 047 has no sealed value yet).
 */
async function sealRow(db: DbOrTrx, box: SecretBox, row: Clear): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({
      ...(row.secret !== null ? { secret_sealed: sealSecret(box, row.uuid, row.secret) } : {}),
      ...(row.previous_secret !== null
        ? { previous_secret_sealed: sealSecret(box, row.uuid, row.previous_secret) }
        : {}),
      secret: null,
      previous_secret: null,
    })
    .where('id', '=', row.id)
    .where((eb) =>
      eb.and([
        row.secret === null ? eb('secret', 'is', null) : eb('secret', '=', row.secret),
        row.previous_secret === null
          ? eb('previous_secret', 'is', null)
          : eb('previous_secret', '=', row.previous_secret),
      ]),
    )
    .execute();
}

/**
 * At each start, right after the migrations (bootstrap.ts openDeps): seals every secret still in clear, those from
 * before migration 047 and any an older process wrote since. Returns how many rows it sealed.
 */
export async function sealClearWebhookSecrets(db: Db, box: SecretBox): Promise<number> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'uuid', 'secret', 'previous_secret'])
    .where((eb) => eb.or([eb('secret', 'is not', null), eb('previous_secret', 'is not', null)]))
    .execute();
  for (const row of rows) await sealRow(db, box, row);
  return rows.length;
}

/** Why an endpoint cannot be signed for, as the delivery log shows it. */
export class UnreadableSecretError extends Error {}

/**
 * The secrets that sign a delivery to `endpoint` now: the current one, and the one before a rotation while its
 * overlap lasts. A row still holding a clear secret (written by an older process) is sealed on the way. A current
 * secret this server's key cannot open is an UnreadableSecretError (the endpoint needs a new secret: rotate it); a
 * previous one that cannot be opened is left out.
 */
export async function signingSecrets(
  db: Db,
  box: SecretBox,
  endpoint: EndpointRow,
  now: Date,
): Promise<string[]> {
  if (endpoint.secret !== null || endpoint.previous_secret !== null) await sealRow(db, box, endpoint);
  const overlap = endpoint.previous_secret_expires_at !== null && endpoint.previous_secret_expires_at > now;
  const current = endpoint.secret ?? open(box, endpoint.uuid, endpoint.secret_sealed);
  const secrets = [current];
  if (overlap) {
    let previous: string | null = endpoint.previous_secret;
    if (previous === null && endpoint.previous_secret_sealed !== null) {
      try {
        previous = open(box, endpoint.uuid, endpoint.previous_secret_sealed);
      } catch {
        previous = null;
      }
    }
    if (previous !== null) secrets.push(previous);
  }
  return secrets;
}

function open(box: SecretBox, uuid: string, sealed: string | null): string {
  if (sealed === null) throw new UnreadableSecretError('The endpoint has no signing secret: rotate it.');
  try {
    return box.open(sealed, contextOf(uuid));
  } catch (error) {
    if (!(error instanceof SealError)) throw error;
    throw new UnreadableSecretError(
      error.reason === 'unknown-key'
        ? "The signing secret was sealed with another SECRETS_KEY than this server's: rotate the secret, or start the server with the key it was made under."
        : 'The signing secret cannot be read (damaged): rotate the secret.',
    );
  }
}
