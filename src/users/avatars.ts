/**
 * How an account's avatar is named in the API (media/service.ts stores and serves it). The URL
 * carries the first 16 hex digits of the image's SHA-256, so a new picture is a new address and
 * browsers may keep each one for good; null means none was uploaded and the UI draws the
 * generated avatar: the initials on colour `avatarVariant`.
 */

/**
 * How many generated avatars there are: 0 is automatic (the colour follows from the account id,
 * as the web UI's palette picks it), 1…AVATAR_VARIANTS-1 are colours the person chose.
 */
export const AVATAR_VARIANTS = 8;

export function avatarUrl(user: { id: string; avatarSha256: string | null }): string | null {
  return user.avatarSha256 ? `/api/media/avatars/${user.id}?v=${user.avatarSha256.slice(0, 16)}` : null;
}

/** A row with the avatar's blob → the same row with its avatarUrl instead (DirectoryEntry's shape). */
export function withAvatarUrl<T extends { id: string; avatarSha256: string | null }>({
  avatarSha256,
  ...rest
}: T): Omit<T, "avatarSha256"> & { avatarUrl: string | null } {
  return { ...rest, avatarUrl: avatarUrl({ id: rest.id, avatarSha256 }) };
}
