/**
 * Builds the single executable: `bun run build` writes dist/cairn; `bun run build:arm64`
 * (`--target=bun-linux-arm64`) writes dist/cairn-linux-arm64. The flags are the ones in
 * STACK.md "Building the single binary"; each is there for a measured reason (cold start,
 * bundle mode, no stray .env), so change them only with new measurements.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { bundleUi } from "../src/http/ui-bundle";
import { makeEmptyDatabase } from "../src/db/empty-database";
import { writeAboutEmbed } from "./about-embed";

const root = join(import.meta.dir, "..");

export interface BuildResult {
  outfile: string;
  bytes: number;
}

/** Output name for a target: the host build is plain dist/cairn. */
export function outfileFor(target?: string, distDir = join(root, "dist")): string {
  return join(distDir, target ? `cairn-${target.replace(/^bun-/, "")}` : "cairn");
}

async function run(cmd: string[], quiet: boolean): Promise<void> {
  const proc = Bun.spawn(cmd, { cwd: root, stdout: quiet ? "pipe" : "inherit", stderr: "inherit" });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited with ${code}`);
}

/**
 * The web UI, bundled into dist/web/, and the binary's entry (dist/entry.ts): it registers each
 * UI file, embedded with a `file` import, before src/main.ts runs, so the compiled server
 * serves them without bundling anything at run time.
 */
async function writeUiEntry(distDir: string): Promise<string> {
  const webDir = join(distDir, "web");
  rmSync(webDir, { recursive: true, force: true });
  mkdirSync(webDir, { recursive: true });
  const { files, metafile } = await bundleUi();
  // About: the packages in the server and UI bundles, with their licences (scripts/about-embed.ts).
  await writeAboutEmbed(distDir, metafile);
  const imports: string[] = [];
  const entries: string[] = [];
  let i = 0;
  const embed = (name: string) => {
    imports.push(`import f${i} from "./web/${name}" with { type: "file" };`);
    entries.push(`  ${JSON.stringify(name)}: f${i},`);
    i++;
  };
  for (const [name, blob] of files) {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    writeFileSync(join(webDir, name), bytes);
    // Text is embedded gzipped only, so the server never compresses (or holds) it at run time,
    // and the binary carries one copy (src/http/ui.ts unzips it for a client without gzip).
    if (/\.(js|css|html|svg|json)$/.test(name)) {
      writeFileSync(join(webDir, `${name}.gz`), Bun.gzipSync(bytes, { level: 9 }));
      embed(`${name}.gz`);
    } else embed(name);
  }
  const header = "// Written by scripts/build.ts. Do not edit.";
  const src = relative(distDir, join(root, "src"));
  // The API reference's Scalar bundle (4 MB) is embedded gzipped only (src/http/docs.ts serves it).
  const scalar = await Bun.file(join(root, "node_modules/@scalar/api-reference/dist/browser/standalone.js")).bytes();
  writeFileSync(join(webDir, "scalar.js.gz"), Bun.gzipSync(scalar, { level: 9 }));
  imports.push(`import scalarGz from "./web/scalar.js.gz" with { type: "file" };`, `import { embedScalar } from "${src}/http/docs-page";`);
  // The empty database a first start writes instead of running the migrations (platform/db/empty-image.ts).
  const scratch = mkdtempSync(join(tmpdir(), "cairn-build-"));
  try {
    writeFileSync(join(webDir, "empty.db.gz"), Bun.gzipSync(makeEmptyDatabase(scratch), { level: 9 }));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  imports.push(
    `import emptyDbGz from "./web/empty.db.gz" with { type: "file" };`,
    `import { embedEmptyDatabase } from "${src}/platform/db/empty-image";`,
  );
  writeFileSync(
    join(distDir, "web-embed.ts"),
    `${header}\n${imports.join("\n")}\nimport { embedUi } from ` +
      `"${src}/http/ui";\nembedUi({\n${entries.join("\n")}\n});\nembedScalar(scalarGz);\nembedEmptyDatabase(emptyDbGz);\n`,
  );
  // Imports run in order: the UI is registered before the server starts.
  const entry = join(distDir, "entry.ts");
  writeFileSync(entry, `${header}\nimport "./web-embed";\nimport "./about-embed";\nimport "${src}/main";\n`);
  return entry;
}

/**
 * Which functions' bytecode a start uses, in the order it used them (written by
 * scripts/record-bytecode-order.ts). Bun lays that bytecode out together at the front of the
 * embedded bundle, so an idle server has ~3 MB of it resident instead of ~7 MB scattered over
 * the whole bundle. Functions added since it was recorded simply go after it.
 */
export const BYTECODE_ORDER = join(root, "scripts", "bytecode-order.txt.gz");

/** The recorded order, unzipped beside the build's other inputs; none if it was never recorded. */
function bytecodeOrderFile(distDir: string): string[] {
  if (!existsSync(BYTECODE_ORDER)) return [];
  const path = join(distDir, "bytecode-order.txt");
  writeFileSync(path, Bun.gunzipSync(readFileSync(BYTECODE_ORDER)));
  return [`--bytecode-order=${path}`];
}

/** How much more reluctant the JIT is until start-up is over (1 is JavaScriptCore's normal policy). */
const START_JIT_POLICY = 1_000;

/** `distDir`: where to write (dist/ by default; the browser tests build into their own). */
export async function build(opts: { target?: string; quiet?: boolean; distDir?: string } = {}): Promise<BuildResult> {
  const quiet = opts.quiet ?? false;
  const distDir = opts.distDir ?? join(root, "dist");
  // Regenerate so the binary embeds exactly the migrations in migrations/.
  await run(["bun", "scripts/gen-migrations.ts"], quiet);
  const entry = await writeUiEntry(distDir);
  const outfile = outfileFor(opts.target, distDir);
  const args = [
    "bun",
    "build",
    entry,
    "--compile",
    "--minify",
    "--bytecode",
    "--format=esm",
    "--splitting",
    "--define",
    'process.env.NODE_ENV="production"',
    "--no-compile-autoload-dotenv",
    // Start-up runs with the JIT's tier-up thresholds scaled 1,000 times: it is code that runs
    // once; the server and each command go back to the normal policy (src/platform/jit-policy.ts).
    `--compile-jit-policy=${START_JIT_POLICY}`,
    ...bytecodeOrderFile(distDir),
    "--outfile",
    outfile,
  ];
  if (opts.target) args.push(`--target=${opts.target}`);
  await run(args, quiet);
  return { outfile, bytes: statSync(outfile).size };
}

if (import.meta.main) {
  const target = process.argv
    .slice(2)
    .find((a) => a.startsWith("--target="))
    ?.slice("--target=".length);
  try {
    const { outfile, bytes } = await build({ target });
    console.log(`${outfile}: ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  } catch (err) {
    console.error(`build failed: ${(err as Error).message}`);
    process.exit(1);
  }
}
