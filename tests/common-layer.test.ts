/**
 * src/common is what the server and the web UI both import (limits, rights, event names, the
 * settings catalogue): the rules of .dependency-cruiser.cjs let the web reach it and nothing else
 * of the server, and keep it importing nothing, so it stays safe in the browser bundle. A small
 * tree with one import of each kind shows that the rules still fire.
 */
import { expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const root = join(import.meta.dir, "..");

test("the web may import src/common; src/common imports nothing outside itself", () => {
  const dir = mkdtempSync(join(tmpdir(), "cairn-common-"));
  try {
    const files: Record<string, string> = {
      "src/common/limits.ts": 'import { now } from "../platform/clock";\nexport const MAX = now;\n',
      "src/common/rights.ts": 'import { MAX } from "./limits";\nexport const R = MAX;\n',
      "src/platform/clock.ts": "export const now = 1;\n",
      "src/web/Form.tsx": 'import { R } from "../common/rights";\nexport const f = R;\n',
      "src/web/Other.tsx": 'import { rule } from "../settings/rules";\nexport const o = rule;\n',
      "src/settings/rules.ts": 'import { MAX } from "../common/limits";\nexport const rule = MAX;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    cpSync(join(root, ".dependency-cruiser.cjs"), join(dir, "rules.cjs"));
    writeFileSync(join(dir, "tsconfig.json"), "{}");
    const run = Bun.spawnSync([join(root, "node_modules", ".bin", "depcruise"), "src", "--config", "rules.cjs", "--output-type", "err"], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1" },
    });
    const out = (run.stdout.toString() + run.stderr.toString()).replace(/\x1b\[[0-9;]*m/g, "");
    expect(out).toContain("common-imports-nothing: src/common/limits.ts → src/platform/clock.ts");
    expect(out).toContain("web-is-an-api-client: src/web/Other.tsx → src/settings/rules.ts");
    expect(out).not.toContain("src/web/Form.tsx →");
    expect(out).not.toContain("src/settings/rules.ts →");
    expect(out).not.toContain("src/common/rights.ts →");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
