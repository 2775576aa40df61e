/**
 * Import rules checked in CI (tests/architecture.test.ts), written down in docs/architecture.md:
 *
 * - no cycles anywhere in src/;
 * - the server's layers (LAYERS below, bottom first): a module imports only its own layer and
 *   the layers below it. Every domain's tables.ts is the schema, one layer under the services
 *   (tables name each other's keys, as Outline's models do); routes.ts, *-routes.ts and
 *   schemas.ts are each domain's HTTP face and sit in the top layer with src/http;
 * - the web UI is a client of the API (it shares only the editor schema and pure URL rules of
 *   src/content, and the limits, rights and event names of src/common, with the server) whose
 *   reading bundle carries no TipTap;
 * - src/common imports nothing at all, so both the server and the browser bundle may take it.
 */
const LAYERS = [
  ["common"], // limits, rights, event names, the settings catalogue: imported by the web UI too
  ["platform"],
  ["db"], // with every domain's tables.ts: the schema
  ["core", "version", "startup-errors"],
  ["content", "identity", "events"],
  ["settings"],
  ["access", "users"],
  ["tokens", "groups", "auth", "roles"],
  ["spaces"],
  ["pages"],
  ["attachments", "labels", "comments", "watches", "templates", "permissions"],
  ["notifications", "webhooks", "audit", "search", "collab", "security", "branding", "media", "dashboard", "backups", "exports", "imports"],
  ["setup"],
  ["commands"],
  ["http", "system", "instance", "server", "cli", "main"],
];
const EDGE = "(/routes\\.ts|-routes\\.ts|/schemas\\.ts)$";
const TABLES = "^src/[^/]+/tables\\.ts$";
const under = (names) => `^src/(${names.join("|")})(/|\\.ts$)`;
const layerRules = LAYERS.slice(0, -1).map((names, i) => ({
  name: `layer-${names.join("-")}`,
  severity: "error",
  comment: `${names.join(", ")} import only their own layer and those below (docs/architecture.md)`,
  from: { path: under(names), pathNot: `(${EDGE}|${TABLES})` },
  to: { path: `(${under(LAYERS.slice(i + 1).flat())}|${EDGE})`, pathNot: TABLES },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "schema-is-only-tables",
      severity: "error",
      comment: "a tables.ts names other tables and platform helpers, nothing that runs above it",
      from: { path: TABLES },
      to: { path: "^src/", pathNot: `(${TABLES}|^src/platform/)` },
    },
    { name: "no-cycles", severity: "error", from: {}, to: { circular: true } },
    {
      name: "platform-below-domains",
      severity: "error",
      comment: "src/platform is framework-free foundations: it imports no domain",
      from: { path: "^src/platform/" },
      to: { path: "^src/", pathNot: "^src/(platform|common)/" },
    },
    {
      name: "common-imports-nothing",
      severity: "error",
      comment: "src/common is read by the server and the browser alike: plain data and pure functions, no imports but its own",
      from: { path: "^src/common/" },
      to: { pathNot: "^src/common/" },
    },
    {
      name: "web-is-an-api-client",
      severity: "error",
      comment:
        "src/web talks to the server only through the public API; it shares src/content (the editor schema) and " +
        "src/common (limits, rights, event names, the settings catalogue) and nothing else",
      from: { path: "^src/web/" },
      to: { path: "^src/", pathNot: "^src/(web|content|common)/" },
    },
    {
      name: "server-knows-no-web",
      severity: "error",
      comment: "the server serves the UI's built files; it imports none of its modules",
      from: { path: "^src/", pathNot: "^src/web/" },
      to: { path: "^src/web/" },
    },
    {
      name: "tiptap-only-in-the-editor",
      severity: "error",
      comment:
        "the reading view renders with @tiptap/static-renderer; TipTap itself and the " +
        "schema's extensions (150+ KB) load with the editor chunk",
      from: { path: "^src/web/", pathNot: "^src/web/features/editor/" },
      // The reading styles (reading.css, reading-theme.css) are shared with the exports; CSS carries no TipTap.
      // page-links.ts (which ids a document links to, what an unseen page reads as) and task-name.ts
      // (a task box's accessible name, drawn alike by the server's HTML) and person-color.ts (a
      // person's colour, stamped on carets by the server too) and image-hosts.ts (which images of
      // other sites are shown, the rule of the server's policy header too) and first-screen.ts (where a
      // cold view's first paint cuts a document, the server's page too) and elements.ts (each node's
      // and mark's element, attributes and class, the server's HTML renderer's too) import nothing.
      to: {
        path:
          "(^node_modules/@tiptap/(?!static-renderer)|^src/content/(?!urls\\.ts$|page-links\\.ts$|task-name\\.ts$|" +
          "first-screen\\.ts$|person-color\\.ts$|image-hosts\\.ts$|elements\\.ts$|[^/]+\\.css$))",
      },
    },
    {
      name: "lazy-chunks-stay-lazy",
      severity: "error",
      comment: "the editor and history load on first use: only dynamic import() (or types) may reach them from elsewhere",
      from: { path: "^src/web/", pathNot: "^src/web/features/(editor|history)/" },
      to: { path: "^src/web/features/(editor|history)/(?!index\\.ts$)", dependencyTypesNot: ["dynamic-import", "type-only"] },
    },
    {
      name: "server-has-no-dev-dependencies",
      severity: "error",
      comment: "what src/ imports is bundled into the binary; devDependencies (playwright-core for the browser tests, …) stay out of it",
      from: { path: "^src/", pathNot: "-testing\\.ts$" },
      to: { dependencyTypes: ["npm-dev"] },
    },
    {
      name: "image-codecs-load-on-first-use",
      severity: "error",
      comment: "the codecs' glue and WebAssembly load with the first image, not at start: only dynamic import() (or types) may reach them",
      from: { path: "^src/" },
      to: { path: "^src/platform/image-codecs\\.ts$", dependencyTypesNot: ["dynamic-import", "type-only", "type-import"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(\\.test\\.tsx?$|/testing\\.ts$|\\.d\\.ts$)" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
  },
};
