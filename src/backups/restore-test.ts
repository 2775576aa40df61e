/**
 * The checks a restored copy must pass before it may replace the live data (docs/decisions.md,
 * "Heavy checks run in a child process of the same executable"): PRAGMA integrity_check, the
 * foreign keys, migrations up to this binary's schema, the audit chain, and every file the copy
 * refers to present in files/ with its SHA-256.
 *
 * They read the whole copy (integrity_check alone holds its thread for seconds on a large
 * file), so the server runs them in a child process of its own executable (restore-child.ts):
 * the server's event loop never waits on them. The child migrates the copy in place: it is a
 * scratch copy, and the swap wants it at today's schema.
 */
import type { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { walkAuditChain } from "../audit/service";
import { migrations } from "../db/migrations.gen";
import { danglingReferences, integrityProblems } from "../platform/db/check-file";
import { migrate } from "../platform/db/migrate";
import { openSqlite, toDrizzle } from "../platform/db/open";
import { describeCopy } from "./queries";

export type CheckName = "integrity" | "migrations" | "foreign_keys" | "audit_chain" | "files";

export interface CheckResult {
  name: CheckName;
  ok: boolean;
  detail: string;
  problems: string[];
}

export interface CheckReport {
  ok: boolean;
  checks: CheckResult[];
  schemaVersion: string;
  auditHead: { sequence: number; hash: string } | null;
  files: { referenced: number; missing: string[]; mismatched: string[] };
  ms: number;
}

const MAX_LISTED = 20;

function run(name: CheckName, checks: CheckResult[], fn: () => { detail: string; problems?: string[] }): boolean {
  try {
    const { detail, problems = [] } = fn();
    checks.push({ name, ok: problems.length === 0, detail, problems: problems.slice(0, MAX_LISTED) });
  } catch (err) {
    checks.push({ name, ok: false, detail: err instanceof Error ? err.message : String(err), problems: [] });
  }
  return checks.at(-1)!.ok;
}

/** Streams a file through SHA-256 (a large attachment never sits in memory whole). */
async function sha256Of(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  const reader = Bun.file(path).stream().getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) hasher.update(r.value);
  return hasher.digest("hex");
}

/** Runs every check on `copyPath` (migrating it in place) in this process: the child's work. */
export async function checkCopy(copyPath: string, filesDir: string, now: number): Promise<CheckReport> {
  const started = performance.now();
  const checks: CheckResult[] = [];
  let schemaVersion = "";
  let auditHead: CheckReport["auditHead"] = null;
  const files = { referenced: 0, missing: [] as string[], mismatched: [] as string[] };
  let db: Database | null = null;
  try {
    db = openSqlite(copyPath);
  } catch (err) {
    checks.push({
      name: "integrity",
      ok: false,
      detail: `The copy does not open as an SQLite database: ${(err as Error).message}`,
      problems: [],
    });
  }
  if (db) {
    const sqlite = db;
    run("integrity", checks, () => {
      const problems = integrityProblems(sqlite, MAX_LISTED);
      return { detail: problems.length ? "PRAGMA integrity_check found damage." : "PRAGMA integrity_check: ok.", problems };
    });
    run("migrations", checks, () => {
      const result = migrate(sqlite, migrations, null, now);
      return {
        detail: result.applied.length
          ? `Migrated to this version's schema: ${result.applied.join(", ")}.`
          : "Already at this version's schema.",
      };
    });
    run("foreign_keys", checks, () => {
      const dangling = danglingReferences(sqlite, MAX_LISTED);
      return {
        detail: dangling.count ? `${dangling.count} reference(s) to rows that do not exist.` : "Every reference points at a row.",
        problems: dangling.first,
      };
    });
    run("audit_chain", checks, () => {
      const chain = walkAuditChain({ db: toDrizzle(sqlite) });
      auditHead = chain.lastSequence > 0 ? { sequence: chain.lastSequence, hash: chain.lastHash } : null;
      return chain.ok
        ? { detail: `The audit chain verifies (${chain.checked} entries).` }
        : { detail: "The audit chain is broken.", problems: [chain.problem ?? "broken"] };
    });
    sqlite.close();
  }
  try {
    const contents = describeCopy(copyPath);
    schemaVersion = contents.schemaVersion;
    files.referenced = contents.files.length;
    for (const sha of contents.files) {
      const path = join(filesDir, sha.slice(0, 2), sha.slice(2));
      if (!existsSync(path)) files.missing.push(sha);
      else if ((await sha256Of(path)) !== sha) files.mismatched.push(sha);
    }
    const problems = [...files.missing.map((s) => `missing: ${s}`), ...files.mismatched.map((s) => `does not match its hash: ${s}`)];
    checks.push({
      name: "files",
      ok: problems.length === 0,
      detail: problems.length
        ? `${problems.length} of ${files.referenced} referenced files are missing or damaged.`
        : `All ${files.referenced} referenced files are present and match their hashes.`,
      problems: problems.slice(0, MAX_LISTED),
    });
  } catch (err) {
    checks.push({
      name: "files",
      ok: false,
      detail: `The copy's file references could not be read: ${(err as Error).message}`,
      problems: [],
    });
  }
  return { ok: checks.every((c) => c.ok), checks, schemaVersion, auditHead, files, ms: Math.round(performance.now() - started) };
}
