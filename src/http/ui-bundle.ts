/**
 * Bundles the web UI (src/web/index.html and everything it imports) with Bun.build: split into
 * the reading entry and lazy chunks (the editor, history), minified, in production mode, with
 * hashed names under /assets/. `bun run build` writes the result next to the binary and embeds
 * it; `bun run start` and the in-process tests bundle it in memory on first use (ui.ts).
 */
import { join } from "node:path";

export const UI_ENTRY = join(import.meta.dir, "..", "web", "index.html");
export const ASSET_PREFIX = "/assets/";
/** The per-file compile hint (a comment: other engines ignore it). */
export const EAGER_COMPILE = "//# allFunctionsCalledOnLoad\n";

export interface UiBundle {
  /** File name (no directory) → its bytes. index.html is the app's page. */
  files: Map<string, Blob>;
  metafile: Bun.BuildMetafile | undefined;
}

export async function bundleUi(): Promise<UiBundle> {
  const result = await Bun.build({
    entrypoints: [UI_ENTRY],
    target: "browser",
    splitting: true,
    // CAIRN_UI_MINIFY=0 keeps names, for reading a browser profile of the page view.
    minify: process.env.CAIRN_UI_MINIFY !== "0",
    metafile: true,
    publicPath: ASSET_PREFIX,
    naming: { entry: "[name].[ext]", chunk: "[name]-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) throw new Error(`the web UI did not build:\n${result.logs.join("\n")}`);
  const files = new Map<string, Blob>();
  for (const out of result.outputs) {
    const name = out.path.replace(/^.*\//, "");
    // The entry chunk runs on every first view: Chromium (136 and later) compiles all its
    // functions eagerly on the thread that streams it in, instead of one by one on the main
    // thread during the first render, when the file begins with this comment.
    files.set(
      name,
      out.kind === "entry-point" && name.endsWith(".js") ? new Blob([EAGER_COMPILE, await out.arrayBuffer()], { type: out.type }) : out,
    );
  }
  return { files, metafile: result.metafile };
}
