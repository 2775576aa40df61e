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
import { installWebhooks } from "./webhooks/sender";
import { installNotifications } from "./notifications/install";

/**
 * Opens a ready instance: the core (data directory, database, migrations) plus what every
 * user of it needs, whether the HTTP server, the CLI or a test: built-in roles and groups, and
 * the search indexer that runs inside every write transaction.
 */
export function openInstance(config: Config, opts: OpenCoreOptions = {}): Core {
  const core = openCore(config, { backUpBeforeMigrating: takePreMigrationBackup, ...opts });
  ensureBuiltInRoles(core);
  ensureBuiltInGroups(core);
  installSearchIndexer(core);
  installAuditLog(core);
  // After the audit log is installed: a right granted by a new release is audited.
  reconcileBuiltInRoles(core);
  installWebhooks(core);
  installNotifications(core);
  installSecurityDetectors(core);
  // A restore the last process died in: the data is the old or the new (never a mix); one
  // that had replaced it is finished now (its audit event, the kept safety copy).
  recoverInterruptedRestore(core);
  // Blobs left unreferenced by a crash (files/); safe beside uploads, whose blobs are leased.
  void sweepOrphanBlobs(core);
  return core;
}
