/** The HTTP shapes of /api/admin/backups (tag "Backups"). */
import { t } from "elysia";
import { RestoreSummary } from "./restore-schemas";
import { POLICY_LIMITS } from "./policy";

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);
const Time = (description: string) => t.String({ format: "date-time", description });

export const Label = t.String({
  minLength: 1,
  maxLength: 40,
  pattern: "^[0-9TZ-]+$",
  description: "The backup's label: its UTC time, e.g. 2026-11-24T03-00-00Z (-2, -3… when two fall in one second)",
});

export const WalPosition = t.Object(
  {
    generation: t.String(),
    epoch: t.Integer(),
    salt: t.String(),
    frame: t.Integer(),
    committedAt: t.Integer({ description: "ms since the epoch: the last commit the copy holds" }),
  },
  { title: "WalPosition", description: "Where the write-ahead log stood at the copy: the base of point-in-time restore" },
);

export const Backup = t.Object(
  {
    format: t.Literal(1),
    label: Label,
    kind: t.Union(
      [t.Literal("scheduled"), t.Literal("manual"), t.Literal("pre-migration"), t.Literal("safety"), t.Literal("automatic")],
      // The same list as manifest.ts BACKUP_KINDS.
      {
        description:
          "scheduled (the schedule), manual (run by hand), pre-migration (before an " +
          "upgrade's migrations), safety (before a restore), automatic",
      },
    ),
    createdAt: Time("When it was taken"),
    appVersion: t.String({ description: "The Cairn version that took it" }),
    bytes: t.Integer({ description: "Size of the database copy" }),
    sha256: t.String({ description: "SHA-256 of the database copy" }),
    schemaVersion: t.String({ description: "The last migration the copy has" }),
    counts: t.Object({ pages: t.Integer(), versions: t.Integer(), attachments: t.Integer(), comments: t.Integer(), users: t.Integer() }),
    auditHead: Nullable(t.Object({ sequence: t.Integer(), hash: t.String() }, { description: "The audit chain's last entry in the copy" })),
    fileCount: t.Integer({
      description: "Files of the file store the copy refers to (shared with the live store, never copied; kept while this backup is)",
    }),
    wal: Nullable(WalPosition),
    removedAt: Nullable(Time("When its copy was removed (listed only with includeRemoved)")),
    removedReason: Nullable(t.Union([t.Literal("retention"), t.Literal("by_hand"), t.Literal("discarded")])),
  },
  { title: "Backup" },
);

export const BackupJob = t.Object(
  {
    id: t.String(),
    kind: t.Union([t.Literal("backup"), t.Literal("restore"), t.Literal("restore-test"), t.Literal("undo"), t.Literal("copy")]),
    state: t.Union([t.Literal("running"), t.Literal("succeeded"), t.Literal("failed"), t.Literal("cancelled")]),
    phase: t.String({ description: "What it is doing now, e.g. copying, retention, done" }),
    progress: Nullable(t.Object({ done: t.Number(), total: t.Number() })),
    startedAt: Time("When it started"),
    finishedAt: Nullable(Time("When it finished")),
    error: Nullable(t.Object({ code: t.String(), message: t.String() })),
    result: t.Unknown({ description: "What it produced once succeeded (a backup job: {backup, removed})" }),
  },
  { title: "BackupJob" },
);

export const JobAnswer = t.Object({ job: BackupJob }, { title: "BackupJobAnswer" });

const policyFields = {
  enabled: t.Boolean({
    description:
      "Retention on: after each backup, scheduled backups outside both limits are removed. Off: nothing is removed automatically",
  }),
  keepCount: t.Integer({
    description: `The newest this many scheduled backups are kept (${POLICY_LIMITS.keepCount.min}–${POLICY_LIMITS.keepCount.max})`,
    error: `must be a whole number from ${POLICY_LIMITS.keepCount.min} to ${POLICY_LIMITS.keepCount.max}`,
  }),
  keepDays: t.Integer({
    description: `Scheduled backups younger than this many days are kept (${POLICY_LIMITS.keepDays.min}–${POLICY_LIMITS.keepDays.max})`,
    error: `must be a whole number from ${POLICY_LIMITS.keepDays.min} to ${POLICY_LIMITS.keepDays.max}`,
  }),
};
const scheduleField = Nullable(
  t.String({
    maxLength: POLICY_LIMITS.scheduleLength,
    description:
      "Cairn's own field: when scheduled backups are taken, a 5-field cron expression in the server's local time (\"0 " +
      '3 * * *", the default: daily at 03:00); null: no scheduled backups. Left out: unchanged',
    error: "must be a cron expression or null",
  }),
);

export const PolicyInput = t.Object({ ...policyFields, schedule: t.Optional(scheduleField) }, { title: "BackupPolicyInput" });

export const Policy = t.Object({ ...policyFields, schedule: scheduleField }, { title: "BackupPolicy" });

export const BackupList = t.Object(
  {
    backups: t.Array(Backup, { description: "Newest first" }),
    policy: Policy,
    schedule: t.Object({
      cron: Nullable(t.String()),
      timeZone: t.String({ description: "The server's time zone, in which the cron is read" }),
      nextRunAt: Nullable(Time("When the next scheduled backup runs; null: none scheduled")),
    }),
    lastBackupAt: Nullable(Time("When the newest backup not removed was taken")),
    running: Nullable(BackupJob),
    pointInTime: t.Array(
      t.Object({ generation: t.String(), from: t.Integer({ description: "ms" }), to: t.Integer({ description: "ms" }) }),
      {
        description: "The spans of time a restore can reach any second of (the WAL archive's continuous coverage); empty when none",
      },
    ),
    archive: t.Object(
      {
        bytes: t.Integer({ description: "What the WAL archive (backups/wal) takes on disk now" }),
        limitBytes: t.Integer({
          description:
            "What it is kept under: twice the database, at least 64 MB. Past a quarter of it since the newest backup " +
            "an automatic backup is taken, and the frames only older backups need are pruned",
        }),
        databaseBytes: t.Integer({ description: "The database file's size, which the limit follows" }),
        oldestRestorableAt: Nullable(
          Time(
            "The earliest moment a restore can reach: the oldest backup the archive " +
              "still replays from to now; null: no backup is a base yet",
          ),
        ),
      },
      { description: "Cairn's own field: the WAL archive's size and window" },
    ),
    restore: RestoreSummary,
  },
  { title: "BackupList" },
);

export const PolicyPreview = t.Object(
  {
    remove: t.Array(Backup, { description: "Exactly what this policy would remove now, newest first" }),
    keep: t.Integer({ description: "Backups that would stay" }),
  },
  { title: "BackupPolicyPreview" },
);
