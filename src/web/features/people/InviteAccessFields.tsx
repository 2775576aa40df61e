/**
 * What an invite gives: a role and access to spaces. Only what the inviter may give is offered
 * (GET /api/admin/invites/options: roles within their reach, spaces they administer); the server
 * checks each id again.
 */
import type { AnswerOf } from "../../api/types";
import { useInviteOptions } from "./queries";

export type InviteOptions = AnswerOf<"/api/admin/invites/options", "get">;
/** Space id → operation (0 View, 1 Edit, 2 Admin); a space left out gets no grant. */
export type SpaceChoice = Record<string, number>;

const OPERATIONS = [
  { value: 0, label: "Can view" },
  { value: 1, label: "Can edit" },
  { value: 2, label: "Administers" },
];

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

export function InviteAccessFields({
  roleId,
  onRole,
  spaces,
  onSpaces,
}: {
  roleId: string;
  onRole(id: string): void;
  spaces: SpaceChoice;
  onSpaces(next: SpaceChoice): void;
}) {
  const options = useInviteOptions();
  if (!options.data)
    return options.isError ? (
      <p className="form-error" role="alert">
        The roles and spaces you may give could not be loaded: {options.error.message}
      </p>
    ) : null;
  const { roles, spaces: offered } = options.data;
  const role = roles.find((r) => r.id === roleId) ?? roles[0];
  return (
    <>
      {roles.length > 1 ? (
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select
            id="invite-role"
            className="input pane-select"
            value={role?.id ?? ""}
            onChange={(e) => onRole(e.target.value)}
            aria-describedby="invite-role-hint"
          >
            {roles.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
          <p className="field-hint" id="invite-role-hint">
            {sentence(role?.description || "What they may do across the wiki")} Only roles you may give are listed.
          </p>
        </div>
      ) : null}
      {offered.length ? (
        <fieldset className="invite-spaces">
          <legend>Spaces</legend>
          <p className="field-hint">Give access to spaces you administer. Spaces open to everyone signed in need nothing here.</p>
          <ul>
            {offered.map((s) => {
              const id = `invite-space-${s.id}`;
              return (
                <li key={s.id}>
                  <label htmlFor={id}>{s.name}</label>
                  <select
                    id={id}
                    className="input pane-select"
                    value={spaces[s.id] ?? ""}
                    onChange={(e) => {
                      const next = { ...spaces };
                      if (e.target.value === "") delete next[s.id];
                      else next[s.id] = Number(e.target.value);
                      onSpaces(next);
                    }}
                  >
                    <option value="">No access given</option>
                    {OPERATIONS.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </li>
              );
            })}
          </ul>
        </fieldset>
      ) : null}
    </>
  );
}
