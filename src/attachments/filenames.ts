/**
 * Filenames come from the client and end up in a response header and in other people's
 * download folders, so they are cleaned once at upload and encoded safely when sent.
 */

export const FILENAME_MAX = 255;
const FALLBACK = "file";

/**
 * 1. keep the last path segment (browsers and tools may send "C:\\x\\a.txt" or "../../a");
 * 2. drop control characters (C0, DEL, C1: no CR/LF header injection) and bidirectional
 *    overrides and isolates (no "exe.txt" that reads "txt.exe"), normalise to NFC;
 * 3. trim blanks; "." and ".." and an empty name become "file";
 * 4. at most 255 characters, cutting the stem so that a short extension survives.
 */
export function cleanFilename(raw: string | null | undefined): string {
  let name = (raw ?? "").split(/[/\\]/).pop() ?? "";
  name = name
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, "")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .normalize("NFC")
    .trim();
  if (name === "" || /^\.+$/.test(name)) return FALLBACK;
  const chars = Array.from(name);
  if (chars.length <= FILENAME_MAX) return name;
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : "";
  return (
    Array.from(name.slice(0, name.length - ext.length))
      .slice(0, FILENAME_MAX - Array.from(ext).length)
      .join("")
      .trimEnd() + ext
  );
}

/**
 * A Content-Disposition header (RFC 6266): a plain-ASCII `filename` for old clients (anything
 * else, quotes and backslashes become "_") and the exact name as `filename*` (RFC 8187).
 */
export function contentDisposition(kind: "attachment" | "inline", filename: string): string {
  const clean = cleanFilename(filename);
  const fallback = clean.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const exact = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}
