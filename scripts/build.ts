/**
 * Builds the single executable: `bun run build` writes dist/cairn; `bun run build:arm64`
 * (`--target=bun-linux-arm64`) writes dist/cairn-linux-arm64. The flags are the ones in
 * STACK.md "Building the single binary"; each is there for a measured reason (cold start,
 * bundle mode, no stray .env), so change them only with new measurements.
 */
import { statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

export interface BuildResult {
  outfile: string;
  bytes: number;
}

/** Output name for a target: the host build is plain dist/cairn. */
export function outfileFor(target?: string): string {
  return join(root, "dist", target ? `cairn-${target.replace(/^bun-/, "")}` : "cairn");
}

async function run(cmd: string[], quiet: boolean): Promise<void> {
  const proc = Bun.spawn(cmd, { cwd: root, stdout: quiet ? "pipe" : "inherit", stderr: "inherit" });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited with ${code}`);
}

export async function build(opts: { target?: string; quiet?: boolean } = {}): Promise<BuildResult> {
  const quiet = opts.quiet ?? false;
  // Regenerate so the binary embeds exactly the migrations in migrations/.
  await run(["bun", "scripts/gen-migrations.ts"], quiet);
  const outfile = outfileFor(opts.target);
  const args = [
    "bun", "build", "src/main.ts",
    "--compile", "--minify", "--bytecode", "--format=esm",
    "--define", 'process.env.NODE_ENV="production"',
    "--no-compile-autoload-dotenv",
    "--outfile", outfile,
  ];
  if (opts.target) args.push(`--target=${opts.target}`);
  await run(args, quiet);
  return { outfile, bytes: statSync(outfile).size };
}

if (import.meta.main) {
  const target = process.argv.slice(2).find((a) => a.startsWith("--target="))?.slice("--target=".length);
  try {
    const { outfile, bytes } = await build({ target });
    console.log(`${outfile}: ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  } catch (err) {
    console.error(`build failed: ${(err as Error).message}`);
    process.exit(1);
  }
}
