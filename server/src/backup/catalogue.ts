import type { Session } from './session';

/** A table of the public schema as the backup copies it: its stored columns (generated ones are computed again). */
export interface TablePlan {
  name: string;
  columns: string[];
}

/** `"name"`, quoted as PostgreSQL's quote_ident would when needed; always quoting is simplest and equivalent. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `COPY "table" ("a", "b")`: the start of a COPY of these columns, either way. */
export function copyOf(table: TablePlan): string {
  return `COPY ${ident(table.name)} (${table.columns.map(ident).join(', ')})`;
}

/**
 * The public schema's tables, parents before the tables whose foreign keys point at them (a table's own references
 * aside), then by name: the order a restore fills them in.
 */
export async function readTables(session: Session): Promise<TablePlan[]> {
  const columns = await session.query<{ table: string; column: string }>(
    `SELECT c.relname AS table, a.attname AS column
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid
      WHERE n.nspname = 'public' AND c.relkind = 'r'
        AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY c.relname, a.attnum`,
  );
  const references = await session.query<{ child: string; parent: string }>(
    `SELECT child.relname AS child, parent.relname AS parent
       FROM pg_constraint k
       JOIN pg_class child ON child.oid = k.conrelid
       JOIN pg_class parent ON parent.oid = k.confrelid
      WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace AND k.conrelid <> k.confrelid`,
  );
  const tables = new Map<string, TablePlan>();
  for (const { table, column } of columns) {
    const plan = tables.get(table) ?? { name: table, columns: [] };
    plan.columns.push(column);
    tables.set(table, plan);
  }
  const parents = new Map<string, Set<string>>([...tables.keys()].map((name) => [name, new Set()]));
  for (const { child, parent } of references) if (tables.has(parent)) parents.get(child)?.add(parent);

  const ordered: TablePlan[] = [];
  const placed = new Set<string>();
  while (placed.size < tables.size) {
    const ready = [...tables.keys()]
      .filter((name) => !placed.has(name) && [...(parents.get(name) ?? [])].every((p) => placed.has(p)))
      .sort();
    // A cycle of foreign keys: no order satisfies it, and the restore does not check keys while it loads
    // (session_replication_role = replica), so the rest go by name.
    const next = ready.length
      ? ready
      : [...tables.keys()]
          .filter((name) => !placed.has(name))
          .sort()
          .slice(0, 1);
    for (const name of next) {
      placed.add(name);
      ordered.push(tables.get(name) as TablePlan);
    }
  }
  return ordered;
}

export interface SequenceValue {
  name: string;
  /** Its last value as text (bigint), or null when it was never used. */
  lastValue: string | null;
}

export async function readSequences(session: Session): Promise<SequenceValue[]> {
  return session.query<SequenceValue>(
    `SELECT sequencename AS name, last_value::text AS "lastValue"
       FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename`,
  );
}

/** Each sequence of the public schema that fills a column (serial or identity), with that table and column. */
export async function sequenceColumns(
  session: Session,
): Promise<{ sequence: string; table: string; column: string }[]> {
  return session.query(
    `SELECT s.relname AS sequence, t.relname AS table, a.attname AS column
       FROM pg_depend d
       JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
       JOIN pg_class t ON t.oid = d.refobjid
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
      WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass
        AND d.deptype IN ('a', 'i') AND s.relnamespace = 'public'::regnamespace`,
  );
}
