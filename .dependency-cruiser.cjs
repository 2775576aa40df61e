/**
 * Import rules checked in CI (tests/architecture.test.ts). What holds today: no cycles, and the
 * platform knows nothing of the domains above it. Upward imports between domains (issue 13's
 * layer order) are not enforced yet.
 */
module.exports = {
  forbidden: [
    { name: "no-cycles", severity: "error", from: {}, to: { circular: true } },
    { name: "platform-below-domains", severity: "error", comment: "src/platform is framework-free foundations: it imports no domain", from: { path: "^src/platform/" }, to: { path: "^src/", pathNot: "^src/platform/" } },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(\\.test\\.ts$|/testing\\.ts$)" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
  },
};
