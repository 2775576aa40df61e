import { Link } from "wouter";
import type { Space } from "../../api/types";
import { Loading } from "../../app/Loading";
import { pagePath } from "../../lib/slug";
import { timeAgo } from "../../lib/time";
import { EmptyState } from "../../ui/EmptyState";
import { NewPageButton, PageScreen } from "../page";
import { useRecentPages } from "./queries";
import { SpaceIcon } from "./SpaceIcon";

/** A space's front: its homepage when it has one, else its recently updated pages. */
export function SpaceHome({ space }: { space: Space }) {
  const recent = useRecentPages(space.id, 15);
  if (space.homepageId) return <PageScreen space={space} pageId={space.homepageId} mode="read" />;
  return (
    <main id="main" className="main-column space-home">
      <div className="space-home-head">
        <SpaceIcon space={space} size={40} />
        <h1>{space.name}</h1>
      </div>
      {space.description ? <p className="muted">{space.description}</p> : null}
      {recent.isPending ? (
        <Loading />
      ) : recent.data?.length ? (
        <section>
          <div className="home-head" style={{ marginBottom: "var(--space-3)" }}>
            <h2 style={{ margin: 0 }}>Recently updated</h2>
            <NewPageButton space={space} />
          </div>
          <ul className="recent-list" style={{ fontSize: "1rem" }}>
            {recent.data.map((p) => (
              <li key={p.id}>
                <Link href={pagePath(space.key, p.id, p.title)}>
                  {p.emoji ? `${p.emoji} ` : ""}
                  {p.title || "Untitled"}
                </Link>
                <span className="when">
                  {p.updatedByName ? `${p.updatedByName} · ` : ""}
                  {timeAgo(p.updatedAt)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : (
        <section>
          <EmptyState title="This space has no pages yet" action={<NewPageButton space={space} variant="primary" label="Create the first page" />}>
            Start from a blank page or one of the templates.
          </EmptyState>
        </section>
      )}
    </main>
  );
}
