/** The HTTP shapes of restores (/api/admin/backups/{label}/restore…, /restore/…). */
import { t } from "elysia";

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

export const At = t.String({
  minLength: 1,
  maxLength: 40,
  description:
    "Point in time: an ISO 8601 date and time with its zone (2026-11-24T14:03:00Z) or ms since the epoch. The state " +
    "as of the last transaction committed at or before it. Absent: the backup as it was taken",
});

export const AtQuery = t.Object({ at: t.Optional(At) });

const Password = t.String({
  maxLength: 1000,
  description: "Your password, confirmed in this request (sessions only; API tokens are refused)",
});
const Code = t.Optional(
  t.String({
    maxLength: 20,
    description: "A two-factor code. Two-factor sign-in does not exist yet: sent, it is refused with 409 two_factor_off",
  }),
);

export const RestoreBody = t.Object({
  confirmLabel: t.String({ maxLength: 100, description: "The backup's label, typed exactly" }),
  password: Password,
  code: Code,
  at: t.Optional(At),
});

export const ConfirmBody = (word: string) =>
  t.Object({
    confirmLabel: t.String({ maxLength: 100, description: `"${word}", typed exactly` }),
    password: Password,
    code: Code,
  });

const Head = Nullable(t.Object({ sequence: t.Integer(), hash: t.String() }));

export const RestorePreview = t.Object(
  {
    label: t.String(),
    at: Nullable(t.String({ format: "date-time" })),
    lastCommitAt: Nullable(t.String({ format: "date-time", description: "The last commit replayed (point in time); null without at" })),
    backup: t.Object({
      createdAt: t.String({ format: "date-time" }),
      kind: t.String(),
      counts: t.Object({ pages: t.Integer(), versions: t.Integer(), attachments: t.Integer(), comments: t.Integer(), users: t.Integer() }),
    }),
    lost: t.Object(
      {
        pages: t.Integer(),
        versions: t.Integer(),
        comments: t.Integer(),
        files: t.Integer({ description: "Attachments" }),
        people: t.Integer({ description: "Accounts created since" }),
      },
      {
        description:
          "What the live data has that the restored data lacks: it would be gone after " +
          "the restore (the safety copy keeps it until discarded)",
      },
    ),
    disk: t.Object({
      restoredBytes: t.Integer(),
      safetyBytes: t.Integer({ description: "The safety copy of the current database" }),
      neededBytes: t.Integer({ description: "Safety copy + restored copy + the write-ahead log of the swap" }),
      freeBytes: Nullable(t.Integer()),
      enough: Nullable(t.Boolean()),
    }),
  },
  { title: "RestorePreview" },
);

export const DiscardAnswer = t.Object({ label: t.String({ description: "The safety backup removed" }) }, { title: "RestoreDiscarded" });
export { Head as AuditHead };

export const RestoreSummary = t.Object(
  {
    running: Nullable(
      t.Object({
        jobId: Nullable(t.String()),
        kind: t.Union([t.Literal("restore"), t.Literal("undo")]),
        label: t.String({ description: "The backup being put in (for an undo, the safety copy)" }),
        phase: t.String({ description: "preparing, checking, swapping, finishing" }),
        startedAt: t.String({ format: "date-time" }),
      }),
    ),
    kept: Nullable(
      t.Object(
        {
          safetyLabel: t.String({ description: "The safety backup of the data the last restore replaced" }),
          restoredLabel: t.String(),
          restoredAt: t.String({ format: "date-time" }),
        },
        { description: "What POST /restore/undo would put back; null once undone or discarded" },
      ),
    ),
  },
  { title: "RestoreSummary", description: "A restore or undo under way, and the copy kept for undo" },
);
