/** The first space (POST /api/spaces), and the last screen: where to go next. */
import { Link } from "wouter";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import { useInstance } from "../../app/session";
import { useAuthForm } from "../../lib/useAuthForm";
import { useSpaces } from "../spaces/queries";
import { SpaceFields, useSpaceDraft } from "../spaces/SpaceFields";
import { StepForm, useWizard } from "./wizard";

/** How the last screen names a skipped step. */
const LATER: Record<string, string> = {
  instance: "the wiki's name",
  registration: "who can join",
  permissions: "default access",
  backups: "backups",
  "first-space": "a first space",
};

/** The space made in this visit, so the last screen opens that one. */
let madeHere: string | null = null;

export function FirstSpaceStep() {
  const wizard = useWizard();
  const form = useAuthForm();
  const spaces = useSpaces();
  const draft = useSpaceDraft();
  const existing = spaces.data?.find((s) => s.key === madeHere) ?? spaces.data?.[0];
  const intro = (
    <p>
      A space holds the pages of one team, project or topic, with its own page tree and permissions. Start with one; add more whenever you
      like.
    </p>
  );
  if (existing) {
    return (
      <StepForm form={form} intro={intro}>
        <p className="setup-note">
          {existing.key === madeHere ? "Your space is ready" : "You already have a space"}: <strong>{existing.name}</strong> ({existing.key}
          ). Continue to finish; create more from the home screen whenever you like.
        </p>
      </StepForm>
    );
  }
  const onContinue = async () => {
    const space = await data(
      api.POST("/api/spaces", { body: { key: draft.key, name: draft.name, description: draft.description, welcomePage: true } }),
    );
    madeHere = space.key;
    try {
      await wizard.advance(false);
    } finally {
      // Made either way: should finishing fail, this step shows the space rather than the form.
      await queryClient.invalidateQueries({ queryKey: keys.spaces });
    }
  };
  return (
    <StepForm form={form} onContinue={onContinue} continueLabel="Create space" intro={intro}>
      <SpaceFields draft={draft} fieldError={form.fieldError} nameLabel="Space name" rowClassName="setup-grid setup-grid-key" />
    </StepForm>
  );
}

export function DoneStep() {
  const { state } = useWizard();
  const instance = useInstance();
  const spaces = useSpaces();
  const space = spaces.data?.find((s) => s.key === madeHere) ?? spaces.data?.[0];
  const skipped = state.steps.filter((s) => s.state === "skipped");
  return (
    <section className="setup-step" aria-labelledby="setup-step-title">
      <h1 id="setup-step-title" tabIndex={-1}>
        {instance.data?.name ?? "Cairn"} is ready
      </h1>
      <div className="setup-intro">
        <p>Setup is finished. Here is where to go next.</p>
      </div>
      <ul className="setup-next">
        {space ? (
          <li>
            <Link href={`/s/${space.key}`} className="btn btn-primary btn-md" autoFocus>
              Open {space.name}
            </Link>
            <span className="muted">
              {space.homepageId
                ? "Its welcome page explains the basics: editing, links, comments and search."
                : "Write the first page: press E to edit, / for blocks."}
            </span>
          </li>
        ) : (
          <li>
            <Link href="/" className="btn btn-primary btn-md" autoFocus>
              Create your first space
            </Link>
            <span className="muted">From the home screen.</span>
          </li>
        )}
        <li>
          <Link href="/admin/invites" className="btn btn-secondary btn-md">
            Invite people
          </Link>
          <span className="muted">Make invite links and see who has not joined yet.</span>
        </li>
        <li>
          <Link href="/admin" className="btn btn-secondary btn-md">
            Administration
          </Link>
          <span className="muted">People, roles, settings and everything this wizard set.</span>
        </li>
      </ul>
      {skipped.length ? (
        <p className="muted setup-note">
          You skipped: {skipped.map((s) => LATER[s.key] ?? s.title).join(", ")}. You can set {skipped.length === 1 ? "it" : "them"} up later
          in Administration.
        </p>
      ) : null}
    </section>
  );
}
