/**
 * The instance's branding: name, how it shows, the sign-in arrangement, theme and accent
 * policies, the accent colours (which must reach WCAG AA, contrast.ts) and three images (logo,
 * dark logo, favicon; files.ts). Reading the public part is cheap and anonymous (GET
 * /api/instance on every first load); every change needs branding.manage and a recent
 * re-authentication (docs/permissions.md), and is audited in its own transaction.
 */
import { getTableName } from "drizzle-orm";
import { requireReauth } from "../auth/service";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import { requireRight } from "../identity/rights";
import { iso } from "../platform/clock";
import { AppError } from "../platform/errors";
import { keptUntilWrite } from "../platform/db/kept-answers";
import { getSettings } from "../settings/service";
import { deleteUnusedBlobs } from "../attachments/blob-refs";
import { checkAccent, normaliseHex, type AccentVerdict } from "./contrast";
import { BRANDING_DEFAULTS, BRANDING_FIELDS, checkBranding, effectiveAccent, valuesOfRow, type BrandingValues } from "./rules";
import {
  brandingFileBlob,
  brandingFileRows,
  brandingRow,
  deleteAllBranding,
  deleteBrandingFile,
  upsertBranding,
  upsertBrandingFile,
} from "./store";
import { branding, brandingFiles, type BrandingFileRow } from "./tables";

export const SLOTS = ["logo", "logo-dark", "favicon"] as const;
export type Slot = (typeof SLOTS)[number];

export interface BrandingFile {
  /** Where the bytes are served, with a hash that changes with them (cache for a year). */
  url: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  updatedAt: string;
}

export interface Branding extends BrandingValues {
  /** The instance's name: the brand name while brandName is null. */
  instanceName: string;
  logo: BrandingFile | null;
  logoDark: BrandingFile | null;
  favicon: BrandingFile | null;
  /** Null until an administrator changed anything. */
  updatedAt: string | null;
}

/** What GET /api/instance carries: what the UI needs to brand itself before anyone signs in. */
export interface PublicBranding {
  brandName: string;
  display: BrandingValues["display"];
  signInArrangement: BrandingValues["signInArrangement"];
  themePolicy: BrandingValues["themePolicy"];
  accentLight: string;
  accentDark: string;
  logoUrl: string | null;
  logoDarkUrl: string | null;
  faviconUrl: string | null;
}

interface Stored {
  values: BrandingValues;
  updatedAt: string | null;
  files: Map<Slot, BrandingFileRow>;
}

// Read on every first load (GET /api/instance) and every logo request: kept until branding is written.
const kept = keptUntilWrite<Stored>("branding", 1, undefined, {
  tables: [{ table: getTableName(branding) }, { table: getTableName(brandingFiles) }],
});

function stored(core: Core): Stored {
  return kept(core.stamp, "branding", () => {
    const row = brandingRow(core);
    const files = new Map<Slot, BrandingFileRow>();
    for (const f of brandingFileRows(core)) if ((SLOTS as readonly string[]).includes(f.slot)) files.set(f.slot as Slot, f);
    return { values: valuesOfRow(row), updatedAt: row?.updatedAt ?? null, files };
  });
}

/** The served address of a slot's file: /api/branding/<slot>?v=<first 16 hex of its SHA-256>. */
export const fileUrl = (slot: Slot, sha256: string) => `/api/branding/${slot}?v=${sha256.slice(0, 16)}`;

function fileOf(slot: Slot, f: BrandingFileRow | undefined): BrandingFile | null {
  if (!f) return null;
  return {
    url: fileUrl(slot, f.sha256),
    contentType: f.contentType,
    size: f.size,
    width: f.width,
    height: f.height,
    updatedAt: f.updatedAt,
  };
}

function answer(core: Core): Branding {
  const s = stored(core);
  return {
    ...s.values,
    instanceName: getSettings(core).instanceName,
    logo: fileOf("logo", s.files.get("logo")),
    logoDark: fileOf("logo-dark", s.files.get("logo-dark")),
    favicon: fileOf("favicon", s.files.get("favicon")),
    updatedAt:
      [s.updatedAt, ...[...s.files.values()].map((f) => f.updatedAt)]
        .filter((v): v is string => v !== null)
        .sort()
        .at(-1) ?? null,
  };
}

/** For GET /api/instance (anonymous). */
export function publicBranding(core: Core): PublicBranding {
  const s = stored(core);
  const accent = effectiveAccent(s.values);
  const url = (slot: Slot) => {
    const f = s.files.get(slot);
    return f ? fileUrl(slot, f.sha256) : null;
  };
  return {
    brandName: s.values.brandName ?? getSettings(core).instanceName,
    display: s.values.display,
    signInArrangement: s.values.signInArrangement,
    themePolicy: s.values.themePolicy,
    accentLight: accent.light,
    accentDark: accent.dark,
    logoUrl: url("logo"),
    logoDarkUrl: url("logo-dark"),
    faviconUrl: url("favicon"),
  };
}

