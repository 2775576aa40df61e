/**
 * Getting files out of the browser: a file name from Content-Disposition, a Blob saved under a
 * name, a streamed download handed to the browser, and the ids that follow long work.
 */

/** The file name a Content-Disposition header gives (RFC 6266: `filename*=UTF-8''…` wins over `filename="…"`). */
export function filenameFrom(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      /* a malformed escape: fall back to the plain name */
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"|filename\s*=\s*([^;]+)/.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, "$1") ?? plain?.[2]?.trim();
  return name || fallback;
}

/** Saves bytes already in the page as a file (an `<a download>` on an object URL). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  clickDownload(url, filename);
  // The browser has started the download by the time the click returns; a minute is generous.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Hands a URL to the browser's own download manager, which streams it to disk (so a
 * several-gigabyte zip never sits in the page's memory) and keeps it going if the tab moves on.
 */
export function clickDownload(href: string, filename = ""): void {
  const a = document.createElement("a");
  a.href = href;
  a.download = filename;
  a.rel = "noopener";
  a.style.display = "none";
  document.body.append(a);
  a.click();
  a.remove();
}

/** A fresh id for `?progress=` (the server accepts 8 to 64 letters, digits, - and _). */
export function newProgressId(): string {
  // getRandomValues, not randomUUID: the latter exists only on https or localhost, and a wiki on a LAN may be plain http.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `p${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
