/**
 * One owner per table (docs/architecture.md): a table belongs to the domain whose tables.ts
 * declares it, and only that domain's store (src/<domain>/store.ts or src/<domain>/store/*.ts;
 * queries.ts, the store's old name, during the move) writes it. The platform's tables are
 * written by src/platform. A second scan keeps the driver (`core.sqlite`, `core.db`) in the
 * stores and the platform. Both read the source text, like the raw-SQL scan in
 * tests/architecture.test.ts; tests and testing.ts files are exempt.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

/**
 * Paths that still break a rule while the domains move their writes into their stores. Each is
 * removed once its file keeps the rule; a path listed here that already keeps it fails the test,
 * so the lists only shrink. Sorted.
 */
const PENDING_WRITES: string[] = [];
const PENDING_DRIVER: string[] = [];
/**
 * Stores that still read the driver off the core (`core.db`) rather than through `driverOf`
 * (platform/db/driver.ts); once none does, the core's type stops naming the driver.
 */
const PENDING_CORE_DRIVER_IN_STORES: string[] = [
  "src/access/store/grants.ts",
  "src/access/store/reads.ts",
  "src/access/store/restrictions.ts",
  "src/attachments/store.ts",
  "src/audit/store.ts",
  "src/auth/store/failures.ts",
  "src/auth/store/resets.ts",
  "src/auth/store/sessions.ts",
  "src/branding/store.ts",
  "src/collab/store.ts",
  "src/comments/store.ts",
  "src/dashboard/store.ts",
  "src/events/store.ts",
  "src/exports/store/pack-source.ts",
  "src/exports/store/site-source.ts",
  "src/groups/store.ts",
  "src/labels/store.ts",
  "src/media/store.ts",
  "src/notifications/store.ts",
  "src/pages/store/import.ts",
  "src/pages/store/links.ts",
  "src/pages/store/reads.ts",
  "src/pages/store/rows.ts",
  "src/pages/store/sql.ts",
  "src/pages/store/versions.ts",
  "src/pages/store/writes.ts",
  "src/roles/store.ts",
  "src/search/store/fts5-body.ts",
  "src/search/store/fts5-merge.ts",
  "src/search/store/fts5-recent.ts",
  "src/search/store/fts5-records.ts",
  "src/search/store/fts5-scope.ts",
  "src/search/store/fts5-settings.ts",
  "src/search/store/fts5-titles.ts",
  "src/search/store/fts5.ts",
  "src/security/store/alerts.ts",
  "src/security/store/blocks.ts",
  "src/security/store/events.ts",
  "src/settings/store.ts",
  "src/setup/store.ts",
  "src/spaces/store.ts",
  "src/tokens/store/admin.ts",
  "src/tokens/store/tokens.ts",
  "src/users/store/account-lists.ts",
  "src/users/store/accounts.ts",
  "src/users/store/invites.ts",
  "src/users/store/roles.ts",
  "src/watches/store.ts",
  "src/webhooks/store.ts",
];

/** Tables made by a migration but declared by no tables.ts (FTS5 and its bookkeeping), with their owner. */
const UNDECLARED_OWNERS: Record<string, string> = {
  search_backfill: "search",
  search_dirty: "search",
  search_recent: "search",
  search_recent_floor: "search",
  search_title_words: "search",
  search_titles: "search",
  search_words: "search",
};
/** Tables a migration made only to copy a table into and rename. */
const MIGRATION_SCRATCH = ["page_versions_new", "pages_new"];

interface Table {
  name: string;
  /** The name the tables.ts exports it under (drizzle's table object); none for undeclared tables. */
  ident: string | null;
  /** A domain folder under src/, or "platform". */
  owner: string;
}

