/** The cosmetic part of a page URL: /s/KEY/p/<id>-<slug>. The id alone finds the page. */
export function slugOf(title: string): string {
  return title
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

export function pagePath(spaceKey: string, id: string, title?: string): string {
  const slug = title ? slugOf(title) : "";
  return `/s/${encodeURIComponent(spaceKey)}/p/${id}${slug ? `-${slug}` : ""}`;
}

/** The page id out of the id-slug segment (ids are UUIDs: 36 characters). */
export function idFromSegment(segment: string): string {
  return segment.slice(0, 36);
}

/** A space key suggested from its name: letters and digits, upper case, at most 10. */
export function keyFromName(name: string): string {
  const words =
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toUpperCase()
      .match(/[A-Z0-9]+/g) ?? [];
  if (words.length === 0) return "";
  // Keys start with a letter and have 2 or more characters (the server's rule).
  const key = (words.length > 1 ? words.map((w) => w[0]).join("") : (words[0] ?? "")).replace(/^[0-9]+/, "");
  const longer =
    key.length >= 2
      ? key
      : words
          .join("")
          .replace(/^[0-9]+/, "")
          .slice(0, 4);
  return longer.length >= 2 ? longer.slice(0, 10) : "";
}
