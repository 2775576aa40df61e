import type { Database } from "bun:sqlite";

/**
 * A migrations baseline: the whole schema a chain of migrations builds, as one script, so that a
 * new database is made in one step instead of replaying every migration (table rebuilds and
 * all). `through` is the last migration it stands for; a database made from it records every
 * migration up to that one as applied, and runs the ones after it as an upgraded one would.
 */
export interface Baseline {
  through: string;
  sql: string;
}

const BREAK = "\n--> statement-breakpoint\n";

/** The statements of a baseline script. */
export const baselineStatements = (sql: string) =>
  sql
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter(Boolean);

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (value instanceof Uint8Array) return `X'${Buffer.from(value).toString("hex")}'`;
  return `'${String(value).replaceAll("'", "''")}'`;
}

/**
 * The script that makes `sqlite`'s schema and rows again (scripts/gen-migrations.ts writes it
 * from a database the whole chain migrated): every object as SQLite keeps its text, tables
 * first (virtual ones make their own shadow tables), then indexes, views and triggers, then
 * the rows the migrations wrote. `skip`: tables left out (the migrations' own record).
 */
export function schemaScript(sqlite: Database, skip: ReadonlySet<string>): string {
  const shadow = new Set(
    sqlite
      .query<{ name: string }, []>("SELECT name FROM pragma_table_list WHERE type = 'shadow'")
      .all()
      .map((r) => r.name),
  );
  const objects = sqlite
    .query<{ type: string; name: string; sql: string | null }, []>(
      "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
    )
    .all()
    .filter((o) => !skip.has(o.name) && !shadow.has(o.name));
  const order = ["table", "index", "view", "trigger"];
  const statements = order.flatMap((type) => objects.filter((o) => o.type === type).map((o) => o.sql!));
  for (const { name } of objects.filter((o) => o.type === "table" && !/^CREATE VIRTUAL/i.test(o.sql!))) {
    const rows = sqlite.query<Record<string, unknown>, []>(`SELECT * FROM ${quote(name)}`).values() as unknown[][];
    for (const row of rows) statements.push(`INSERT INTO ${quote(name)} VALUES (${row.map(literal).join(", ")})`);
  }
  return statements.join(`;${BREAK}`) + ";\n";
}
