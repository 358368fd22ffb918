import type { PoolUse } from '../db/connect';
import type { QueueDepth } from '../jobs/queries';
import type { FinishedJob } from '../jobs/queue';

/**
 * What the operator's endpoints read (issue 35 §5): the readiness checks of /health/ready (http/health.ts) and the
 * sources of /metrics (http/metrics.ts). This layer only defines them; bootstrap.ts fills them in from the database,
 * the job queue and the websockets, so neither the http layer nor those parts know of each other.
 */

/** A readiness check: true (or resolving true) when its part is ready; false, a throw or a timeout when not. */
export type ReadinessCheck = () => boolean | Promise<boolean>;

/** Each check's answer as /health/ready shows it: ok or not, never why (no versions, hosts or error text). */
export type CheckState = 'ok' | 'failing';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, CheckState>;
}

/** A check that has not answered after this long counts as failing: a load balancer's probe must not hang. */
const CHECK_TIMEOUT_MS = 2000;

/** The named readiness checks of a process; registering a name again replaces its check. */
export class Readiness {
  readonly #checks = new Map<string, ReadinessCheck>();

  register(name: string, check: ReadinessCheck): void {
    this.#checks.set(name, check);
  }

  /** Runs every check at once, each bounded by `timeoutMs`. */
  async evaluate(timeoutMs = CHECK_TIMEOUT_MS): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.#checks].map(async ([name, check]) => [name, await passes(check, timeoutMs)] as const),
    );
    return {
      ready: entries.every(([, ok]) => ok),
      checks: Object.fromEntries(entries.map(([name, ok]) => [name, ok ? 'ok' : 'failing'])),
    };
  }
}

async function passes(check: ReadinessCheck, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return (
      (await Promise.race([Promise.resolve().then(check), timeout]).catch(() => false as const)) === true
    );
  } finally {
    clearTimeout(timer);
  }
}

export interface Probes {
  readiness: Readiness;
  /** The pool's connections now; null where there is no pool (PGlite). */
  poolUse(): PoolUse | null;
  /** The sign-in lane's pool now (DATABASE_SIGN_IN_POOL_SIZE); null where there is no pool (PGlite). */
  signInPoolUse(): PoolUse | null;
  /** The job queue's backlog by kind. */
  queueDepth(): Promise<QueueDepth[]>;
  /** Websockets this process holds open. */
  websockets(): number;
  /** Subscribes to the jobs this process runs; returns the unsubscribe. */
  observeJobs(observer: (job: FinishedJob) => void): () => void;
}