/** The stored file of a slot (for serving), or null. */
export function brandingFileRow(core: Core, slot: Slot): BrandingFileRow | null {
  return stored(core).files.get(slot) ?? null;
}

export function manager(caller: Caller): UserCaller {
  const user = requireUser(caller);
  requireRight(user, "branding.manage");
  return user;
}

/** A change: the right, then a password confirmed in the last minutes (tokens cannot). */
export function changer(core: Core, caller: Caller): UserCaller {
  const user = manager(caller);
  requireReauth(core, user);
  return user;
}

/** GET /api/admin/branding. */
export function readBranding(core: Core, caller: Caller): Branding {
  manager(caller);
  return answer(core);
}

/**
 * PUT /api/admin/branding: the fields sent, each checked (rules.ts), all or nothing; the
 * changed ones are recorded in one branding.updated event with their old and new values.
 */
export function updateBranding(core: Core, caller: Caller, input: Record<string, unknown>): Branding {
  const user = changer(core, caller);
  const current = stored(core).values;
  const next = checkBranding(current, input);
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of BRANDING_FIELDS) if (next[field] !== current[field]) changes[field] = { from: current[field], to: next[field] };
  if (Object.keys(changes).length === 0) return answer(core);
  core.tx(() => {
    const row = { ...next, updatedAt: iso(core.clock.now()), updatedById: user.user.id };
    upsertBranding(core, row);
    recordEvent(core, {
      type: "branding.updated",
      targetType: "branding",
      targetId: "instance",
      spaceId: null,
      actorId: user.user.id,
      ip: user.ip,
      data: { changes },
    });
  });
  return answer(core);
}

/** POST /api/admin/branding/reset: every field and image back to Cairn's own. */
export function resetBranding(core: Core, caller: Caller): Branding {
  const user = changer(core, caller);
  core.tx(() => {
    const { had, files } = deleteAllBranding(core);
    if (!had && files.length === 0) return;
    recordEvent(core, {
      type: "branding.reset",
      targetType: "branding",
      targetId: "instance",
      spaceId: null,
      actorId: user.user.id,
      ip: user.ip,
      data: { removedFiles: files.map((f) => f.slot) },
    });
    deleteUnusedBlobs(
      core,
      files.map((f) => f.sha256),
    );
  });
  return answer(core);
}

/** DELETE /api/admin/branding/{slot}: the image goes (nothing to remove: still 204, nothing audited). */
export function removeBrandingFile(core: Core, caller: Caller, slot: Slot): void {
  const user = changer(core, caller);
  core.tx(() => {
    const gone = deleteBrandingFile(core, slot);
    if (!gone) return;
    recordEvent(core, {
      type: "branding.file_removed",
      targetType: "branding",
      targetId: slot,
      spaceId: null,
      actorId: user.user.id,
      ip: user.ip,
      data: { slot, sha256: gone.sha256 },
    });
    deleteUnusedBlobs(core, [gone.sha256]);
  });
}

/** Inside the upload's transaction: the slot now holds this file; its old blob may go. */
export function storeBrandingFile(
  core: Core,
  user: UserCaller,
  slot: Slot,
  file: { sha256: string; contentType: string; size: number; width: number | null; height: number | null },
): BrandingFile {
  const now = iso(core.clock.now());
  core.tx(() => {
    const old = brandingFileBlob(core, slot);
    upsertBrandingFile(core, { slot, ...file, updatedAt: now, updatedById: user.user.id });
    recordEvent(core, {
      type: "branding.file_uploaded",
      targetType: "branding",
      targetId: slot,
      spaceId: null,
      actorId: user.user.id,
      ip: user.ip,
      data: { slot, sha256: file.sha256, contentType: file.contentType, size: file.size },
    });
    if (old && old !== file.sha256) deleteUnusedBlobs(core, [old]);
  });
  return fileOf(slot, { slot, ...file, updatedAt: now, updatedById: user.user.id })!;
}

export interface AccentPreview {
  light: AccentVerdict | null;
  dark: AccentVerdict | null;
}

/**
 * POST /api/admin/branding/accent-preview: each colour's contrast against what it meets in its
 * theme, whether it reaches AA, and the nearest colour of the same hue that does. Changes
 * nothing (no re-authentication).
 */
export function previewAccent(core: Core, caller: Caller, input: { light?: string; dark?: string }): AccentPreview {
  manager(caller);
  if (input.light === undefined && input.dark === undefined)
    throw new AppError("validation_failed", { detail: "Send light, dark or both." });
  const verdict = (field: "light" | "dark") => {
    const value = input[field];
    if (value === undefined) return null;
    const hex = normaliseHex(value);
    if (!hex)
      throw new AppError("validation_failed", {
        field,
        detail: `${field}: must be a colour written "#rrggbb" (or "#rgb")`,
        errors: { [field]: ['must be a colour written "#rrggbb"'] },
      });
    return checkAccent(hex, field);
  };
  return { light: verdict("light"), dark: verdict("dark") };
}

export { BRANDING_DEFAULTS };
