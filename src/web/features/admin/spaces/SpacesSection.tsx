/**
 * Every space (/admin/spaces, right spaces.manage): who administers it and how big it is, making
 * it public or private (right spaces.publish, with the password confirmed), and recovering access
 * to a space nobody administers any more. Content is never shown here: an instance administrator
 * reads a space only through a grant, which "Give me Admin" makes (and the audit log records).
 */
import { useState } from "react";
import { Link } from "wouter";
import { Loading } from "../../../app/Loading";
import { useMe } from "../../../app/session";
import { Button } from "../../../ui/Button";
import { ConfirmDialog } from "../../../ui/Dialog";
import { EmptyState } from "../../../ui/EmptyState";
import { toast } from "../../../ui/toast";
import { Card } from "../../../ui/SectionsFrame";
import { useAuthForm } from "../../../lib/useAuthForm";
import { useReauth } from "../../../lib/reauth";
import { SpaceIcon } from "../../spaces/SpaceIcon";
import { recoverAccess, setPublic, useAllSpaces, type AdminSpace } from "./queries";
import "./spaces.css";

export default function SpacesSection() {
  const spaces = useAllSpaces();
  const me = useMe();
  const canPublish = !!me.data?.permissions.includes("spaces.publish");
  const [recovering, setRecovering] = useState<AdminSpace | null>(null);
  const action = useAuthForm();
  const reauth = useReauth();

  const togglePublic = async (space: AdminSpace) => {
    try {
      const answer = await reauth.guarded(() => setPublic(space.key, !space.isPublic));
      toast.success(space.isPublic ? `${space.name} is private again` : `${space.name} is public`);
      if (answer.warning) toast.message(answer.warning);
    } catch (err) {
      if ((err as { code?: string }).code !== "reauth_cancelled") toast.error(`Nothing was changed: ${(err as Error).message}`);
    }
  };

  const recover = (space: AdminSpace) =>
    action.run(async () => {
      await recoverAccess(space.key);
      toast.success(`You administer ${space.name} now`);
      setRecovering(null);
    });

  return (
    <Card
      id="admin-spaces"
      title="Spaces"
      intro={
        "Every space on this wiki, archived ones too, with who administers it. You see names and sizes here, never content: to " +
        "read or fix a space nobody administers any more, give yourself Admin on it (the audit log records it)."
      }
    >
      {spaces.isPending ? (
        <Loading />
      ) : spaces.isError ? (
        <p className="form-error" role="alert">
          The spaces could not be loaded: {spaces.error.message}
        </p>
      ) : spaces.data.length === 0 ? (
        <EmptyState title="No spaces yet">
          Spaces hold the pages. <Link href="/">Create the first one</Link> from the home screen.
        </EmptyState>
      ) : (
        <ul className="pane-list" aria-label="Spaces">
          {spaces.data.map((space) => (
            <SpaceRow
              key={space.id}
              space={space}
              canPublish={canPublish}
              administersIt={space.administrators.some((a) => a.principalType === 0 && a.principalId === me.data?.id)}
              onTogglePublic={togglePublic}
              onRecover={() => setRecovering(space)}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={recovering !== null}
        onOpenChange={(open) => !open && (setRecovering(null), action.clear())}
        title={`Give yourself Admin on ${recovering?.name ?? ""}?`}
        description={
          "You get an explicit Admin grant on the space: you can then read it and change " +
          "its settings and access. The audit log records that you did."
        }
        confirmLabel="Give me Admin"
        busy={action.busy}
        error={action.error?.message ?? null}
        onConfirm={() => recovering && void recover(recovering)}
      />
      {reauth.dialog}
    </Card>
  );
}

interface RowProps {
  space: AdminSpace;
  canPublish: boolean;
  /** The caller holds Admin on it already: nothing to recover, a link to its settings instead. */
  administersIt: boolean;
  onTogglePublic(s: AdminSpace): void;
  onRecover(): void;
}

function SpaceRow({ space, canPublish, administersIt, onTogglePublic, onRecover }: RowProps) {
  const admins = space.administrators.map((a) => a.principalName ?? "someone removed");
  return (
    <li className="admin-space">
      <SpaceIcon space={space} size={32} />
      <div className="pane-list-text">
        <span className="pane-list-name">
          {space.name}
          <span className="admin-space-key">{space.key}</span>
          {space.archived ? <span className="pane-tag">Archived</span> : null}
          {space.isPublic ? <span className="pane-tag">Public</span> : null}
        </span>
        <span className="pane-list-meta">
          {space.pageCount.toLocaleString("en")} {space.pageCount === 1 ? "page" : "pages"} ·{" "}
          {admins.length ? `administered by ${admins.join(", ")}` : <strong className="pane-bad">nobody administers it</strong>}
        </span>
      </div>
      <div className="pane-list-actions">
        {canPublish ? (
          <Button
            size="sm"
            onClick={() => onTogglePublic(space)}
            aria-label={`${space.isPublic ? "Make private" : "Make public"}: ${space.name}`}
          >
            {space.isPublic ? "Make private" : "Make public"}
          </Button>
        ) : null}
        {administersIt ? (
          <Link
            className="btn btn-secondary btn-sm"
            href={`/s/${encodeURIComponent(space.key)}/settings`}
            aria-label={`Space settings: ${space.name}`}
          >
            Space settings
          </Link>
        ) : (
          <Button size="sm" onClick={onRecover} aria-label={`Give me Admin on ${space.name}`}>
            Give me Admin
          </Button>
        )}
      </div>
    </li>
  );
}
