/**
 * What each background task of the server does, in an administrator's words, by the name the
 * scheduler lists it under (GET /api/admin/about, `background`). A task without words here (one
 * added later) shows its name alone.
 */
const WORDS: Record<string, string> = {
  "backups.archive-size": "Watch the WAL archive's size",
  "backups.generation-base": "Take a base when the archive starts a new generation",
  "backups.schedule": "Scheduled backups",
  "collab.carets": "Clear the cursors of people who left a page",
  "collab.recheck": "Recheck the rights of people editing together",
  "idle-gc": "Give memory back when the server is quiet",
  "wal-archive.look": "Copy new writes into the WAL archive",
  "webhooks.retries": "Send and retry webhook deliveries",
  jobs: "Run queued jobs",
  "notifications.upkeep": "Tidy notifications (hourly)",
  runs: "Backups, restores and copies in progress",
  "tokens.usage": "Write API tokens' use counts",
  "tokens.activity": "Write API tokens' daily activity",
  "dashboard.page-views": "Write page view counts",
};

export function taskWords(name: string): string | null {
  return Object.hasOwn(WORDS, name) ? WORDS[name] : null;
}
