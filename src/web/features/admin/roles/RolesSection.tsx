/**
 * The admin area's Roles section (right roles.manage): the rights matrix (rights by area ×
 * roles), the roles themselves (create, rename, delete, reset a built-in one) and the record
 * of when the matrix was last reviewed. Loaded when first opened.
 */
import { useState } from "react";
import { Loading } from "../../../app/Loading";
import { useMe } from "../../../app/session";
import { useAction } from "../../../lib/mutation";
import { fullDate } from "../../../lib/time";
import { Button } from "../../../ui/Button";
import { Card } from "../../../ui/SectionsFrame";
import { RightsMatrix } from "./RightsMatrix";
import { RoleActionDialog, type RoleAction } from "./RoleDialogs";
import { plural, TIER_NAMES, useReviewRolesMutation, useRoles, type Role } from "./queries";
import "./roles.css";

export default function RolesSection() {
  const me = useMe();
  const roles = useRoles();
  const [action, setAction] = useState<RoleAction | null>(null);
  const reviewal = useAction(useReviewRolesMutation(), { success: "Marked reviewed", toastFailure: true });
  if (!me.data) return null;
  const viewer = { tier: me.data.role, permissions: me.data.permissions };
  const reviewing = reviewal.busy;
  const review = () => reviewal.run();

  if (roles.isPending) return <Loading label="Loading roles…" />;
  if (roles.isError)
    return (
      <p className="form-error" role="alert">
        The roles could not be loaded: {roles.error.message}
      </p>
    );
  const answer = roles.data;
  const mayChange = (r: Role) => !(r.tier === 2 && viewer.tier !== 2) && r.tier <= viewer.tier;
  return (
    <>
      <Card
        id="roles-matrix-title"
        title="Rights"
        intro={
          "Which instance rights each role holds. Tick or clear boxes, then save; people holding a role get its new " +
          "rights on their next click, API tokens included. Space access is given per space, not here."
        }
      >
        <RightsMatrix answer={answer} viewer={viewer} />
        <div className="roles-review">
          <p className="muted" role="status">
            {answer.reviewedAt ? (
              <>
                Last reviewed <time dateTime={answer.reviewedAt}>{fullDate(answer.reviewedAt)}</time>
                {answer.reviewedBy ? ` by ${answer.reviewedBy.displayName}` : ""}.
              </>
            ) : (
              "Nobody has marked these rights reviewed yet. Look them over now and then, and record that you did."
            )}
          </p>
          <Button onClick={() => void review()} busy={reviewing}>
            Mark reviewed
          </Button>
        </div>
      </Card>
      <Card
        id="roles-list-title"
        title="Roles"
        intro={
          "User, Administrator and Owner are built in: they can be reset to Cairn's defaults " +
          "but not deleted. Custom roles sit in the Member or Admin tier."
        }
        action={
          <Button variant="primary" onClick={() => setAction({ kind: "create" })}>
            New role
          </Button>
        }
      >
        <ul className="pane-list" aria-label="Roles">
          {answer.roles.map((role) => (
            <li key={role.id}>
              <div className="pane-list-text">
                <span className="pane-list-name">
                  {role.name}
                  <span className="pane-tag">{TIER_NAMES[role.tier]}</span>
                  {role.builtIn ? <span className="pane-tag roles-tag-builtin">Built in</span> : null}
                </span>
                {role.description ? <span className="pane-list-meta">{role.description}</span> : null}
                <span className="pane-list-meta">
                  {plural(role.permissions.length, "right")} · held by {plural(role.accounts, "person", "people")}
                </span>
              </div>
              {mayChange(role) ? (
                <div className="pane-list-actions">
                  <Button
                    size="sm"
                    onClick={() => setAction({ kind: "rename", role })}
                    aria-label={role.builtIn ? `Describe ${role.name}` : `Rename ${role.name}`}
                  >
                    {role.builtIn ? "Describe" : "Rename"}
                  </Button>
                  {role.builtIn ? (
                    <Button size="sm" onClick={() => setAction({ kind: "reset", role })} aria-label={`Reset ${role.name} to its defaults`}>
                      Reset
                    </Button>
                  ) : role.accounts > 0 ? (
                    <span className="muted roles-why">Give its {plural(role.accounts, "holder")} another role to delete it</span>
                  ) : (
                    <Button
                      size="sm"
                      variant="danger"
                      onClick={() => setAction({ kind: "delete", role })}
                      aria-label={`Delete ${role.name}`}
                    >
                      Delete
                    </Button>
                  )}
                </div>
              ) : (
                <span className="muted roles-why">{role.tier === 2 ? "Only the owner changes this role" : "Above your own role"}</span>
              )}
            </li>
          ))}
        </ul>
      </Card>
      <RoleActionDialog action={action} roles={answer.roles} viewerTier={viewer.tier} onClose={() => setAction(null)} />
    </>
  );
}