const SCANNED = /^src\/.+\.tsx?$/;
const EXEMPT = [/\.test\.tsx?$/, /\/testing\.ts$/, /^src\/web\//];

export function declaredTables(files: Record<string, string>, undeclared: Record<string, string> = {}): Table[] {
  const tables: Table[] = [];
  for (const [path, text] of Object.entries(files)) {
    const m = /^src\/(.+)\/tables\.ts$/.exec(path);
    if (!m) continue;
    const owner = m[1].startsWith("platform") ? "platform" : m[1];
    for (const d of text.matchAll(/export const (\w+)\s*=\s*sqliteTable\(\s*["'`](\w+)["'`]/g))
      tables.push({ ident: d[1], name: d[2], owner });
  }
  for (const [name, owner] of Object.entries(undeclared)) tables.push({ name, ident: null, owner });
  return tables;
}

export function isStore(path: string, domain?: string): boolean {
  const m = /^src\/([a-z-]+)\/(store\.ts|store\/[^/]+\.ts|queries\.ts)$/.exec(path);
  return m !== null && (domain === undefined || m[1] === domain);
}

function mayWrite(path: string, owner: string): boolean {
  return owner === "platform" ? path.startsWith("src/platform/") : isStore(path, owner);
}

/** Code without its comment lines (a sentence such as "update pages" is not a statement). */
function codeLines(text: string): string[] {
  return text.split("\n").map((line) => (/^\s*(\/\/|\/\*|\*)/.test(line) ? "" : line));
}

// Raw statements in either case (drizzle's sql`` templates are written in lower case), the
// table named or interpolated as its drizzle object.
const RAW_WRITE = new RegExp(
  String.raw`\b(insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+` +
    String.raw`(?:(?:main|temp)\.)?(?:[${"`"}"]?(\w+)[${"`"}"]?|\$\{(\w+)\})`,
  "gi",
);
const DRIZZLE_WRITE = /\.(insert|update|delete)\(\s*(?:\w+\.)?(\w+)\s*\)/g;

export function writesOutsideOwners(files: Record<string, string>, tables: Table[]): string[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const byIdent = new Map(tables.filter((t) => t.ident).map((t) => [t.ident as string, t]));
  const found: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    if (!SCANNED.test(path) || EXEMPT.some((e) => e.test(path)) || /\/tables\.ts$/.test(path)) continue;
    const code = codeLines(text).join("\n");
    const local = new Map(byIdent);
    // A table imported under another name (`import { pages as p } from "../pages/tables"`).
    for (const m of code.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["'][^"']*\/(?:tables|schema)["']/g)) {
      for (const part of m[1].split(",")) {
        const [name, alias] = part.trim().split(/\s+as\s+/);
        const table = byIdent.get(name);
        if (alias && table) local.set(alias, table);
      }
    }
    const lineOf = (index: number) => code.slice(0, index).split("\n").length;
    const hits: { table: Table | undefined; how: string; at: number }[] = [];
    for (const m of code.matchAll(RAW_WRITE))
      hits.push({ table: m[2] ? byName.get(m[2]) : local.get(m[3]), how: m[1].split(/\s+/)[0].toUpperCase(), at: m.index });
    for (const m of code.matchAll(DRIZZLE_WRITE)) hits.push({ table: local.get(m[2]), how: `.${m[1]}()`, at: m.index });
    hits.sort((a, b) => a.at - b.at);
    for (const { table, how, at } of hits) {
      if (table && !mayWrite(path, table.owner)) found.push(`${path}:${lineOf(at)}: ${how} ${table.name} (owner: ${table.owner})`);
    }
  }
  return found;
}

// The driver read off a core: `core.db`, `ctx.core.sqlite`, `this.core.db`; destructured from a
// core (`({ sqlite }: Core)`, `const { db } = core`); or its type named (`Core["sqlite"]`).
const CORE_DRIVER_PARTS = [
  /\bcore\.(?:sqlite|db)\b/,
  /\{[^{}]*\b(?:sqlite|db)\b[^{}]*\}\s*:\s*(?:Core\b|Pick<Core\b)/,
  /\{[^{}]*\b(?:sqlite|db)\b[^{}]*\}\s*=\s*(?:[\w.]+\.)?core\b/,
  /\bCore\[["'](?:sqlite|db)["']\]/,
];
const CORE_DRIVER = new RegExp(CORE_DRIVER_PARTS.map((r) => r.source).join("|"), "g");
// Either of those, or the driver asked of the core the stores' way (`driverOf(core)`).
const DRIVER = new RegExp([...CORE_DRIVER_PARTS, /\bdriverOf\(/].map((r) => r.source).join("|"), "g");

export function driverOutsideStores(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    if (!SCANNED.test(path) || EXEMPT.some((e) => e.test(path)) || isStore(path) || path.startsWith("src/platform/")) continue;
    codeLines(text).forEach((line, i) => {
      for (const m of line.matchAll(DRIVER)) found.push(`${path}:${i + 1}: ${m[0]}`);
    });
  }
  return found;
}

/** Stores that read the driver off the core rather than through `driverOf`. */
export function storesReadingCoreDriver(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    if (!isStore(path)) continue;
    codeLines(text).forEach((line, i) => {
      for (const m of line.matchAll(CORE_DRIVER)) found.push(`${path}:${i + 1}: ${m[0]}`);
    });
  }
  return found;
}

/** The paths in a list of findings ("path:line: …"), once each, sorted. */
function pathsOf(found: string[]): string[] {
  return [...new Set(found.map((f) => f.slice(0, f.indexOf(":"))))].sort();
}

async function sources(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const path of new Bun.Glob("src/**/*.{ts,tsx}").scan({ cwd: root })) files[path] = await Bun.file(join(root, path)).text();
  return files;
}

function migrationTables(): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(join(root, "migrations")).filter((f) => f.endsWith(".sql"))) {
    const text = readFileSync(join(root, "migrations", file), "utf8");
    for (const m of text.matchAll(/CREATE (?:VIRTUAL )?TABLE (?:IF NOT EXISTS )?[`"]?(\w+)/gi)) names.add(m[1]);
  }
  return [...names].sort();
}

function checkAgainstPending(found: string[], pending: string[]) {
  expect(pending).toEqual([...pending].sort());
  const pendingSet = new Set(pending);
  // A finding in a path not (or no longer) allowed to break the rule.
  expect(found.filter((f) => !pendingSet.has(f.slice(0, f.indexOf(":"))))).toEqual([]);
  // A pending path that keeps the rule now: take it off the list.
  const breaking = new Set(pathsOf(found));
  expect(pending.filter((p) => !breaking.has(p))).toEqual([]);
}

test("every table a migration makes has an owner", async () => {
  const owned = new Set(declaredTables(await sources(), UNDECLARED_OWNERS).map((t) => t.name));
  expect(migrationTables().filter((name) => !owned.has(name) && !MIGRATION_SCRATCH.includes(name))).toEqual([]);
});

test("a table is written only by its owner's store", async () => {
  const files = await sources();
  checkAgainstPending(writesOutsideOwners(files, declaredTables(files, UNDECLARED_OWNERS)), PENDING_WRITES);
});

test("the driver (core.sqlite, core.db) is held only by the stores and the platform", async () => {
  checkAgainstPending(driverOutsideStores(await sources()), PENDING_DRIVER);
});

test("a store reaches the driver through driverOf, not off the core (the pending list only shrinks)", async () => {
  checkAgainstPending(storesReadingCoreDriver(await sources()), PENDING_CORE_DRIVER_IN_STORES);
});

test("the owner scan refuses writes outside the owner's store and leaves the store, tests and sentences alone", () => {
  const files: Record<string, string> = {
    "src/pages/tables.ts": 'export const pages = sqliteTable("pages", {\nexport const pageLinks = sqliteTable(\n  "page_links",\n',
    "src/platform/jobs/tables.ts": 'export const jobs = sqliteTable(\n  "jobs",\n',
    "src/imports/queries.ts": 'const q = "INSERT INTO pages (id) VALUES (?)";\ncore.db.insert(pageLinks).values(rows).run();\n',
    "src/attachments/copy.ts": "core.db.update(pages).set({ json }).run();\nsqlite.run(sql`delete from ${pageLinks} where x = 1`);\n",
    "src/commands/purge.ts": 'tx.delete(pages).where(eq(pages.id, id)).run();\nrun("INSERT OR IGNORE INTO `page_links` VALUES (?)");\n',
    "src/jobs-user/service.ts": "core.db.insert(jobs).values(job).run();\n",
    "src/collab/service.ts":
      "import { pages as rows, pageLinks } from " +
      '"../pages/tables";\ncore.db.update(rows).set(x).run();\ncore.db.delete(schema.pageLinks).run();\n',
    "src/pages/store.ts": 'core.db.insert(pages).values(rows).run();\ncore.sqlite.run("DELETE FROM page_links WHERE page_id = ?");\n',
    "src/pages/store/versions.ts": "core.db.update(pages).set(v).run();\n",
    "src/platform/jobs/runner.ts": "core.db.insert(jobs).values(job).run();\n",
    "src/pages/copy.test.ts": "core.db.insert(pages).values(row).run();\n",
    "src/pages/testing.ts": 'core.sqlite.run("UPDATE pages SET x = 1");\n',
    "src/pages/service.ts":
      "// we update pages here and delete from page_links there\n * UPDATE pages in the store\nconst n = pagesUpdate(pages);\n",
    "src/search/fts5-recent.ts": 'core.sqlite.run("DELETE FROM search_words WHERE rowid = ?");\n',
    "src/search/store/fts5-recent.ts": 'core.sqlite.run("DELETE FROM search_words WHERE rowid = ?");\n',
  };
  const tables = declaredTables(files, { search_words: "search" });
  expect(tables.map((t) => `${t.name}:${t.owner}`)).toEqual(["pages:pages", "page_links:pages", "jobs:platform", "search_words:search"]);
  expect(writesOutsideOwners(files, tables)).toEqual([
    "src/imports/queries.ts:1: INSERT pages (owner: pages)",
    "src/imports/queries.ts:2: .insert() page_links (owner: pages)",
    "src/attachments/copy.ts:1: .update() pages (owner: pages)",
    "src/attachments/copy.ts:2: DELETE page_links (owner: pages)",
    "src/commands/purge.ts:1: .delete() pages (owner: pages)",
    "src/commands/purge.ts:2: INSERT page_links (owner: pages)",
    "src/jobs-user/service.ts:1: .insert() jobs (owner: platform)",
    "src/collab/service.ts:2: .update() pages (owner: pages)",
    "src/collab/service.ts:3: .delete() page_links (owner: pages)",
    "src/search/fts5-recent.ts:1: DELETE search_words (owner: search)",
  ]);
});

test("the driver scan refuses core.sqlite and core.db outside the stores and the platform", () => {
  const found = driverOutsideStores({
    "src/pages/service.ts": "const row = core.db.select().from(pages).get();\n// core.sqlite is for stores\n",
    "src/commands/copy-page.ts": "const ok = 1;\nctx.core.sqlite.run(text);\n",
    "src/pages/store.ts": "core.db.select().from(pages).get();\n",
    "src/pages/store/links.ts": "core.sqlite.query(text);\n",
    "src/labels/queries.ts": "core.db.select().from(labels).all();\n",
    "src/platform/jobs/runner.ts": "core.db.insert(jobs).run();\n",
    "src/pages/service.test.ts": "core.sqlite.run(text);\n",
    "src/pages/core-db.ts": "const coreDb = other.db;\n",
    "src/labels/service.ts":
      'const s = perInstance(({ sqlite }: Core) => sqlite.query("x"));\nconst { db, clock } ' +
      '= ctx.core;\nconst m = new WeakMap<Core["sqlite"], number>();\n',
  });
  expect(found).toEqual([
    "src/pages/service.ts:1: core.db",
    "src/commands/copy-page.ts:2: core.sqlite",
    "src/labels/service.ts:1: { sqlite }: Core",
    "src/labels/service.ts:2: { db, clock } = ctx.core",
    'src/labels/service.ts:3: Core["sqlite"]',
  ]);
  expect(pathsOf(found)).toEqual(["src/commands/copy-page.ts", "src/labels/service.ts", "src/pages/service.ts"]);
});

test("the store scan refuses the driver read off the core in a store, and leaves driverOf and other files alone", () => {
  const found = storesReadingCoreDriver({
    "src/templates/store.ts": "driverOf(core).db.select().from(templates).all();\n// not core.db any more\n",
    "src/labels/store.ts": "core.db.select().from(labels).all();\n",
    "src/pages/store/rows.ts": 'const q = perInstance(({ sqlite }: Core) => sqlite.query("x"));\n',
    "src/labels/service.ts": "core.db.select().from(labels).all();\n",
  });
  expect(found).toEqual(["src/labels/store.ts:1: core.db", "src/pages/store/rows.ts:1: { sqlite }: Core"]);
  // Outside the stores and the platform, driverOf is the driver too.
  expect(
    driverOutsideStores({
      "src/labels/service.ts": "driverOf(core).db.select().from(labels).all();\n",
      "src/labels/store.ts": "driverOf(core).db;\n",
    }),
  ).toEqual(["src/labels/service.ts:1: driverOf("]);
});

test("a pending list refuses a new path in breach, a path that keeps the rule now, and disorder", () => {
  const found = ["src/a/service.ts:3: core.db", "src/b/service.ts:9: core.sqlite"];
  expect(() => checkAgainstPending(found, ["src/a/service.ts", "src/b/service.ts"])).not.toThrow();
  expect(() => checkAgainstPending(found, ["src/a/service.ts"])).toThrow();
  expect(() => checkAgainstPending(found, ["src/a/service.ts", "src/b/service.ts", "src/c/service.ts"])).toThrow();
  expect(() => checkAgainstPending(found, ["src/b/service.ts", "src/a/service.ts"])).toThrow();
});
