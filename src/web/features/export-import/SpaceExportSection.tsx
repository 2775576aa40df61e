/**
 * Space settings › Export (and /s/KEY/export for readers): the whole space as a static site or as
 * a wiki pack, each a download with its progress shown while the server builds it. Which formats
 * are allowed is set under General › Exports; a format switched off is explained here, with the
 * way to switch it on for those who administer the space.
 */
import { useState, useSyncExternalStore } from "react";
import { Link } from "wouter";
import type { Space } from "../../api/types";
import { Button } from "../../ui/Button";
import { Download } from "../../ui/icons";
import { toast } from "../../ui/toast";
import { phaseText } from "./follow";
import { exportRun, forget, startExport, subscribe, type Audience, type ExportKind } from "./space-exports";
import "./export-import.css";

export default function SpaceExportSection({ space }: { space: Space }) {
  // Only administrators can open the switches; others are told who can.
  const general = space.canAdmin ? `/s/${space.key}/settings/general` : null;
  return (
    <>
      <section className="settings-card" aria-labelledby="export-site">
        <h2 id="export-site">Static site</h2>
        <p className="muted">
          Every page as a web page, in one .zip file. Unzip it and open <code>index.html</code> in any browser, from disk or on any web
          server: the sidebar tree, images, attachments and a search box come with it.
        </p>
        {space.exports.site ? <SiteExport space={space} /> : <SwitchedOff what="The static site" general={general} />}
      </section>
      <section className="settings-card" aria-labelledby="export-pack">
        <h2 id="export-pack">Wiki pack</h2>
        <p className="muted">
          The whole space in one .zip file to move or copy it to another Cairn (Import, on its home screen): every page with all its
          versions, comments, labels, attachments and templates, and authors by name and e-mail. Accounts, passwords and permissions stay
          here.
        </p>
        {space.exports.pack ? (
          <Runner space={space} kind="pack" audience="me" label="Download the wiki pack" />
        ) : (
          <SwitchedOff what="The wiki pack" general={general} />
        )}
      </section>
      <p className="muted export-note">
        A single page can be downloaded as Markdown, HTML or PDF from its ⋯ menu.
        {general ? (
          <>
            {" "}
            Which formats are offered is set under <Link href={general}>General › Exports</Link>.
          </>
        ) : null}
      </p>
    </>
  );
}

function SiteExport({ space }: { space: Space }) {
  const [audience, setAudience] = useState<Audience>(space.isPublic ? "anonymous" : "me");
  const choices = [
    {
      value: "anonymous" as const,
      label: "What anyone may see",
      hint: space.isPublic
        ? "Only what a visitor who is not signed in reads: right for publishing."
        : "Only for public spaces: this space is private, so a visitor sees nothing.",
      disabled: !space.isPublic,
    },
    { value: "me" as const, label: "What I can see", hint: "Every page you can read, restricted ones included: keep the file private." },
  ];
  return (
    <>
      <fieldset className="settings-fieldset">
        <legend>Pages to include</legend>
        <div className="choice-row export-choices">
          {choices.map((c) => (
            <label key={c.value} className={`choice${c.disabled ? " choice-disabled" : ""}`}>
              <input
                type="radio"
                name={`site-audience-${space.key}`}
                value={c.value}
                checked={audience === c.value}
                disabled={c.disabled}
                onChange={() => setAudience(c.value)}
              />
              <span>
                <span className="choice-label">{c.label}</span>
                <span className="choice-hint">{c.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <Runner space={space} kind="site" audience={audience} label="Download the static site" />
    </>
  );
}

function SwitchedOff({ what, general }: { what: string; general: string | null }) {
  return (
    <p className="export-off">
      {what} export is switched off for this space.{" "}
      {general ? <Link href={general}>Switch it on under General › Exports</Link> : "Someone who administers the space can switch it on"}.
    </p>
  );
}

/** The download button, then the export's progress, its end, or why it failed. */
function Runner({ space, kind, audience, label }: { space: Space; kind: ExportKind; audience: Audience; label: string }) {
  const run = useSyncExternalStore(subscribe, () => exportRun(space.key, kind));
  const name = kind === "site" ? "static site" : "wiki pack";
  const start = () =>
    void startExport(space.key, kind, audience).then(() => {
      if (exportRun(space.key, kind)?.state === "done") toast.success(`The ${name} of ${space.name} is downloaded`);
    });
  const running = run?.state === "running";
  return (
    <div className="export-run">
      <Button variant="primary" onClick={start} busy={running}>
        <Download size={16} aria-hidden="true" /> {label}
      </Button>
      {running ? (
        <div className="export-progress" role="status" aria-live="polite">
          <span>
            Building the {name}: {phaseText(run.phase)} ({run.percent}%). Your browser saves the file as it comes; you can leave this
            screen.
          </span>
          <progress max={100} value={run.percent} aria-label={`Building the ${name}`} />
        </div>
      ) : run?.state === "done" ? (
        <p className="export-result" role="status">
          The {name} is ready: your browser has saved it in its downloads.{" "}
          <button type="button" className="export-link-button" onClick={() => forget(space.key, kind)}>
            Dismiss
          </button>
        </p>
      ) : run?.state === "unfollowed" ? (
        <p className="export-result" role="status">
          Your browser is downloading the {name}; its progress cannot be shown here. Look in your browser's downloads.
        </p>
      ) : run?.state === "failed" ? (
        <p className="form-error" role="alert">
          The {name} was not made. {run.error}
        </p>
      ) : null}
    </div>
  );
}
