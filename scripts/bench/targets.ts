/**
 * The speed targets the benchmark holds a build to, in one place. They are the figures the
 * project promises a small machine (docs/decisions.md, "Benchmark"): a run "meets every target"
 * only when each of these is met on a quiet machine. Earlier, looser figures lived beside each
 * scenario; they were raised together to these.
 */
export const TARGETS = {
  /** exec → the first 200 from /api/health, median of the cold starts. */
  coldStartMs: 80,
  /** RSS of a started server left idle. */
  idleRssMb: 65,
  binaryMb: 120,
  /** Requests per second as a share of a bare Bun.serve in the same run. */
  authMeShare: 0.5,
  pageGetShare: 0.4,
  pageGetP99Ms: 5,
  /** PUT of a page, a new version each time. */
  putRps: 1500,
  /** PUT with 20 watchers and 3 webhooks, as a share of the plain PUT's rate. */
  watchedPutShare: 0.9,
  /** Seeding 100,000 pages through the service layer. */
  seedSecondsPer100k: 45,
  treeP95Ms: 15,
} as const;
