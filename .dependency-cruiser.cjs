/**
 * Import rules checked in CI (tests/architecture.test.ts). What holds today: no cycles, the
 * platform knows nothing of the domains above it, and the web UI is a client of the API (it
 * shares only the editor schema and pure URL rules of src/content with the server) whose
 * reading bundle carries no TipTap. Upward imports between domains (issue 13's layer order)
 * are not enforced yet.
 */
module.exports = {
  forbidden: [
    { name: "no-cycles", severity: "error", from: {}, to: { circular: true } },
    { name: "platform-below-domains", severity: "error", comment: "src/platform is framework-free foundations: it imports no domain", from: { path: "^src/platform/" }, to: { path: "^src/", pathNot: "^src/platform/" } },
    {
      name: "web-is-an-api-client",
      severity: "error",
      comment: "src/web talks to the server only through the public API; it shares src/content (the editor schema) and nothing else",
      from: { path: "^src/web/" },
      to: { path: "^src/", pathNot: "^src/(web|content)/" },
    },
    { name: "server-knows-no-web", severity: "error", comment: "the server serves the UI's built files; it imports none of its modules", from: { path: "^src/", pathNot: "^src/web/" }, to: { path: "^src/web/" } },
    {
      name: "tiptap-only-in-the-editor",
      severity: "error",
      comment: "the reading view renders with @tiptap/static-renderer; TipTap itself and the schema's extensions (150+ KB) load with the editor chunk",
      from: { path: "^src/web/", pathNot: "^src/web/features/editor/" },
      to: { path: "(^node_modules/@tiptap/(?!static-renderer)|^src/content/(?!urls\\.ts$))" },
    },
    {
      name: "lazy-chunks-stay-lazy",
      severity: "error",
      comment: "the editor and history load on first use: only dynamic import() (or types) may reach them from elsewhere",
      from: { path: "^src/web/", pathNot: "^src/web/features/(editor|history)/" },
      to: { path: "^src/web/features/(editor|history)/(?!index\\.ts$)", dependencyTypesNot: ["dynamic-import", "type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(\\.test\\.tsx?$|/testing\\.ts$|\\.d\\.ts$)" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
  },
};
