/**
 * The rights matrix: rights grouped by area as rows, roles as columns, a checkbox in each cell.
 * Changes are kept as a draft until Save (one PUT per changed role, each re-authenticated when
 * the server asks) or Discard. A cell is locked, with the reason beside it, when the owner must
 * keep the right, when the role is not the viewer's to change, or when the viewer would grant a
 * right they do not hold. On a narrow screen the table scrolls sideways under a sticky first column.
 */
import { Fragment, useMemo, useState } from "react";
import { api, ApiError, data } from "../../../api/client";
import { Button } from "../../../ui/Button";
import { FormError } from "../../../ui/Field";
import { useTask } from "../../../lib/mutation";
import { useReauth } from "../../../lib/reauth";
import { AREA_LABELS, plural, refreshRoles, TIER_NAMES, type Role, type RolesAnswer } from "./queries";

interface Viewer {
  tier: number;
  permissions: readonly string[];
}

/** Why a cell cannot be changed by this viewer, or null. */
function lockOf(role: Role, right: string, checked: boolean, viewer: Viewer): string | null {
  if (role.reserved.includes(right)) return "The owner always keeps this right";
  if (role.tier === 2 && viewer.tier !== 2) return "Only the owner changes the Owner role";
  if (role.tier > viewer.tier) return "This role is above your own";
  if (!checked && viewer.tier !== 2 && !viewer.permissions.includes(right)) return "You can only grant rights you hold";
  return null;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

export function RightsMatrix({ answer, viewer }: { answer: RolesAnswer; viewer: Viewer }) {
  const [draft, setDraft] = useState<Record<string, string[]>>({});
  const { guarded, dialog } = useReauth();
  const roles = answer.roles;
  const rowsByArea = useMemo(
    () => answer.areas.map((area) => ({ area, rights: answer.rights.filter((r) => r.area === area) })).filter((g) => g.rights.length),
    [answer],
  );

  const rightsOf = (role: Role) => draft[role.id] ?? role.permissions;
  const dirty = roles.filter((r) => draft[r.id] && !sameSet(draft[r.id]!, r.permissions));

  const toggle = (role: Role, right: string, on: boolean) => {
    const current = rightsOf(role);
    const next = on ? [...current, right] : current.filter((r) => r !== right);
    setDraft((d) => ({ ...d, [role.id]: next }));
  };

  const task = useTask({
    failure: (err) =>
      err instanceof ApiError && err.code === "reauth_cancelled"
        ? "Nothing more was saved: the password was not confirmed."
        : (err as Error).message,
    success: () => (dirty.length === 1 ? `Rights of ${dirty[0]!.name} saved` : `Rights of ${dirty.length} roles saved`),
    done: () => setDraft({}),
  });
  const saving = task.busy;
  const error = task.error;
  const save = () => {
    const done: string[] = [];
    return task.run({
      what: "save",
      work: async () => {
        try {
          for (const role of dirty) {
            await guarded(() =>
              data(
                api.PUT("/api/admin/roles/{roleId}/permissions", {
                  params: { path: { roleId: role.id } },
                  body: { permissions: draft[role.id]! },
                }),
              ),
            );
            done.push(role.id);
          }
        } catch (err) {
          // What was saved stays saved; what was not stays in the draft to try again.
          setDraft((d) => Object.fromEntries(Object.entries(d).filter(([id]) => !done.includes(id))));
          throw err;
        } finally {
          await refreshRoles();
        }
      },
    });
  };

  return (
    <>
      <div
        className="table-wrap roles-matrix-wrap"
        tabIndex={0}
        role="region"
        aria-label="Rights matrix: rights by role; scrolls sideways on a narrow screen"
      >
        <table className="pane-table roles-matrix">
          <caption className="visually-hidden">Which rights each role holds</caption>
          <thead>
            <tr>
              <th scope="col" className="roles-matrix-corner">
                Right
              </th>
              {roles.map((role) => (
                <th scope="col" key={role.id} className="roles-matrix-role">
                  <span className="roles-matrix-name">{role.name}</span>
                  <span className="roles-matrix-meta">{TIER_NAMES[role.tier]}</span>
                  <span className="roles-matrix-meta">{plural(role.accounts, "person", "people")}</span>
                  {draft[role.id] && !sameSet(draft[role.id]!, role.permissions) ? (
                    <span className="roles-matrix-changed">changed</span>
                  ) : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rowsByArea.map(({ area, rights }) => (
              <Fragment key={area}>
                <tr className="roles-matrix-area">
                  <th scope="colgroup" colSpan={roles.length + 1}>
                    {AREA_LABELS[area] ?? area}
                  </th>
                </tr>
                {rights.map((right) => (
                  <tr key={right.key}>
                    <th scope="row" className="roles-matrix-right">
                      <span className="roles-matrix-desc">{right.description}</span>
                      <code>{right.key}</code>
                    </th>
                    {roles.map((role) => {
                      const checked = rightsOf(role).includes(right.key);
                      const lock = lockOf(role, right.key, checked, viewer);
                      return (
                        <td key={role.id} className="roles-matrix-cell">
                          <label className="roles-matrix-check" title={lock ?? undefined}>
                            <input
                              type="checkbox"
                              checked={checked}
                              disabled={!!lock || saving}
                              onChange={(e) => toggle(role, right.key, e.target.checked)}
                              aria-label={`${role.name}: ${right.description}${lock ? ` (locked: ${lock})` : ""}`}
                            />
                            {lock && role.reserved.includes(right.key) ? (
                              <span className="roles-matrix-lock" aria-hidden="true">
                                reserved
                              </span>
                            ) : null}
                          </label>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted roles-matrix-note">
        “Reserved” rights stay with the owner whatever else changes, so the instance can always be put right. A greyed box is one you cannot
        change: hover or focus it to see why.
      </p>
      <FormError error={error} />
      <div className="roles-matrix-actions" aria-live="polite">
        {dirty.length ? (
          <span className="roles-matrix-dirty">{plural(dirty.length, "role")} changed, not saved yet.</span>
        ) : (
          <span className="muted">No unsaved changes.</span>
        )}
        <Button onClick={() => setDraft({})} disabled={!dirty.length || saving}>
          Discard
        </Button>
        <Button variant="primary" onClick={() => void save()} busy={saving} disabled={!dirty.length}>
          Save rights
        </Button>
      </div>
      {dialog}
    </>
  );
}
