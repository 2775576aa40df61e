/**
 * For scripts/build.ts: the About data the binary carries (system/about-deps.ts). The packages
 * listed are exactly those the bundler used, for the server (bundled here once more, only for
 * its metafile) and for the web UI (the metafile of the UI bundle the build embeds). Writes
 * dist/about.json, dist/notices.txt and dist/about-embed.ts, which the entry imports first.
 */
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { aboutOfBundles } from "../src/system/about-deps";

const root = join(import.meta.dir, "..");

export async function writeAboutEmbed(distDir: string, uiMetafile: Bun.BuildMetafile | undefined): Promise<{ packages: number }> {
  // chromium-bidi stays out as in the binary's build (scripts/build.ts says why).
  const server = await Bun.build({
    entrypoints: [join(root, "src", "main.ts")],
    target: "bun",
    metafile: true,
    external: ["chromium-bidi", "chromium-bidi/*"],
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!server.success || !server.metafile) throw new Error(`the server bundle for the dependency list failed:\n${server.logs.join("\n")}`);
  const { dependencies, notices } = aboutOfBundles([server.metafile, ...(uiMetafile ? [uiMetafile] : [])]);
  writeFileSync(join(distDir, "about.json"), JSON.stringify({ builtAt: new Date().toISOString(), dependencies }));
  writeFileSync(join(distDir, "notices.txt"), notices);
  const src = relative(distDir, join(root, "src"));
  writeFileSync(
    join(distDir, "about-embed.ts"),
    `// Written by scripts/build.ts. Do not edit.\nimport about from "./about.json" with { type: "json" };\nimport notices from ` +
      `"./notices.txt" with { type: "text" };\nimport { embedAbout } from "${src}/system/about-deps";\nembedAbout(about, notices);\n`,
  );
  return { packages: dependencies.length };
}
