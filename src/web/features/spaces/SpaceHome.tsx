import type { Space } from "../../api/types";
import { Loading } from "../../app/Loading";
import { EmptyState } from "../../ui/EmptyState";
import { NewPageButton, PageScreen } from "../page";
import { useRecentPages } from "./queries";
import { RecentList } from "./RecentList";
import { SpaceIcon } from "./SpaceIcon";
import { useTitle } from "../../lib/title";
import { useMe } from "../../app/session";
import { WatchButton } from "../notifications";

/** A space's front: its homepage when it has one, else its recently updated pages. */
export function SpaceHome({ space }: { space: Space }) {
  const recent = useRecentPages(space.id, 15);
  const me = useMe();
  useTitle(space.name);
  if (space.homepageId) return <PageScreen space={space} pageId={space.homepageId} mode="read" />;
  return (
    <main id="main" className="main-column space-home">
      <div className="space-home-head">
        <SpaceIcon space={space} size={40} />
        <h1>{space.name}</h1>
        {/* Says why nothing here offers to add or change pages (visitors of a public space know). */}
        {me.data && !space.canEdit ? <span className="space-badge">{space.archived ? "Archived" : "View only"}</span> : null}
        {me.data ? <WatchButton kind="space" id={space.key} name={space.name} /> : null}
      </div>
      {space.description ? <p className="muted">{space.description}</p> : null}
      {recent.isPending ? (
        <Loading />
      ) : recent.data?.length ? (
        <section>
          <div className="home-head" style={{ marginBottom: "var(--space-3)" }}>
            <h2 style={{ margin: 0 }}>Recently updated</h2>
            {space.canEdit ? <NewPageButton space={space} /> : null}
          </div>
          <RecentList spaceKey={space.key} pages={recent.data} label="Recently updated pages" withAuthor large />
        </section>
      ) : (
        <section>
          {space.canEdit ? (
            <EmptyState
              title="This space has no pages yet"
              action={<NewPageButton space={space} variant="primary" label="Create the first page" />}
            >
              Start from a blank page or one of the templates.
            </EmptyState>
          ) : (
            <EmptyState title="This space has no pages yet">
              Nobody has written here yet. Pages appear here as people who may edit {space.name} add them.
            </EmptyState>
          )}
        </section>
      )}
    </main>
  );
}
