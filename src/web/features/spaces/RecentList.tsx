import { Link } from "wouter";
import type { AnswerOf } from "../../api/types";
import { pagePath } from "../../lib/slug";
import { timeAgo } from "../../lib/time";

type RecentPage = AnswerOf<"/api/pages/recent", "get">[number];

/** Recently updated pages: a link each, and when (with who, when `withAuthor`). */
export function RecentList({
  spaceKey,
  pages,
  label,
  withAuthor,
  large,
}: {
  spaceKey: string;
  pages: RecentPage[];
  label: string;
  withAuthor?: boolean;
  large?: boolean;
}) {
  return (
    <ul className={`recent-list${large ? " recent-list-large" : ""}`} aria-label={label}>
      {pages.map((p) => (
        <li key={p.id}>
          <Link href={pagePath(spaceKey, p.id, p.title)}>
            {p.emoji ? `${p.emoji} ` : ""}
            {p.title || "Untitled"}
          </Link>
          <span className="when">
            {withAuthor && p.updatedByName ? `${p.updatedByName} · ` : ""}
            {timeAgo(p.updatedAt)}
          </span>
        </li>
      ))}
    </ul>
  );
}
