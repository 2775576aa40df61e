/**
 * Avatars and space icons (the /api/media routes). Every picture is decoded and
 * re-encoded by platform/images.ts before it is stored (EXIF locations and other metadata never
 * reach the store), shrunk to the largest size the UI shows at 2× (avatars 256 px, icons 128 px,
 * cover-cropped to a square) and kept as WebP in the blob store under its SHA-256.
 *
 * - Avatars: anyone signed in may see anyone's (they appear wherever people do); only the
 *   account itself changes its own, from a browser session. Without an upload the account has
 *   no image (GET is 404) and the UI draws the initials on the chosen generated colour.
 * - Space icons: read by whoever may see the space (else 404); changed by the space's
 *   administrators while it is not archived. An upload also switches the space's iconKind to
 *   2 Image, with iconValue the icon's address; removing it returns to 0 Generated.
 */
import { deleteUnusedBlobs } from "../attachments/blob-refs";
import { requireAdminSpace, requireReadableSpace, spaceArchived } from "../access/spaces";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { type Caller, requireSession, requireUser } from "../identity/caller";
import { blobStore } from "../platform/blobstore";
import { iso } from "../platform/clock";
import { invalid, notFound } from "../platform/errors";
import type { ImageRules } from "../platform/images";
import { findSpaceById, findSpaceByKey, spaceFor, type Space } from "../spaces/service";
import { updateSpaceRow } from "../spaces/store";
import { AVATAR_VARIANTS } from "../users/avatars";
import { findUserWithRoleById, toAccount, type Account } from "../users/service";
import { accountColumns, updateAccount } from "../users/store/accounts";
import { dropSpaceIcon, putSpaceIcon, spaceIconOf } from "./store";
import { type IncomingUpload, readImage, storeImage } from "./upload";
import { AVATAR_MAX_BYTES, SPACE_ICON_MAX_BYTES } from "../common/limits";

export { AVATAR_MAX_BYTES };
export const ICON_MAX_BYTES = SPACE_ICON_MAX_BYTES;
const ACCEPT = ["png", "jpeg", "webp"] as const;

const AVATAR_RULES: Omit<ImageRules, "field"> = {
  accept: ACCEPT,
  maxBytes: AVATAR_MAX_BYTES,
  resize: { fit: "cover", width: 256, height: 256 },
  output: "webp",
  quality: 82,
};
const ICON_RULES: Omit<ImageRules, "field"> = {
  accept: ACCEPT,
  maxBytes: ICON_MAX_BYTES,
  resize: { fit: "cover", width: 128, height: 128 },
  output: "webp",
  quality: 88,
};

/** What GET answers: the bytes and what the response headers need. */
export interface StoredImage {
  sha256: string;
  contentType: string;
  blob: Blob;
}

async function openBlob(core: Core, sha256: string, contentType: string): Promise<StoredImage> {
  const blob = await blobStore(core).open(sha256);
  if (!blob) throw notFound("Image not found");
  return { sha256, contentType, blob };
}

// ---------------------------------------------------------------- avatars

/** GET /api/media/avatars/{userId}: signed in (401); 404 when the account has no uploaded avatar. */
export async function openAvatar(core: Core, caller: Caller, userId: string): Promise<StoredImage> {
  requireUser(caller);
  const sha256 = accountColumns(core, userId, ["avatarSha256"])?.avatarSha256;
  if (!sha256) throw notFound("No avatar uploaded");
  return openBlob(core, sha256, "image/webp");
}

/** PUT /api/media/avatars/me: the caller's own avatar, from a browser session. Answers the account. */
export async function uploadAvatar(core: Core, caller: Caller, upload: IncomingUpload): Promise<Account> {
  const me = requireSession(caller);
  const image = await readImage(upload, AVATAR_RULES);
  return storeImage(core, image, (sha256, size) =>
    core.tx(() => {
      const before = setAvatar(core, me.user.id, sha256);
      recordEvent(core, {
        type: "user.updated",
        targetType: "user",
        targetId: me.user.id,
        spaceId: null,
        actorId: me.user.id,
        ip: me.ip,
        data: { avatar: { from: before, to: sha256 }, size },
      });
      return account(core, me.user.id);
    }),
  );
}

/** DELETE /api/media/avatars/me: back to the generated avatar. Answers the account. */
export function removeAvatar(core: Core, caller: Caller): Account {
  const me = requireSession(caller);
  return core.tx(() => {
    const before = setAvatar(core, me.user.id, null);
    if (before)
      recordEvent(core, {
        type: "user.updated",
        targetType: "user",
        targetId: me.user.id,
        spaceId: null,
        actorId: me.user.id,
        ip: me.ip,
        data: { avatar: { from: before, to: null } },
      });
    return account(core, me.user.id);
  });
}

