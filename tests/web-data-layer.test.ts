/**
 * The web client's data layer, checked on its source: every request goes through the typed
 * client (src/web/api/client.ts), every upload through api/upload.ts, the one raw request (a
 * file the server sends) through api/download.ts; and no screen keeps its own busy flag around a
 * write: writes are `use…Mutation` hooks run through lib/mutation.ts (`useAction`), which owns
 * the pending state, the error's words and the toast.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

/** The one module that may call `fetch(` (downloads), and the one that may use XMLHttpRequest (uploads). */
const FETCH_HOME = "src/web/api/download.ts";
const XHR_HOME = "src/web/api/upload.ts";

/** Code without its comments, so a comment that names `fetch(` or a busy flag is not a finding. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

/** A raw request: `fetch(` that is not a method of something else (`refetch(`, `x.fetch(`), or an XMLHttpRequest. */
const rawFetch = (text: string) => /(^|[^\w.])fetch\(/m.test(code(text));
const rawXhr = (text: string) => /\bXMLHttpRequest\b/.test(code(text));

/**
 * A hand-rolled busy flag: a state named busy/saving/submitting/working, a state object holding
 * one (`setClosing({ busy: "discard", … })`), or any flag put back in a `finally`
 * (`finally { setSending(null) }`), the shape of a request's own pending state.
 */
const handRolledBusy = (text: string) =>
  /\bset(Busy|Saving|Submitting|Working|Pending)\(/.test(code(text)) ||
  /const \[(busy|saving|submitting|working|pending), set\w+\] = useState/.test(code(text)) ||
  /useState<\{[^>]*\b(busy|saving|pending)\??:/.test(code(text)) ||
  /\bset\w+\(\{\s*(busy|saving|pending):/.test(code(text)) ||
  /finally\s*\{\s*set\w+\((false|null)\);?\s*\}/.test(code(text));

async function webSources(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const path of new Bun.Glob("src/web/**/*.{ts,tsx}").scan({ cwd: root })) {
    if (path.endsWith(".test.ts") || path.endsWith(".d.ts")) continue;
    files[path] = await Bun.file(join(root, path)).text();
  }
  return files;
}

test("the scans find what they look for, and not a comment or a refetch", () => {
  expect(rawFetch(`const r = await fetch("/api/x");`)).toBe(true);
  expect(rawFetch(`// fetch("/api/x") would not do\nvoid list.refetch();\nwindow.x.fetch(1);`)).toBe(false);
  expect(rawXhr(`const xhr = new XMLHttpRequest();`)).toBe(true);
  expect(rawXhr(`/** unlike XMLHttpRequest */ const x = 1;`)).toBe(false);
  expect(handRolledBusy(`const [busy, setBusy] = useState(false);`)).toBe(true);
  expect(handRolledBusy(`try { setSaving(true); await save(); } finally { setSaving(false); }`)).toBe(true);
  expect(handRolledBusy(`try { await send(d); } finally {\n  setSending(null);\n}`)).toBe(true);
  expect(
    handRolledBusy(
      `const [closing, setClosing] = useState<{ busy: "publish" | null; error: string | null }>({ busy: null, error: null });`,
    ),
  ).toBe(true);
  expect(handRolledBusy(`setClosing({ busy: "discard", error: null });`)).toBe(true);
  expect(handRolledBusy(`const save = useAction(useSaveMutation()); <Button busy={save.busy} />`)).toBe(false);
  expect(handRolledBusy(`<CloseDialog busy={discarding.busy ? "discard" : null} error={discarding.error} />`)).toBe(false);
  expect(handRolledBusy(`const [deleting, setDeleting] = useState<Template | null>(null);`)).toBe(false);
  expect(handRolledBusy(`try { await x(); } finally { timer.stop(); }`)).toBe(false);
});

test("requests leave the web client only through the typed client, the upload helper and the download helper", async () => {
  const files = await webSources();
  expect(Object.keys(files).length).toBeGreaterThan(100);
  const fetching = Object.keys(files).filter((path) => path !== FETCH_HOME && rawFetch(files[path]!));
  const xhr = Object.keys(files).filter((path) => path !== XHR_HOME && rawXhr(files[path]!));
  expect(fetching).toEqual([]);
  expect(xhr).toEqual([]);
  expect(rawFetch(files[FETCH_HOME]!)).toBe(true);
  expect(rawXhr(files[XHR_HOME]!)).toBe(true);
});

test("no screen keeps its own busy flag around a write", async () => {
  const files = await webSources();
  // The editor's save paths and the settings cards were the last (docs/decisions.md, "The data layer").
  expect(Object.keys(files)).toContain("src/web/features/editor/CollabSession.tsx");
  expect(Object.keys(files).filter((path) => handRolledBusy(files[path]!))).toEqual([]);
});
