/**
 * The third-party packages Cairn ships, with their licences, for About (GET /api/admin/about)
 * and the third-party notices (…/about/notices).
 *
 * - `bun run build` lists exactly the packages the bundler put in the binary: the server's
 *   bundle and the web UI's (their metafiles name every input file; the package is the folder
 *   under node_modules/ that holds it), and embeds the list and the notices (scripts/build.ts →
 *   dist/about-embed.ts → embedAbout).
 * - From source (`bun run start`, tests) nothing was bundled: the list is every package reached
 *   from package.json's `dependencies` through theirs (a superset of what a build would ship).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface Dependency {
  name: string;
  version: string;
  /** The SPDX expression from its package.json ("MIT", "(MIT OR CC0-1.0)"), or "UNKNOWN". */
  license: string;
  /** Its home page or repository, when the package names one. */
  url: string | null;
}

export interface AboutData {
  /** ISO time of the build; null when running from source. */
  builtAt: string | null;
  /** "build": the bundler's list; "node_modules": computed from package.json at run time. */
  source: "build" | "node_modules";
  dependencies: Dependency[];
  notices: string;
}

const ROOT = join(import.meta.dir, "..", "..");

/** Package folders holding the metafiles' inputs (node_modules/<name> or node_modules/@scope/<name>). */
export function packagesOfMetafiles(metafiles: { inputs: Record<string, unknown> }[], cwd = ROOT): string[] {
  const dirs = new Set<string>();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const at = input.lastIndexOf("node_modules/");
      if (at < 0) continue;
      const rest = input.slice(at + "node_modules/".length).split("/");
      const name = rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
      const base = input.startsWith("/") ? input.slice(0, at) : join(cwd, input.slice(0, at));
      dirs.add(join(base, "node_modules", name));
    }
  }
  return [...dirs];
}

/** Every package reached from the root package.json's dependencies (Node's resolution: nearest node_modules up). */
export function productionPackages(root = ROOT): string[] {
  const seen = new Set<string>();
  const walk = (dir: string) => {
    const pkg = readJson(join(dir, "package.json"));
    for (const dep of [...Object.keys(pkg?.dependencies ?? {}), ...Object.keys(pkg?.optionalDependencies ?? {})]) {
      const found = resolvePackage(dep, dir);
      if (!found || seen.has(found)) continue;
      seen.add(found);
      walk(found);
    }
  };
  walk(root);
  return [...seen];
}

function resolvePackage(name: string, from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

const LICENCE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;

/** The list (sorted by name, one entry per name and version) and the notices text for these package folders. */
export function describePackages(dirs: string[]): { dependencies: Dependency[]; notices: string } {
  const byKey = new Map<string, { dep: Dependency; texts: string[] }>();
  for (const dir of dirs) {
    const pkg = readJson(join(dir, "package.json"));
    if (!pkg?.name || pkg.name === "cairn") continue;
    const key = `${pkg.name}@${pkg.version}`;
    if (byKey.has(key)) continue;
    const texts = readdirSync(dir)
      .filter((f) => LICENCE_FILE.test(f))
      .sort()
      .map((f) => readFileSync(join(dir, f), "utf8").trim());
    byKey.set(key, { dep: { name: pkg.name, version: String(pkg.version ?? ""), license: licenseOf(pkg), url: urlOf(pkg) }, texts });
  }
  const entries = [...byKey.values()].sort((a, b) => a.dep.name.localeCompare(b.dep.name) || a.dep.version.localeCompare(b.dep.version));
  const notices = entries
    .map(({ dep, texts }) => {
      const head = `${dep.name} ${dep.version}${dep.url ? ` (${dep.url})` : ""}\nLicence: ${dep.license}`;
      const body = texts.length ? texts.join("\n\n") : "The package ships no licence file; its package.json names the licence above.";
      return `${"=".repeat(78)}\n${head}\n${"-".repeat(78)}\n${body}\n`;
    })
    .join("\n");
  const header =
    `Third-party software in Cairn\n\nCairn includes the following ${entries.length} ` +
    `packages. Each is distributed under its own licence, reproduced below.\n\n`;
  return { dependencies: entries.map((e) => e.dep), notices: header + notices };
}

function licenseOf(pkg: Record<string, any>): string {
  if (typeof pkg.license === "string") return pkg.license;
  if (pkg.license?.type) return String(pkg.license.type);
  if (Array.isArray(pkg.licenses)) return pkg.licenses.map((l: any) => l?.type ?? l).join(" OR ");
  return "UNKNOWN";
}

function urlOf(pkg: Record<string, any>): string | null {
  const raw = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
  const repo =
    typeof raw === "string"
      ? raw
          .replace(/^git\+/, "")
          .replace(/\.git$/, "")
          .replace(/^git:\/\//, "https://")
      : null;
  if (repo && /^https?:\/\//.test(repo)) return repo;
  if (repo && /^github:/.test(repo)) return `https://github.com/${repo.slice(7)}`;
  if (repo && /^[\w.-]+\/[\w.-]+$/.test(repo)) return `https://github.com/${repo}`;
  return typeof pkg.homepage === "string" && /^https?:\/\//.test(pkg.homepage) ? pkg.homepage : null;
}

function readJson(path: string): Record<string, any> | null {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

let embedded: AboutData | null = null;
let computed: AboutData | null = null;

/** Called by the binary's entry (written by scripts/build.ts) before the server starts. */
export function embedAbout(data: { builtAt: string; dependencies: Dependency[] }, notices: string): void {
  embedded = { builtAt: data.builtAt, source: "build", dependencies: data.dependencies, notices };
}

/** What the build embedded, or (from source) the list computed from node_modules once. */
export function aboutData(): AboutData {
  if (embedded) return embedded;
  computed ??= { builtAt: null, source: "node_modules", ...describePackages(productionPackages()) };
  return computed;
}

/** For scripts/build.ts: the list and notices of the packages in these bundles. */
export function aboutOfBundles(metafiles: { inputs: Record<string, unknown> }[]): { dependencies: Dependency[]; notices: string } {
  return describePackages(packagesOfMetafiles(metafiles).filter((d) => existsSync(join(d, "package.json"))));
}
