/**
 * The import rules of .dependency-cruiser.cjs (written down in docs/architecture.md), checked on
 * every run: no import cycles anywhere in src/; the server's layers import only downwards;
 * src/platform imports no domain; the web UI imports no server code but the editor schema, and
 * keeps TipTap, the editor and history out of its reading bundle. Beside them, a source scan:
 * raw SQL stays in each domain's queries.ts.
 */
import { expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const root = join(import.meta.dir, "..");
const depcruise = join(root, "node_modules", ".bin", "depcruise");

function cruise(cwd: string, config: string) {
  const run = Bun.spawnSync([depcruise, "src", "--config", config, "--output-type", "err"], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  // Colours come on where CI asks for them; the messages are read without them.
  const out = (run.stdout.toString() + run.stderr.toString()).replace(/\x1b\[[0-9;]*m/g, "");
  return { code: run.exitCode, out };
}

test("src/ keeps its import rules (.dependency-cruiser.cjs)", () => {
  const { code, out } = cruise(root, ".dependency-cruiser.cjs");
  expect(out).not.toContain("error");
  expect(code).toBe(0);
}, 60_000);

// The rules are regular expressions over paths: a typo would make them pass everything. A
// small tree with one import of each kind they forbid shows that each still fires.
test("the layer rules refuse an upward import, a cycle and a schema reaching up", () => {
  const dir = mkdtempSync(join(tmpdir(), "cairn-layers-"));
  try {
    const files: Record<string, string> = {
      "src/pages/service.ts": 'import { copy } from "../commands/copy-page";\nexport const page = copy;\n',
      "src/commands/copy-page.ts": "export const copy = 1;\n",
      "src/spaces/service.ts": 'import { route } from "../spaces/routes";\nexport const s = route;\n',
      "src/spaces/routes.ts": "export const route = 1;\n",
      "src/users/tables.ts": 'import { s } from "../spaces/service";\nexport const users = s;\n',
      "src/labels/a.ts": 'import { b } from "./b";\nexport const a = b;\n',
      "src/labels/b.ts": 'import { a } from "./a";\nexport const b = a;\n',
      "src/settings/service.ts": 'import { users } from "../users/tables";\nexport const ok = users;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    cpSync(join(root, ".dependency-cruiser.cjs"), join(dir, "rules.cjs"));
    writeFileSync(join(dir, "tsconfig.json"), "{}");
    const { code, out } = cruise(dir, "rules.cjs");
    expect(code).not.toBe(0);
    expect(out).toContain("layer-pages: src/pages/service.ts → src/commands/copy-page.ts");
    expect(out).toContain("src/spaces/service.ts → src/spaces/routes.ts");
    expect(out).toContain("schema-is-only-tables: src/users/tables.ts → src/spaces/service.ts");
    expect(out).toContain("no-cycles");
    // Any layer may read the schema.
    expect(out).not.toContain("src/settings/service.ts →");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

// Raw SQL (drizzle's sql`…` and sql.raw, statement text handed to query/prepare/run/exec, the
// driver under $client) lives in each domain's queries.ts, the one file a second backend
// rewrites per domain (docs/architecture.md, "Seams"); tables.ts keeps its DDL. Drizzle's query
// builder is portable and stays where it is used. dependency-cruiser sees modules, not the
// names imported from them (`sql` and `eq` both come from drizzle-orm), so this reads the text.
const RAW_SQL = [/\bsql(<.*?>)?`/, /\bsql\.raw\(/, /\.(query|prepare|run|exec)(<.*?>)?\(\s*["'`]/, /\$client\b/];
const SQL_MAY_LIVE = [
  /\/(queries|store|tables)\.ts$/, // queries.ts is the old name of a domain's store.ts
  /\/store\/[^/]+\.ts$/, // a store split into a folder
  /\.test\.tsx?$|\/testing\.ts$/,
  /^src\/(platform|db|web)\//, // the platform's own SQL; the schema; the browser
];

function rawSqlOutsideQueries(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    if (SQL_MAY_LIVE.some((allowed) => allowed.test(path))) continue;
    for (const pattern of RAW_SQL) {
      const m = pattern.exec(text);
      if (m) found.push(`${path}:${text.slice(0, m.index).split("\n").length}: ${m[0]}`);
    }
  }
  return found;
}

test("raw SQL lives in each domain's queries.ts", async () => {
  const files: Record<string, string> = {};
  for await (const path of new Bun.Glob("src/**/*.ts").scan({ cwd: root })) files[path] = await Bun.file(join(root, path)).text();
  expect(rawSqlOutsideQueries(files)).toEqual([]);
});

test("the raw-SQL rule finds SQL outside queries.ts and leaves queries.ts, tables.ts and the builder alone", () => {
  const found = rawSqlOutsideQueries({
    "src/labels/service.ts":
      "const n = core.db.select({ n: count() }).from(labels).where(eq(labels.id, id)).get();\nconst q = sql<number>`count(*)`;\n",
    "src/watches/service.ts":
      'const a = 1;\nconst s = sqlite.query<{ id: string }, [string]>(\n  "SELECT id FROM page_watches WHERE page_id = ?",\n);\n',
    "src/access/pages.ts": "const a = sql.raw(alias);\n",
    "src/users/service.ts": "core.db.$client.exec(text);\n",
    "src/labels/queries.ts": "export const byName = () => sql`${labels.name} collate nocase`;\n",
    "src/notifications/tables.ts": 'uniqueIndex("x").on(t.userId).where(sql`read_at IS NULL`),\n',
    "src/pages/store.ts": 'const look = core.db.select().from(pages).where(eq(pages.id, sql.placeholder("id"))).prepare();\n',
  });
  expect(found).toEqual([
    "src/labels/service.ts:2: sql<number>`",
    'src/watches/service.ts:2: .query<{ id: string }, [string]>(\n  "',
    "src/access/pages.ts:1: sql.raw(",
    "src/users/service.ts:1: $client",
  ]);
});
