/** The HTTP shapes of /api/admin/backups/targets (tag "Backups"). */
import { t } from "elysia";

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);
const Time = (description: string) => t.String({ format: "date-time", description });

export const SlotParams = t.Object({
  slot: t.Union([t.Literal("directory"), t.Literal("s3")], {
    description: "directory (a folder: an external disk or network mount) or s3 (an S3-compatible bucket)",
    error: "must be directory or s3",
  }),
});

const LastRun = Nullable(
  t.Object(
    {
      at: Time("When it ran"),
      ok: t.Boolean(),
      error: Nullable(t.String({ description: "Plain words on what to fix (a copy that succeeded may still name files missing here)" })),
      summary: t.Optional(
        t.Record(t.String(), t.Number(), { description: "A copy's counts: backups, copied, skipped, bytes, missingFiles" }),
      ),
    },
    { title: "BackupTargetRun" },
  ),
);

const kept = {
  updatedAt: Time("When the slot was last set"),
  approved: t.Boolean({
    description:
      "Set (or first copied to) by someone holding backups.restore: backups.manage may copy to it. A " +
      "slot set before that rule is not, and its first copy needs backups.restore",
  }),
  lastTest: LastRun,
  lastCopy: LastRun,
};

export const DirectoryTarget = t.Object(
  {
    slot: t.Literal("directory"),
    path: t.String({ description: "Absolute path of the folder the copies go to" }),
    ...kept,
  },
  { title: "BackupDirectoryTarget" },
);

export const S3Target = t.Object(
  {
    slot: t.Literal("s3"),
    endpoint: t.String({ description: "The service's URL (scheme, host, port)" }),
    region: t.String(),
    bucket: t.String(),
    prefix: t.String({ description: 'Where in the bucket the copies go ("" for its root)' }),
    pathStyle: t.Boolean({ description: "true: https://host/bucket/key; false: https://bucket.host/key" }),
    accessKeyId: Nullable(
      t.String({
        description: "null when the stored credentials do not open with this server's key (secret.key replaced): enter them again",
      }),
    ),
    secretAccessKeySet: t.Boolean({
      description: "The secret is stored (sealed with the instance key) and never answered; false when it no longer opens",
    }),
    ...kept,
  },
  { title: "BackupS3Target" },
);

export const Targets = t.Object(
  {
    directory: Nullable(DirectoryTarget),
    s3: Nullable(S3Target),
    copying: t.Record(t.String(), t.Unknown(), {
      description: "The copy job running now for each slot that has one (see GET /api/admin/backups/jobs/{id})",
    }),
  },
  { title: "BackupTargets" },
);

const Text = (maxLength: number, description: string) => t.Optional(t.String({ maxLength, description }));

export const TargetInput = t.Object(
  {
    path: Text(1024, "directory: the absolute path of a folder outside the data directory (an external disk or network mount)"),
    endpoint: Text(500, "s3: the service's http(s) URL without a path, e.g. https://s3.eu-central-1.amazonaws.com or http://nas.lan:3900"),
    region: Text(64, 's3: the region, e.g. "us-east-1" ("auto" for Cloudflare R2; Garage: its s3_region)'),
    bucket: Text(63, "s3: the bucket's name (it must exist)"),
    prefix: Text(200, 's3: folder in the bucket for the copies, e.g. "cairn" (default: the root)'),
    pathStyle: t.Optional(
      t.Boolean({
        description: "s3: address the bucket in the path (default true: MinIO, Garage, Ceph…); false: as a host name (virtual-hosted)",
      }),
    ),
    accessKeyId: Text(128, "s3: the access key ID"),
    secretAccessKey: Text(
      256,
      "s3: the secret access key. Leave it out to keep the stored one (not when the endpoint or the access key ID changes)",
    ),
  },
  { title: "BackupTargetInput" },
);

export const ProbeReport = t.Object(
  {
    ok: t.Boolean(),
    steps: t.Array(
      t.Object({
        step: t.Union([t.Literal("connect"), t.Literal("write"), t.Literal("list"), t.Literal("read back"), t.Literal("delete")]),
        ok: t.Boolean(),
        ms: t.Integer({ description: "How long the step took" }),
      }),
      { description: "The steps run, in order; the first that failed is the last" },
    ),
    error: Nullable(t.String({ description: "What failed and what to fix, in plain words" })),
  },
  { title: "BackupTargetProbe" },
);
