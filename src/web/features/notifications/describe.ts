/** A notification in plain words: who did what, and where it leads. */
import { pagePath } from "../../lib/slug";
import type { Notification } from "./queries";

const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);

export function describe(n: Notification): {
  who: string;
  what: string;
  where: string | null;
  href: string | null;
  excerpt: string | null;
  space: string | null;
} {
  const who = n.actorName ?? "Cairn";
  const title = str(n.details.pageTitle) ?? "a page";
  const spaceKey = str(n.details.spaceKey);
  const what =
    n.action === "page.created"
      ? "created"
      : n.action === "page.updated"
        ? Number(n.details.edits) > 1
          ? `made ${Number(n.details.edits)} edits to`
          : "edited"
        : n.action === "comment.created"
          ? "commented on"
          : n.action === "mention"
            ? "mentioned you on"
            : n.action === "webhook.disabled"
              ? "switched off a webhook that kept failing in"
              : n.action === "token.expiring"
                ? "says an API token of yours expires soon:"
                : n.action === "backup.target_changed"
                  ? n.details.action === "removed"
                    ? "removed a place backups are copied to:"
                    : "set a new place for copies of every backup:"
                  : n.action;
  const where =
    n.action === "token.expiring"
      ? str(n.details.name)
      : n.action === "backup.target_changed"
        ? (str(n.details.where) ?? str(n.details.slot))
        : n.pageId
          ? title
          : (str(n.details.spaceName) ?? spaceKey);
  // A comment (or a mention in one) opens its thread in the page's comments panel.
  const thread = n.targetType === "comment" ? (str(n.details.threadId) ?? n.targetId) : null;
  const onPage = thread ? `?panel=comments&comment=${encodeURIComponent(thread)}` : "";
  const href =
    n.pageId && spaceKey
      ? pagePath(spaceKey, n.pageId, str(n.details.pageTitle) ?? undefined) + onPage
      : n.action === "token.expiring"
        ? "/settings/tokens"
        : n.action === "backup.target_changed"
          ? "/admin/backups#backups-targets"
          : n.action === "webhook.disabled" && spaceKey
            ? `/s/${encodeURIComponent(spaceKey)}/settings/webhooks`
            : spaceKey
              ? `/s/${encodeURIComponent(spaceKey)}`
              : null;
  return { who, what, where, href, excerpt: str(n.details.excerpt), space: n.pageId ? str(n.details.spaceName) : null };
}
