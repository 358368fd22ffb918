/**
 * A reference model of the compliance record (issue 28 item 8), in plain TypeScript and on purpose NOT built from the
 * server's code (rules.ts, queries.ts): it is what ARCHITECTURE "Compliance rules" and packages/contracts
 * compliance.ts say, written out again, so a mistake in one place shows up as a disagreement.
 *
 * - An organisation: a level A group and level B sites; a compliance row (entity, role, course, type, validity in
 *   months or none); a site inherits its group's row unless it has its own for the same role and course.
 * - A person's required courses are the rows for their role in their primary entity.
 * - A result is dated when it is written: a pass expires `validity` months after its completion under the row that
 *   applies to the person at that moment (no row or no validity: never); a row assigned with update_previous_results
 *   re-dates the passes (not exemptions) of the people under it. A fail or an exemption has no expiry of its own.
 * - The latest result of a (person, course): the latest approved, not deleted pass by completion (ties: the newer
 *   record), else the latest approved result. Pending results count for nothing until approved.
 * - An exemption may have an end date; once it has come the requirement applies again: the status is what the
 *   person's other results give (issue 28, exemptions with an end date).
 * - Status at `now` with the person's entity's warning window (days): missing without a pass; expired when the pass
 *   has ended; exempt while an exemption has not ended; expiring when the pass ends within the window;
 *   otherwise in date. Compliant = in date + expiring + exempt; a score is floor(100 * compliant / required), 100
 *   when nothing is required.
 */

export type ComplianceType = 'primary' | 'secondary';
export type Status = 'in_date' | 'expiring' | 'expired' | 'missing' | 'exempt';
export const STATUSES: readonly Status[] = ['in_date', 'expiring', 'expired', 'missing', 'exempt'];

export interface ModelEntity {
  /** Index in the model's entity list; index 0 is the level A group. */
  idx: number;
  parent: number | null;
  warningDays: number;
}
export interface ModelRule {
  entity: number;
  role: number;
  course: number;
  type: ComplianceType;
  validity: number | null;
}
export interface ModelPerson {
  entity: number;
  role: number | null;
}
/** An applied training import: the results it created, and the expiry each result it updated had before. */
export interface ModelImport {
  uuid: string;
  created: ModelResult[];
  updated: { result: ModelResult; before: Date | null }[];
  undone: boolean;
}

export interface ModelResult {
  /** The server's id (ties on completion go to the newer record, i.e. the higher id). */
  id: number;
  person: number;
  course: number;
  /** historical: recorded by hand or imported; face2face: a session's attendance mark; elearning: an offline sync. */
  kind: 'historical' | 'exempt' | 'face2face' | 'elearning';
  passed: boolean;
  status: 'approved' | 'pending';
  completedAt: Date;
  expiresAt: Date | null;
  deleted: boolean;
}

export interface Tally {
  users: number;
  required: number;
  in_date: number;
  expiring: number;
  expired: number;
  missing: number;
  exempt: number;
}
export const emptyTally = (): Tally => ({
  users: 0,
  required: 0,
  in_date: 0,
  expiring: 0,
  expired: 0,
  missing: 0,
  exempt: 0,
});

export interface Cell {
  person: number;
  course: number;
  type: ComplianceType;
  validity: number | null;
  status: Status;
  resultCount: number;
}

const DAY_MS = 86_400_000;

/** `months` calendar months after `from` in UTC; a day past the target month's end is its last day. */
export function addMonths(from: Date, months: number): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(from.getUTCDate(), lastDay),
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
}

export class Model {
  now: Date;
  entities: ModelEntity[] = [];
  rules: ModelRule[] = [];
  people: ModelPerson[] = [];
  results: ModelResult[] = [];
  /** Applied imports, oldest first (ImportTraining, UndoImport). */
  imports: ModelImport[] = [];
  readonly roles: number;
  readonly courses: number;

  constructor(o: { now: Date; sites: number; warningDays: number; roles: number; courses: number }) {
    this.now = o.now;
    this.roles = o.roles;
    this.courses = o.courses;
    this.entities.push({ idx: 0, parent: null, warningDays: o.warningDays });
    for (let i = 1; i <= o.sites; i++) this.entities.push({ idx: i, parent: 0, warningDays: o.warningDays });
  }

  ownRule(entity: number, role: number, course: number): ModelRule | undefined {
    return this.rules.find((r) => r.entity === entity && r.role === role && r.course === course);
  }

  /** The row that applies to (entity, role, course): the entity's own, else its parent's. */
  effectiveRule(entity: number, role: number | null, course: number): ModelRule | undefined {
    if (role === null) return undefined;
    const own = this.ownRule(entity, role, course);
    if (own) return own;
    const parent = this.entities[entity]?.parent;
    return parent === null || parent === undefined ? undefined : this.ownRule(parent, role, course);
  }

  ruleFor(person: number, course: number): ModelRule | undefined {
    const p = this.people[person];
    return p ? this.effectiveRule(p.entity, p.role, course) : undefined;
  }

  /** The expiry a pass completed at `completedAt` gets now for (person, course). */
  expiryFor(person: number, course: number, completedAt: Date, passed: boolean): Date | null {
    if (!passed) return null;
    const validity = this.ruleFor(person, course)?.validity ?? null;
    return validity === null ? null : addMonths(completedAt, validity);
  }

