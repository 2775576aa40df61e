/**
 * What the UI's entry chunk holds: a cold page view fetches, compiles and evaluates all of it
 * before its first paint, so what reading a page does not need stays in chunks loaded later
 * (the toaster, the menus and dialogs, the tree, the editor).
 */
import { describe, expect, test } from "bun:test";
import { bundleUi, EAGER_COMPILE } from "./ui-bundle";

describe("the UI's entry chunk", () => {
  test("holds no toaster, Radix, floating-ui, drag and drop, virtual list or editor, and stays under its size", async () => {
    const { files, metafile } = await bundleUi();
    const [name, entry] = Object.entries(metafile!.outputs).find(
      ([n, o]) => n.endsWith(".js") && (o as { entryPoint?: string }).entryPoint?.endsWith("web/index.html"),
    )!;
    const packages = new Set(
      Object.keys(entry.inputs)
        .map((p) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p)?.[1])
        .filter(Boolean),
    );
    for (const lazy of [
      "sonner",
      "@radix-ui/react-dropdown-menu",
      "@radix-ui/react-dialog",
      "@floating-ui/dom",
      "@atlaskit/pragmatic-drag-and-drop",
      "@tanstack/react-virtual",
      "@tiptap/core",
      "prosemirror-view",
      "highlight.js",
    ]) {
      expect(`${lazy} in ${name}: ${packages.has(lazy)}`).toBe(`${lazy} in ${name}: false`);
    }
    // 366 KB minified when the toaster and Radix left it (497 KB before); react-dom is 209 KB of it.
    expect(entry.bytes).toBeLessThan(380_000);
    // Its functions compiled while it streams in (the hint is its first line), not one by one in the first render.
    expect((await files.get(name.replace(/^\.\//, ""))!.text()).startsWith(EAGER_COMPILE)).toBe(true);
  }, 60_000);
});
