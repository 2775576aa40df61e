/** How the backups section words a backup: its kind, its time, what it holds. */
import { formatBytes, plural } from "../../../lib/format";

export { formatBytes, plural };

export const KIND_LABEL: Record<string, string> = {
  scheduled: "Scheduled",
  manual: "Taken by hand",
  "pre-migration": "Before an update",
  safety: "Safety copy",
  automatic: "Automatic",
};

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
/** "24 Nov 2026, 03:00:00" in the reader's own time zone. */
export const backupTime = (iso: string | number) => when.format(new Date(iso));

/** "12 pages · 40 versions · 3 files · 2 comments · 4 people". */
export function countsText(c: { pages: number; versions: number; attachments: number; comments: number; users: number }): string {
  return [
    plural(c.pages, "page"),
    plural(c.versions, "version"),
    plural(c.attachments, "file"),
    plural(c.comments, "comment"),
    plural(c.users, "person", "people"),
  ].join(" · ");
}

/** A date-time as an <input type="datetime-local"> value, in local time, to the second. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 19);
}

/** A label (its UTC time, file-name safe: 2026-11-24T03-00-00Z, maybe with -2) as an ISO time. */
export const labelTime = (label: string) => label.replace(/^(\d{4}-\d{2}-\d{2}T)(\d{2})-(\d{2})-(\d{2})Z.*$/, "$1$2:$3:$4Z");
