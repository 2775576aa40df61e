import { sweepOrphanBlobs } from "./attachments/blob-refs";
import { installAuditLog } from "./audit/service";
import { takePreMigrationBackup } from "./backups/pre-migration";
import { openCore, type Core, type OpenCoreOptions } from "./core";
import { recoverInterruptedRestore } from "./backups/restore-service";
import { ensureBuiltInGroups } from "./groups/service";
import type { Config } from "./platform/config";
import { installSearchIndexer } from "./search/indexer";
import { installSecurityDetectors } from "./security/detectors";
import { ensureBuiltInRoles } from "./users/service";
import { reconcileBuiltInRoles } from "./roles/built-in";
import { installWebhooks, kick as kickWebhooks } from "./webhooks/sender";
import { installNotifications } from "./notifications/install";

/**
 * Opens a ready instance: the core (data directory, database, migrations) plus what every
 * user of it needs, whether the HTTP server, the CLI or a test: built-in roles and groups, and
 * the search indexer that runs inside every write transaction.
 */
export interface InstanceOptions extends OpenCoreOptions {
  /**
   * Leave the built-in rows (roles, groups, a release's new rights) and the webhooks' catch-up
   * run to finishOpening: the server listens first and calls it before any request other than
   * a health check is answered (server.ts). Health needs none of them.
   */
  finishLater?: boolean;
}

export function openInstance(config: Config, opts: InstanceOptions = {}): Core {
  const { finishLater, ...coreOptions } = opts;
  const core = openCore(config, { backUpBeforeMigrating: takePreMigrationBackup, ...coreOptions });
  // Every hook that follows writes is installed before anything writes (the audit log first).
  installSearchIndexer(core);
  installAuditLog(core);
  if (!finishLater) writeBuiltInRows(core);
  installWebhooks(core, !finishLater);
  installNotifications(core);
  installSecurityDetectors(core);
  // A restore the last process died in: the data is the old or the new (never a mix); one
  // that had replaced it is finished now (its audit event, the kept safety copy).
  recoverInterruptedRestore(core);
  // Blobs left unreferenced by a crash (files/); safe beside uploads, whose blobs are leased.
  void sweepOrphanBlobs(core);
  return core;
}

/** What openInstance left to the caller with `finishLater`. */
export function finishOpening(core: Core): void {
  writeBuiltInRows(core);
  // Deliveries due while the server was down.
  kickWebhooks(core);
}

/**
 * The built-in roles and groups (written once, kept as they are), and the rights a new release
 * gives the built-in roles: after the audit log is installed, so such a right is audited.
 */
function writeBuiltInRows(core: Core): void {
  ensureBuiltInRoles(core);
  ensureBuiltInGroups(core);
  reconcileBuiltInRoles(core);
}
