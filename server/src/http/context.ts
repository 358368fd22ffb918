import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { CacheBus } from '../db/cache-bus';
import type { Db } from '../db/connect';
import type { Mailer } from '../mail/mailer';
import type { SecretBox } from '../security/sealing';
import type { Storage } from '../storage/storage';
import { forbidden, unauthenticated } from './errors';
import type { Probes } from './probes';

export interface ActorEntity {
  id: number;
  slug: string;
  name: string;
  level: 'A' | 'B';
  parent_id: number | null;
}

/** Who is calling: the user, their effective permissions and the entity they act as (ARCHITECTURE "How a request flows"). */
export interface Actor {
  userId: number;
  uuid: string;
  name: string;
  email: string;
  superAdmin: boolean;
  permissions: ReadonlySet<number>;
  primaryEntity: ActorEntity;
  aEntityId: number;
  actingAs: ActorEntity | null;
  roleId: number | null;
  typeId: number | null;
  /** Expired or flagged password (spec 2 §3): only the password-change calls are open until it changes. */
  passwordChangeRequired: boolean;
  via: 'session' | 'token';
  sessionId?: string;
  tokenId?: number;
  /**
   * 'device': a mobile login's token (abilities '*', the user's full permissions). 'personal': a personal access
   * token (tokens/): `permissions` is already (owner's current permissions) ∩ (its abilities) and `superAdmin` is
   * false, so every permission check, `can()` included, sees only what the token may do (auth/actor.ts).
   */
  tokenKind?: 'device' | 'personal';
  abilities: readonly string[];
}

/** Shared dependencies of the process. */
export interface Deps {
  db: Db;
  /**
   * The sign-in lane (issue 36 §2): what a route declared `signIn` runs on (http/authenticate.ts), a small pool of its
   * own on PostgreSQL (DATABASE_SIGN_IN_POOL_SIZE), so signing in never queues behind the read load; `db` on PGlite.
   */
  signInDb: Db;
  config: Config;
  mailer: Mailer;
  storage: Storage;
  engine: 'postgres' | 'pglite';
  clock: () => Date;
  /** What this process changed, told to every process on the database (db/cache-bus.ts). */
  bus: CacheBus;
  /** What /health/ready and /metrics read (http/probes.ts), wired in bootstrap.ts. */
  probes: Probes;
  /** Seals and opens the secrets the server reads back (webhook signing secrets) under SECRETS_KEY (issue 29 §14). */
  secrets: SecretBox;
}

/** Everything a service needs: dependencies, the caller and request facts. The same for REST, GraphQL and jobs. */
export interface Ctx extends Deps {
  actor: Actor | null;
  ip: string | null;
  userAgent: string | null;
  log: FastifyBaseLogger;
  /** Per-request memo (entity scope, etc.). */
  memo: Map<string, unknown>;
}

/**
 * A request's context. The dependencies are named one by one, not spread: on Node 20's V8, an object literal that
 * spreads Deps and then adds the request's fields took 7-9 µs (a literal of the same fields, 0.05 µs), about 5 % of
 * the server's time under the 200-client read load (issue 36 §2, CPU profile). TypeScript holds it complete: a new
 * field of Deps is an error here until it is named.
 */
export function requestCtx(deps: Deps, request: Pick<Ctx, 'db' | 'ip' | 'userAgent' | 'log'>): Ctx {
  return {
    db: request.db,
    signInDb: deps.signInDb,
    config: deps.config,
    mailer: deps.mailer,
    storage: deps.storage,
    engine: deps.engine,
    clock: deps.clock,
    bus: deps.bus,
    probes: deps.probes,
    secrets: deps.secrets,
    actor: null,
    ip: request.ip,
    userAgent: request.userAgent,
    log: request.log,
    memo: new Map(),
  };
}

export function actorOf(ctx: Ctx): Actor {
  if (!ctx.actor) throw unauthenticated();
  return ctx.actor;
}

/** True when the actor holds the permissions (super_admin passes every check, spec 1 §6). */
export function can(
  actor: Pick<Actor, 'superAdmin' | 'permissions'>,
  ids: readonly number[],
  mode: 'all' | 'any' = 'all',
): boolean {
  if (actor.superAdmin) return true;
  return mode === 'all'
    ? ids.every((id) => actor.permissions.has(id))
    : ids.some((id) => actor.permissions.has(id));
}

/** Throws 403 unless the actor holds the permissions; returns the actor for chaining. */
export function authorize(ctx: Ctx, ids: readonly number[], mode: 'all' | 'any' = 'all'): Actor {
  const actor = actorOf(ctx);
  if (!can(actor, ids, mode)) throw forbidden();
  return actor;
}

/** Token abilities (Sanctum style): '*' allows everything. */
export function tokenCan(actor: Actor, ability: string): boolean {
  return actor.via === 'session' || actor.abilities.includes('*') || actor.abilities.includes(ability);
}

export async function memo<T>(ctx: Ctx, key: string, load: () => Promise<T>): Promise<T> {
  if (ctx.memo.has(key)) return ctx.memo.get(key) as T;
  const value = await load();
  ctx.memo.set(key, value);
  return value;
}
