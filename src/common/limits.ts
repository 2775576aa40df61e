/**
 * The limits people meet in forms: how long a name may be, how large a file. The server's
 * services enforce them (each domain names its own from here) and the web UI shows the same
 * numbers (`maxLength`, "at most 25 MB", checks before an upload), so a limit is written once.
 * Imports nothing: src/web imports it too (.dependency-cruiser.cjs, "common-imports-nothing").
 */
export const KB = 1024;
export const MB = 1024 * KB;

// Accounts, sign-in and invites.
export const DISPLAY_NAME_MAX = 100;
/** No composition rules; a commonly used password is refused too (src/identity/password.ts). */
export const PASSWORD_MIN = 8;
/** Passwords are hashed whole: a longer one is refused rather than cut. */
export const PASSWORD_MAX = 256;
export const INVITE_MESSAGE_MAX = 2000;
export const TOKEN_NAME_MAX = 100;

// Groups and roles.
export const GROUP_NAME_MAX = 100;
export const GROUP_DESCRIPTION_MAX = 1000;
export const ROLE_NAME_MAX = 50;
export const ROLE_DESCRIPTION_MAX = 300;

// Spaces, pages, templates, labels.
export const SPACE_KEY_MAX = 50;
export const SPACE_NAME_MAX = 100;
export const SPACE_DESCRIPTION_MAX = 2000;
export const PAGE_TITLE_MAX = 255;
/** The note saved with a version ("What changed?"). */
export const VERSION_COMMENT_MAX = 500;
export const TEMPLATE_NAME_MAX = 100;
export const TEMPLATE_DESCRIPTION_MAX = 1000;
export const LABEL_NAME_MAX = 50;

// Documents.
/** 2 MiB of a page's JSON text: a long page with tables is a few hundred KB; images are attachments. */
export const MAX_CONTENT_BYTES = 2 * MB;

// Files.
/** An attachment (docs/api.md, "Body size"). */
export const ATTACHMENT_MAX_BYTES = 25 * MB;
/** A phone photo straight from the camera fits; the stored avatar is a few KB. */
export const AVATAR_MAX_BYTES = 10 * MB;
export const SPACE_ICON_MAX_BYTES = 10 * MB;
/** A logo or favicon, for any slot (a logo bigger than this is not a logo). */
export const BRANDING_FILE_MAX_BYTES = 2 * MB;
/** The largest archive an import reads (413 while it streams past it). */
export const IMPORT_MAX_BYTES = 500 * MB;

// Backups.
/** The WAL archive is kept under twice the database or this, whichever is more. */
export const ARCHIVE_FLOOR_BYTES = 64 * MB;

// Branding.
export const BRAND_NAME_MAX = 60;
export const ACCENT_NAME_MAX = 40;
/** An accent colour as `#rrggbb`. */
export const HEX_COLOUR_LENGTH = 7;

// Security.
export const ALERT_NOTE_MAX = 1000;
export const BLOCK_REASON_MAX = 500;
/** An address or range as typed (the longest IPv6 CIDR with room for spaces). */
export const BLOCK_CIDR_MAX = 64;

/** A size limit in the words forms use: "25 MB", "2 MB". */
export const megabytes = (bytes: number) => `${bytes / MB} MB`;
