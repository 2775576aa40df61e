import { t } from "elysia";

const Count = (description: string) => t.Integer({ description });
const Bytes = (description: string) => t.Integer({ description: `${description} (bytes)` });

export const DashboardQuery = t.Object({
  rangeDays: t.Optional(
    t.Integer({ description: "7, 30 or 90 (default 30): the days the usage covers, ending today (UTC)", error: "must be 7, 30 or 90" }),
  ),
});

export const Dashboard = t.Object(
  {
    rangeDays: t.Integer(),
    generatedAt: t.String({ format: "date-time" }),
    people: t.Object({
      active: Count("Active accounts"),
      invited: Count("Invites not yet used and not expired"),
      suspended: Count("Suspended accounts"),
    }),
    content: t.Object({
      spaces: Count("Spaces, archived ones included"),
      pages: Count("Published pages out of the trash"),
      drafts: Count("Drafts out of the trash"),
      trashed: Count("Pages in the trash"),
      versions: Count("Saved versions of every page"),
      attachments: Count("Attachments"),
      attachmentBytes: Bytes("Their sizes summed (a file attached twice counts twice; the file store keeps it once)"),
    }),
    usage: t.Object({
      viewsPerDay: t.Array(t.Object({ day: t.String({ description: "YYYY-MM-DD (UTC)" }), views: t.Integer() }), {
        description: "Every day of the range, oldest first; days without views are 0",
      }),
      totalViews: Count("Views over the range"),
      topPages: t.Array(
        t.Object({ pageId: t.String(), title: t.String(), spaceKey: t.String(), spaceName: t.String(), views: t.Integer() }),
        {
          description: "The ten most read pages of the range that still exist and the caller may read",
        },
      ),
      topEditors: t.Array(
        t.Object({ userId: t.String(), displayName: t.String(), versions: t.Integer({ description: "Versions saved in the range" }) }),
        { description: "The ten people who saved the most versions in the range" },
      ),
    }),
    storage: t.Object({
      databaseBytes: Bytes("The database file with its write-ahead log"),
      filesBytes: Bytes("The file store: attachments, avatars, branding and icons"),
      backupsBytes: Bytes("The backups folder (backups and their manifests; the WAL archive)"),
      measuredAt: t.String({ format: "date-time", description: "When the two folders were last walked (at most five minutes ago)" }),
    }),
    health: t.Object({
      lastBackupAt: t.Nullable(
        t.String({ format: "date-time", description: "When the newest backup not removed was taken; null when there is none" }),
      ),
      diskFreeBytes: t.Nullable(Bytes("Free space where the data directory is, for this account; null when unknown")),
      diskTotalBytes: t.Nullable(Bytes("Size of that file system")),
      version: t.String(),
      uptimeSeconds: Count("Seconds since the server started"),
    }),
  },
  { title: "Dashboard" },
);

export const ViewedQuery = t.Object({
  limit: t.Optional(t.Integer({ description: "How many, 1 to 20; default 10", error: "must be a whole number from 1 to 20" })),
});

export const ViewedPage = t.Object(
  {
    id: t.String(),
    title: t.String(),
    emoji: t.Nullable(t.String()),
    spaceId: t.String(),
    spaceKey: t.String(),
    space: t.String({ description: "The space's name" }),
    viewedAt: t.String({ description: "When this person last read it (ISO 8601, UTC)" }),
  },
  { title: "ViewedPage" },
);