/** PUT /api/media/avatars/me/variant: which generated avatar (colour) to show without an upload. */
export function setAvatarVariant(core: Core, caller: Caller, variant: number): Account {
  const me = requireSession(caller);
  if (!Number.isInteger(variant) || variant < 0 || variant >= AVATAR_VARIANTS)
    throw invalid("variant", `must be a whole number from 0 to ${AVATAR_VARIANTS - 1}`);
  return core.tx(() => {
    const before = accountColumns(core, me.user.id, ["avatarVariant"])?.avatarVariant ?? 0;
    if (before !== variant) {
      updateAccount(core, me.user.id, { avatarVariant: variant }, iso(core.clock.now()));
      recordEvent(core, {
        type: "user.updated",
        targetType: "user",
        targetId: me.user.id,
        spaceId: null,
        actorId: me.user.id,
        ip: me.ip,
        data: { avatarVariant: { from: before, to: variant } },
      });
    }
    return account(core, me.user.id);
  });
}

/** Inside a transaction: points the account at a new avatar blob (or none); the old one may go. */
function setAvatar(core: Core, userId: string, sha256: string | null): string | null {
  const before = accountColumns(core, userId, ["avatarSha256"])?.avatarSha256 ?? null;
  if (before === sha256) return before;
  updateAccount(core, userId, { avatarSha256: sha256 }, iso(core.clock.now()));
  if (before) deleteUnusedBlobs(core, [before]);
  return before;
}

function account(core: Core, userId: string): Account {
  const found = findUserWithRoleById(core, userId)!;
  return toAccount(found.user, found.role);
}

// ---------------------------------------------------------------- space icons

export function spaceIconUrl(key: string, sha256: string): string {
  return `/api/media/space-icons/${key}?v=${sha256.slice(0, 16)}`;
}

/** GET /api/media/space-icons/{key}: 404 when the caller may not see the space or it has no uploaded icon. */
export async function openSpaceIcon(core: Core, caller: Caller, key: string): Promise<StoredImage> {
  const space = requireReadableSpace(core, caller, findSpaceByKey(core, key));
  const row = spaceIconOf(core, space.id);
  if (!row) throw notFound("This space has no uploaded icon");
  return openBlob(core, row.sha256, row.contentType);
}

/** PUT /api/media/space-icons/{key}: space administrators, not while archived. Answers the space. */
export async function uploadSpaceIcon(core: Core, caller: Caller, key: string, upload: IncomingUpload): Promise<Space> {
  const user = requireUser(caller);
  // Checked before the body is read, and again in the transaction (the space may change meanwhile).
  const first = requireAdminSpace(core, user, findSpaceByKey(core, key));
  if (first.archivedAt) throw spaceArchived();
  const image = await readImage(upload, ICON_RULES);
  return storeImage(core, image, (sha256, size) =>
    core.tx(() => {
      const space = requireAdminSpace(core, user, findSpaceByKey(core, key));
      if (space.archivedAt) throw spaceArchived();
      const now = iso(core.clock.now());
      const before = putSpaceIcon(core, {
        spaceId: space.id,
        sha256,
        contentType: image.contentType,
        size,
        updatedAt: now,
        updatedById: user.user.id,
      });
      updateSpaceRow(core, space.id, { iconKind: 2, iconValue: spaceIconUrl(space.key, sha256), updatedAt: now });
      if (before && before !== sha256) deleteUnusedBlobs(core, [before]);
      recordEvent(core, {
        type: "space.updated",
        targetType: "space",
        targetId: space.id,
        spaceId: space.id,
        actorId: user.user.id,
        ip: user.ip,
        data: { icon: { from: before, to: sha256 } },
      });
      return spaceFor(core, user, findSpaceById(core, space.id)!);
    }),
  );
}

/** DELETE /api/media/space-icons/{key}: the uploaded icon goes; a space showing it returns to the generated icon. */
export function removeSpaceIcon(core: Core, caller: Caller, key: string): Space {
  const user = requireUser(caller);
  return core.tx(() => {
    const space = requireAdminSpace(core, user, findSpaceByKey(core, key));
    if (space.archivedAt) throw spaceArchived();
    const gone = dropSpaceIcon(core, space.id);
    if (!gone) return spaceFor(core, user, space);
    if (space.iconKind === 2) updateSpaceRow(core, space.id, { iconKind: 0, iconValue: null, updatedAt: iso(core.clock.now()) });
    deleteUnusedBlobs(core, [gone]);
    recordEvent(core, {
      type: "space.updated",
      targetType: "space",
      targetId: space.id,
      spaceId: space.id,
      actorId: user.user.id,
      ip: user.ip,
      data: { icon: { from: gone, to: null } },
    });
    return spaceFor(core, user, findSpaceById(core, space.id)!);
  });
}
