/**
 * The import rules of .dependency-cruiser.cjs (written down in docs/architecture.md), checked on
 * every run: no import cycles anywhere in src/; the server's layers import only downwards;
 * src/platform imports no domain; the web UI imports no server code but the editor schema, and
 * keeps TipTap, the editor and history out of its reading bundle.
 */
import { expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const root = join(import.meta.dir, "..");
const depcruise = join(root, "node_modules", ".bin", "depcruise");

function cruise(cwd: string, config: string) {
  const run = Bun.spawnSync([depcruise, "src", "--config", config, "--output-type", "err"], { cwd, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
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