  /**
   * Sets (creates or changes) an entity's row. With `redate`, every pass (not exemption, pending or approved) of the
   * people now under the row is re-dated with its validity.
   */
  assign(rule: ModelRule, redate: boolean): void {
    const existing = this.ownRule(rule.entity, rule.role, rule.course);
    if (existing) Object.assign(existing, rule);
    else this.rules.push({ ...rule });
    if (!redate) return;
    const under = this.rules.find(
      (r) => r.entity === rule.entity && r.role === rule.role && r.course === rule.course,
    );
    this.people.forEach((p, person) => {
      if (this.effectiveRule(p.entity, p.role, rule.course) !== under) return;
      for (const r of this.results) {
        if (r.person !== person || r.course !== rule.course || !r.passed || r.kind === 'exempt' || r.deleted)
          continue;
        r.expiresAt = rule.validity === null ? null : addMonths(r.completedAt, rule.validity);
      }
    });
  }

  liveResults(person: number, course: number): ModelResult[] {
    return this.results.filter(
      (r) => r.person === person && r.course === course && r.status === 'approved' && !r.deleted,
    );
  }

  /**
   * Whether a pass synced from a device at `completedAt` gives the learner's result (offline/rules.ts, written out
   * again): only when no approved live pass (of any kind, exemptions too) was completed at or after it.
   */
  offlinePassCounts(person: number, course: number, completedAt: Date): boolean {
    return !this.liveResults(person, course).some(
      (r) => r.passed && r.completedAt.getTime() >= completedAt.getTime(),
    );
  }

  /** An exemption whose end date has come: the requirement applies again, as if it had not been given. */
  ended(r: ModelResult): boolean {
    return r.kind === 'exempt' && r.expiresAt !== null && r.expiresAt.getTime() <= this.now.getTime();
  }

  latest(person: number, course: number): { result: ModelResult; count: number } | null {
    const live = this.liveResults(person, course);
    const counted = live.filter((r) => !this.ended(r));
    if (!counted.length)
      return live.length
        ? { result: { ...(live[0] as ModelResult), passed: false }, count: live.length }
        : null;
    const sorted = [...counted].sort(
      (a, b) =>
        Number(b.passed) - Number(a.passed) ||
        b.completedAt.getTime() - a.completedAt.getTime() ||
        b.id - a.id,
    );
    return { result: sorted[0] as ModelResult, count: live.length };
  }

  /** Exemptions the person holds for the course (approved, not deleted), ended or not. */
  exemptions(person: number, course: number): ModelResult[] {
    return this.liveResults(person, course).filter((r) => r.kind === 'exempt');
  }

  /** Exemptions in force: not ended. */
  activeExemptions(person: number, course: number): ModelResult[] {
    return this.exemptions(person, course).filter((r) => !this.ended(r));
  }

  status(person: number, course: number): Status {
    const latest = this.latest(person, course)?.result;
    if (!latest?.passed) return 'missing';
    const now = this.now.getTime();
    const expires = latest.expiresAt?.getTime() ?? null;
    if (expires !== null && expires <= now) return 'expired';
    if (latest.kind === 'exempt') return 'exempt';
    if (expires === null) return 'in_date';
    const warning = this.entities[this.people[person]?.entity ?? 0]?.warningDays ?? 0;
    if (expires <= now + warning * DAY_MS) return 'expiring';
    return 'in_date';
  }

  /** Every required (person, course) cell with its status. */
  cells(): Cell[] {
    const out: Cell[] = [];
    this.people.forEach((p, person) => {
      for (let course = 0; course < this.courses; course++) {
        const rule = this.effectiveRule(p.entity, p.role, course);
        if (!rule) continue;
        out.push({
          person,
          course,
          type: rule.type,
          validity: rule.validity,
          status: this.status(person, course),
          resultCount: this.latest(person, course)?.count ?? 0,
        });
      }
    });
    return out;
  }

  /** The figures of some cells: users = people with at least one of them. */
  static tally(cells: readonly Cell[]): Tally {
    const t = emptyTally();
    t.users = new Set(cells.map((c) => c.person)).size;
    for (const c of cells) {
      t.required += 1;
      t[c.status] += 1;
    }
    return t;
  }

  /** Per entity: its own people's figures and, deep, its subtree's. */
  entityFigures(): { own: Tally; deep: Tally }[] {
    const cells = this.cells();
    return this.entities.map((e) => {
      const own = cells.filter((c) => this.people[c.person]?.entity === e.idx);
      const deep = cells.filter((c) => {
        const at = this.people[c.person]?.entity;
        return at === e.idx || this.entities[at ?? -1]?.parent === e.idx;
      });
      return { own: Model.tally(own), deep: Model.tally(deep) };
    });
  }

  /** Per course, over every entity: a course's users are its cells. */
  courseFigures(): Map<number, Tally> {
    const out = new Map<number, Tally>();
    for (const c of this.cells()) {
      const t = out.get(c.course) ?? emptyTally();
      t.users += 1;
      t.required += 1;
      t[c.status] += 1;
      out.set(c.course, t);
    }
    return out;
  }
}

/** Whole percent of compliant cells; nothing required is 100. */
export function scoreOf(t: Tally): number {
  if (t.required <= 0) return 100;
  return Math.floor(((t.in_date + t.expiring + t.exempt) * 100) / t.required);
}
