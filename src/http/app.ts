import { attachmentRoutes } from "../attachments/routes";
import { auditRoutes } from "../audit/routes";
import { backupRoutes } from "../backups/routes";
import { backupTargetRoutes } from "../backups/targets-routes";
import { restoreRoutes } from "../backups/restore-routes";
import { pageExportRoutes } from "../exports/page-routes";
import { packExportRoutes } from "../exports/pack-routes";
import { progressRoutes } from "../exports/progress-routes";
import { importRoutes } from "../imports/routes";
import { siteExportRoutes } from "../exports/site-routes";
import { brandingRoutes } from "../branding/routes";
import { commentRoutes } from "../comments/routes";
import { dashboardRoutes } from "../dashboard/routes";
import { collabRoutes } from "../collab/routes";
import { authQuickReads, authRoutes } from "../auth/routes";
import { groupRoutes } from "../groups/routes";
import { labelRoutes } from "../labels/routes";
import { mediaRoutes } from "../media/routes";
import { pageQuickReads, pageRoutes } from "../pages/routes";
import { permissionRoutes } from "../permissions/routes";
import { searchRoutes } from "../search/routes";
import { securityRoutes } from "../security/routes";
import { settingsRoutes } from "../settings/routes";
import { roleRoutes } from "../roles/routes";
import { setupRoutes } from "../setup/routes";
import { adminSpaceRoutes } from "../spaces/admin-routes";
import { spaceRoutes } from "../spaces/routes";
import { systemRoutes } from "../system/routes";
import { systemAdminRoutes } from "../system/admin-routes";
import { templateRoutes } from "../templates/routes";
import { tokenRoutes } from "../tokens/routes";
import { adminTokenRoutes } from "../tokens/admin-routes";
import { userRoutes } from "../users/routes";
import { adminUserRoutes } from "../users/admin-routes";
import { webhookRoutes } from "../webhooks/routes";
import { notificationRoutes } from "../notifications/routes";
import { watchRoutes } from "../watches/routes";
import { docsRoutes } from "./docs";
import type { Core } from "../core";
import { composeApp } from "./app-shell";

export { composeStreamedRoutes, durableHandler, type App, type RequestHandler } from "./app-shell";

/** Every API route group, in one list (the OpenAPI test checks each is described). */
export function apiRoutes(core: Core) {
  // prettier-ignore
  return [
    systemRoutes(core),
    authRoutes(core),
    tokenRoutes(core),
    userRoutes(core),
    spaceRoutes(core),
    pageRoutes(core),
    groupRoutes(core),
    searchRoutes(core),
    auditRoutes(core),
    webhookRoutes(core),
    labelRoutes(core),
    commentRoutes(core),
    attachmentRoutes(core),
    templateRoutes(core),
    permissionRoutes(core),
    adminSpaceRoutes(core),
    settingsRoutes(core),
    watchRoutes(core),
    notificationRoutes(core),
    collabRoutes(core),
    brandingRoutes(core),
    dashboardRoutes(core),
    adminTokenRoutes(core),
    roleRoutes(core),
    adminUserRoutes(core),
    setupRoutes(core),
    securityRoutes(core),
    mediaRoutes(core),
    systemAdminRoutes(core),
    backupRoutes(core),
    backupTargetRoutes(core),
    restoreRoutes(core),
    progressRoutes(core),
    packExportRoutes(core),
    pageExportRoutes(core),
    importRoutes(core),
    siteExportRoutes(core),
  ];
}

/** The whole HTTP application: the API reference and every route group. */
export function createApp(core: Core, opts: { composeStreamedLater?: boolean } = {}) {
  // The GETs every page load and reader asks, answered without Elysia's chain (quick-reads.ts).
  const quickReads = [...authQuickReads(core), ...pageQuickReads(core)];
  return composeApp(core, [docsRoutes(core), ...apiRoutes(core)], { ...opts, quickReads });
}
