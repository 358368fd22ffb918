import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { WebhookMessages as M } from '@cc/contracts';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config';
import { invalidField } from '../http/errors';

/**
 * SSRF guard for webhook endpoints (issue 18). A webhook makes this server send requests to an address a customer
 * chose, so the address must never reach inside our network: loopback, private, link-local (169.254.169.254, the
 * cloud metadata service), unique-local, carrier-grade NAT, multicast, broadcast and unspecified ranges are refused,
 * both when the endpoint is saved (its host resolved) and at delivery time, where the connection goes to the address
 * the check passed (a lookup on the request that refuses others), which also stops DNS rebinding.
 * WEBHOOKS_ALLOW_PRIVATE (tests and local development) lets loopback and private networks through.
 */

type Policy = Pick<Config, 'env' | 'webhooksAllowPrivate'>;

/** Ranges the flag lets through: a receiver on this machine or the local network. Metadata (link-local) never. */
const DEV_RANGES = new Set(['loopback', 'private', 'uniqueLocal']);

export function addressAllowed(address: string, policy: Policy): boolean {
  if (!ipaddr.isValid(address)) return false;
  // ::ffff:127.0.0.1 is 127.0.0.1: judge the IPv4 address inside.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === 'unicast') return true;
  return policy.webhooksAllowPrivate && DEV_RANGES.has(range);
}

export class RefusedAddressError extends Error {
  constructor(readonly address: string) {
    super(`The address ${address} is on a private or local network.`);
    this.name = 'RefusedAddressError';
  }
}

/** Parses and checks the URL's form (scheme, no credentials); a refusal is a 422 on the `field`. */
export function parseEndpointUrl(value: string, policy: Policy, field = 'url'): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidField(field, M.urlInvalid);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidField(field, M.urlInvalid);
  if (policy.env === 'production' && url.protocol !== 'https:') throw invalidField(field, M.urlHttps);
  if (url.username || url.password) throw invalidField(field, M.urlCredentials);
  return url;
}

function hostOf(url: URL): string {
  // URL keeps IPv6 literals in brackets.
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );
}

/** When saving an endpoint: the URL's form, then every address its host resolves to (422 on `field`). */
export async function checkEndpointUrl(value: string, policy: Policy, field = 'url'): Promise<string> {
  const url = parseEndpointUrl(value, policy, field);
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await resolveAll(host)).map((a) => a.address);
    } catch {
      throw invalidField(field, M.urlNotFound);
    }
  }
  if (!addresses.length) throw invalidField(field, M.urlNotFound);
  // Any refused address refuses the host: a round-robin name with one internal address is still a way in.
  if (addresses.some((a) => !addressAllowed(a, policy))) throw invalidField(field, M.urlPrivate);
  return url.toString();
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The `lookup` of a delivery's request: resolves like dns.lookup, then refuses unless every address passes, so the
 * socket connects only to an address that was checked (no second resolution in between).
 */
export function guardedLookup(policy: Policy) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number } | number,
    callback: LookupCallback,
  ) => {
    const opts = typeof options === 'number' ? { family: options } : (options ?? {});
    dnsLookup(hostname, { ...opts, all: true, verbatim: true } as never, (err, found) => {
      if (err) return callback(err, '');
      const addresses = found as unknown as LookupAddress[];
      const refused = addresses.find((a) => !addressAllowed(a.address, policy));
      if (refused || !addresses.length)
        return callback(new RefusedAddressError(refused?.address ?? hostname), '');
      if (opts.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** At delivery time, for a URL whose host is an IP literal (Node skips `lookup` for those). */
export function assertLiteralAllowed(url: URL, policy: Policy): void {
  const host = hostOf(url);
  if (isIP(host) && !addressAllowed(host, policy)) throw new RefusedAddressError(host);
}
