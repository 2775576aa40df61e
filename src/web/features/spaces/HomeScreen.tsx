import { useState } from "react";
import { Link } from "wouter";
import type { SpaceSummary } from "../../api/types";
import { Loading } from "../../app/Loading";
import { Button } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { Plus } from "../../ui/icons";
import { CreateSpaceDialog } from "./CreateSpaceDialog";
import { useRecentPages, useSpaces } from "./queries";
import { RecentList } from "./RecentList";
import { SpaceIcon } from "./SpaceIcon";
import "./spaces.css";
import { useTitle } from "../../lib/title";
import { useMe } from "../../app/session";
import { SetupBanner } from "../setup";
import { ImportSpaceButton } from "../export-import";

/** The spaces the person can see, each with its recently updated pages. */
export function HomeScreen() {
  const spaces = useSpaces();
  useTitle("Spaces");
  const [creating, setCreating] = useState(false);
  const me = useMe();
  const canCreate = !!me.data?.permissions.includes("spaces.create");
  // Administrators and the owner set the wiki up; a member's spaces are given to them.
  const administers = (me.data?.role ?? 0) >= 1;
  const create = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <Plus size={16} aria-hidden="true" /> Create space
    </Button>
  );
  return (
    <main id="main" className="main-column" style={{ maxWidth: "1100px" }}>
      <div className="home-head">
        <h1>Spaces</h1>
        {spaces.data?.length && canCreate ? (
          <div style={{ display: "flex", gap: "var(--space-2)", flexWrap: "wrap" }}>
            <ImportSpaceButton />
            {create}
          </div>
        ) : null}
      </div>
      <SetupBanner />
      {spaces.isPending ? (
        <Loading />
      ) : spaces.error ? (
        <p className="form-error" role="alert">
          Your spaces could not be loaded: {spaces.error.message}. Reload the page to try again.
        </p>
      ) : spaces.data.length === 0 ? (
        <NoSpaces canCreate={canCreate} administers={administers} onCreate={() => setCreating(true)} />
      ) : (
        <ul className="space-grid">
          {spaces.data.map((space) => (
            <SpaceCard key={space.id} space={space} />
          ))}
        </ul>
      )}
      <CreateSpaceDialog open={creating} onOpenChange={setCreating} />
    </main>
  );
}

/**
 * No space to show. Someone who runs the wiki starts one; a member has not been given any yet,
 * so the way on is to ask (a member who may create spaces is offered that too, second).
 */
function NoSpaces({ canCreate, administers, onCreate }: { canCreate: boolean; administers: boolean; onCreate: () => void }) {
  // Asking comes first for a member: creating is offered, not pressed on them.
  const actions = (
    <div style={{ display: "flex", gap: "var(--space-2)", flexWrap: "wrap", justifyContent: "center" }}>
      <Button variant={administers ? "primary" : "secondary"} onClick={onCreate}>
        <Plus size={16} aria-hidden="true" /> Create space
      </Button>
      <ImportSpaceButton />
    </div>
  );
  if (canCreate && administers) {
    return (
      <EmptyState title="Create your first space" action={actions}>
        A space holds the pages of one team, project or topic. Start with one, or import one from another Cairn, Markdown files or
        Confluence; you can add more at any time.
      </EmptyState>
    );
  }
  return (
    <EmptyState title="Ask an administrator for access" action={canCreate ? actions : undefined}>
      You are not in any space yet. Spaces hold a team's pages, and an administrator gives people access to them: ask one to add you, and
      the spaces appear here.
      {canCreate ? " You may also start a space of your own." : ""}
    </EmptyState>
  );
}

function SpaceCard({ space }: { space: SpaceSummary }) {
  const recent = useRecentPages(space.id, 3);
  return (
    <li className="space-card">
      <div className="space-card-head">
        <SpaceIcon space={space} size={32} />
        <Link href={`/s/${space.key}`}>{space.name}</Link>
        {space.isPublic ? <span className="space-badge">Public</span> : null}
        {space.archived ? <span className="space-badge">Archived</span> : null}
      </div>
      {space.description ? <p className="space-desc">{space.description}</p> : null}
      {recent.data?.length ? (
        <RecentList spaceKey={space.key} pages={recent.data} label={`Recently updated in ${space.name}`} />
      ) : recent.data ? (
        <p className="space-desc">No pages yet.</p>
      ) : null}
    </li>
  );
}
