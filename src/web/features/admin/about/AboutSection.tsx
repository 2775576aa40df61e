/**
 * About (/admin/about, right dashboard.view): which Cairn this is, a check for a newer release
 * (saying plainly when the server is offline), the Tailscale status of the machine, the
 * background work the server runs (what, when, its last run and error), and the third-party
 * software it ships with the licences and notices. Loaded when first opened.
 */
import { useState } from "react";
import { Loading } from "../../../app/Loading";
import { useAction } from "../../../lib/mutation";
import { fullDate, timeAgo } from "../../../lib/time";
import { Button } from "../../../ui/Button";
import { FormError } from "../../../ui/Field";
import { Card } from "../../../ui/SectionsFrame";
import { useCheckForUpdatesMutation, useAbout, useNotices, type About, type UpdateCheck } from "./queries";
import { TailscaleCard } from "./TailscaleCard";
import { taskWords } from "./background-words";
import "./about.css";

export default function AboutSection() {
  const about = useAbout();
  if (about.isPending) return <Loading />;
  if (about.isError) return <FormError error={`About could not be loaded: ${(about.error as Error).message}`} />;
  return (
    <>
      <VersionCard about={about.data} />
      <TailscaleCard />
      <BackgroundCard about={about.data} />
      <DependenciesCard about={about.data} />
    </>
  );
}

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86400)} days`;
}

function VersionCard({ about }: { about: About }) {
  const [check, setCheck] = useState<UpdateCheck | null>(null);
  const checking = useAction(useCheckForUpdatesMutation(), { done: setCheck });
  const { busy, error } = checking;
  const run = () => checking.run();
  const rows: Array<[string, string]> = [
    ["Version", about.version],
    ["Built", about.builtAt ? fullDate(about.builtAt) : "Running from source (not a built binary)"],
    ["Runtime", `Bun ${about.runtime.bun} on ${about.runtime.platform} ${about.runtime.arch}`],
    ["Running for", duration(about.uptimeSeconds)],
  ];
  return (
    <Card
      id="about-version"
      title={`Cairn ${about.version}`}
      intro="The version of Cairn this server runs, and whether a newer one is out."
    >
      <dl className="about-facts">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="about-check">
        <Button onClick={() => void run()} busy={busy} disabled={!about.releaseFeed && check?.status === "not_configured"}>
          {busy ? "Checking…" : "Check for updates"}
        </Button>
        <p className={`about-check-result${check ? ` is-${check.status}` : ""}`} role="status">
          {check ? (
            <CheckResult check={check} />
          ) : about.releaseFeed ? (
            "Asks the release feed once; nothing is sent about this server."
          ) : (
            "No release feed is set for this server (CAIRN_RELEASE_FEED), so there is nothing to check against."
          )}
        </p>
      </div>
      <FormError error={error} />
    </Card>
  );
}

function CheckResult({ check }: { check: UpdateCheck }) {
  return (
    <>
      {check.message}
      {check.status === "update_available" && check.latest?.url ? (
        <>
          {" "}
          <a href={check.latest.url} target="_blank" rel="noreferrer noopener">
            What is new in {check.latest.version}
          </a>
        </>
      ) : null}
    </>
  );
}

/** The scheduler's tasks, in the order they stop at shutdown. */
function BackgroundCard({ about }: { about: About }) {
  const at = (iso: string | null, none: string) =>
    iso ? (
      <time dateTime={iso} title={fullDate(iso)}>
        {timeAgo(iso)}
      </time>
    ) : (
      none
    );
  return (
    <Card
      id="about-background"
      title="Background work"
      intro="What the server does on its own, when it last did it and when it does it next; listed in the order it stops at shutdown."
    >
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Background tasks">
        <table className="pane-table about-background">
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">When</th>
              <th scope="col">Last run</th>
              <th scope="col">Next run</th>
              <th scope="col">Last error</th>
            </tr>
          </thead>
          <tbody>
            {about.background.map((t) => (
              <tr key={t.name}>
                <td>
                  <span className="about-task">{taskWords(t.name) ?? t.name}</span>
                  {taskWords(t.name) ? <code className="about-task-id">{t.name}</code> : null}
                </td>
                <td data-label="When">{t.running ? `${t.when} (running)` : t.when}</td>
                <td data-label="Last run" className="nowrap">
                  {at(t.lastRunAt, "Not yet")}
                </td>
                <td data-label="Next run" className="nowrap">
                  {at(t.nextRunAt, "—")}
                </td>
                <td data-label="Last error">
                  {t.lastError ? <span title={fullDate(t.lastError.at)}>{t.lastError.message}</span> : "None"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function DependenciesCard({ about }: { about: About }) {
  const [showNotices, setShowNotices] = useState(false);
  const [filter, setFilter] = useState("");
  const notices = useNotices(showNotices);
  const byLicence = new Map<string, number>();
  for (const d of about.dependencies) byLicence.set(d.license, (byLicence.get(d.license) ?? 0) + 1);
  const summary = [...byLicence]
    .sort((a, b) => b[1] - a[1])
    .map(([licence, n]) => `${n} ${licence}`)
    .join(", ");
  const shown = about.dependencies.filter((d) => d.name.toLowerCase().includes(filter.trim().toLowerCase()));
  const which = about.dependenciesFrom === "node_modules" ? " (from source: every production dependency)" : ", the ones in this binary";
  return (
    <Card
      id="about-software"
      title="Third-party software"
      intro={`Cairn is built on ${about.dependencies.length} open-source packages${which}: ${summary}.`}
    >
      <div className="about-software-tools">
        <label className="about-filter">
          <span className="visually-hidden">Find a package</span>
          <input type="search" className="input" placeholder="Find a package" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </label>
        <Button onClick={() => setShowNotices((v) => !v)} aria-expanded={showNotices} aria-controls="about-notices">
          {showNotices ? "Hide the licence texts" : "Show the licence texts"}
        </Button>
        <a className="btn btn-ghost btn-md" href="/api/admin/about/notices" download="cairn-third-party-notices.txt">
          Download notices
        </a>
      </div>
      {showNotices ? (
        <div id="about-notices">
          {notices.isPending ? (
            <Loading />
          ) : notices.isError ? (
            <FormError error={(notices.error as Error).message} />
          ) : (
            <pre className="about-notices" tabIndex={0} aria-label="Third-party notices">
              {notices.data}
            </pre>
          )}
        </div>
      ) : null}
      <div className="table-wrap about-table" tabIndex={0} role="region" aria-label="Packages and their licences">
        <table className="pane-table">
          <thead>
            <tr>
              <th scope="col">Package</th>
              <th scope="col">Version</th>
              <th scope="col">Licence</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((d) => (
              <tr key={`${d.name}@${d.version}`}>
                <td>{d.name}</td>
                <td className="nowrap">{d.version}</td>
                <td>{d.license}</td>
              </tr>
            ))}
            {shown.length === 0 ? (
              <tr>
                <td colSpan={3} className="muted">
                  No package is called “{filter}”.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
