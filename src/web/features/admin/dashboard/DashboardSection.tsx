/**
 * The dashboard of the admin area (/admin/dashboard, right dashboard.view): the instance at a
 * glance (people, content, storage, health), page views per day over 7, 30 or 90 days, the most
 * read pages and the people who saved the most versions. Loaded when first opened.
 */
import { useState } from "react";
import { Link } from "wouter";
import { Loading } from "../../../app/Loading";
import { pagePath } from "../../../lib/slug";
import { fullDate, timeAgo } from "../../../lib/time";
import { Card } from "../../../ui/SectionsFrame";
import { DayBars } from "../../../ui/DayBars";
import { formatBytes, formatUptime, plural } from "../../../lib/format";
import { RANGES, useDashboard, type Dashboard, type Range } from "./queries";
import "./dashboard.css";

export default function DashboardSection() {
  const [range, setRange] = useState<Range>(30);
  const dashboard = useDashboard(range);
  if (dashboard.isPending) return <Loading label="Loading the dashboard…" />;
  if (dashboard.isError)
    return (
      <p className="form-error" role="alert">
        The dashboard could not be loaded: {dashboard.error.message}
      </p>
    );
  const d = dashboard.data;
  return (
    <>
      <Glance d={d} />
      <Card
        id="dashboard-usage"
        title="Page views"
        intro={
          "A view is a signed-in person or a visitor of a public space opening a page; reading it " +
          "again within ten minutes, API tokens and crawlers do not count."
        }
        action={<RangeSwitch value={range} onChange={setRange} busy={dashboard.isFetching} />}
      >
        {d.usage.totalViews ? (
          <DayBars
            days={d.usage.viewsPerDay.map((v) => ({ day: v.day, value: v.views }))}
            label={`Page views, last ${d.rangeDays} days`}
            unit="view"
          />
        ) : (
          <p className="dash-empty">
            No page has been read in the last {d.rangeDays} days yet. Views are counted from now on as people open pages; share a space with
            your team to get them reading.
          </p>
        )}
      </Card>
      <div className="dash-pair">
        <TopPages d={d} />
        <TopEditors d={d} />
      </div>
    </>
  );
}

function RangeSwitch({ value, onChange, busy }: { value: Range; onChange: (r: Range) => void; busy: boolean }) {
  return (
    <div className="dash-range" role="group" aria-label="Days shown" aria-busy={busy}>
      {RANGES.map((r) => (
        <button key={r} type="button" className="dash-range-option" aria-pressed={r === value} onClick={() => onChange(r)}>
          {r} days
        </button>
      ))}
    </div>
  );
}

function Glance({ d }: { d: Dashboard }) {
  const { people, content, storage, health } = d;
  const stored = storage.databaseBytes + storage.filesBytes + storage.backupsBytes;
  const diskLow = health.diskFreeBytes !== null && health.diskTotalBytes !== null && health.diskFreeBytes < health.diskTotalBytes * 0.1;
  return (
    <section aria-label="The instance at a glance" className="dash-cards">
      <Stat title="People" value={people.active.toLocaleString("en")} caption={people.active === 1 ? "active account" : "active accounts"}>
        <Row k="Invited" v={people.invited} />
        <Row k="Suspended" v={people.suspended} />
      </Stat>
      <Stat title="Content" value={content.pages.toLocaleString("en")} caption={content.pages === 1 ? "published page" : "published pages"}>
        <Row k="Spaces" v={content.spaces} />
        <Row k="Versions" v={content.versions.toLocaleString("en")} />
        <Row k="Drafts" v={content.drafts.toLocaleString("en")} />
        <Row k="In the trash" v={content.trashed.toLocaleString("en")} />
        <Row k="Attachments" v={`${content.attachments.toLocaleString("en")} (${formatBytes(content.attachmentBytes)})`} />
      </Stat>
      <Stat title="Storage" value={formatBytes(stored)} caption={`in all, measured ${timeAgo(storage.measuredAt)}`}>
        <Row k="Database" v={formatBytes(storage.databaseBytes)} />
        <Row k="Files" v={formatBytes(storage.filesBytes)} />
        <Row k="Backups" v={formatBytes(storage.backupsBytes)} />
      </Stat>
      <Stat
        title="Health"
        value={health.diskFreeBytes === null ? "Unknown" : formatBytes(health.diskFreeBytes)}
        caption={diskLow ? "free on disk: running low" : "free on disk"}
        bad={diskLow}
      >
        <Row
          k="Last backup"
          v={health.lastBackupAt ? <time dateTime={health.lastBackupAt}>{fullDate(health.lastBackupAt)}</time> : "Not yet"}
        />
        <Row k="Version" v={health.version} />
        <Row k="Up for" v={formatUptime(health.uptimeSeconds)} />
      </Stat>
    </section>
  );
}

function Stat({
  title,
  value,
  caption,
  bad,
  children,
}: {
  title: string;
  value: string;
  caption: string;
  bad?: boolean;
  children: React.ReactNode;
}) {
  const id = `dash-${title.toLowerCase()}`;
  return (
    <section className={`dash-stat${bad ? " dash-stat-bad" : ""}`} aria-labelledby={id}>
      <h2 id={id} className="dash-stat-title">
        {title}
      </h2>
      <p className="dash-stat-value">
        {value} <span className="dash-stat-note">{caption}</span>
      </p>
      <dl className="dash-stat-rows">{children}</dl>
    </section>
  );
}

const Row = ({ k, v }: { k: string; v: React.ReactNode }) => (
  <div>
    <dt>{k}</dt>
    <dd>{v}</dd>
  </div>
);

function TopPages({ d }: { d: Dashboard }) {
  return (
    <Card id="dashboard-top-pages" title="Most read pages" intro={`The last ${d.rangeDays} days; pages you may not read are left out.`}>
      {d.usage.topPages.length ? (
        <ol className="dash-top">
          {d.usage.topPages.map((p) => (
            <li key={p.pageId}>
              <span className="dash-top-name">
                <Link href={pagePath(p.spaceKey, p.pageId, p.title)}>{p.title || "Untitled"}</Link>
                <span className="dash-top-meta">{p.spaceName}</span>
              </span>
              <span className="dash-top-count">{plural(p.views, "view")}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="dash-empty">When people read pages, the most read appear here, so you can see what the team relies on.</p>
      )}
    </Card>
  );
}

function TopEditors({ d }: { d: Dashboard }) {
  return (
    <Card id="dashboard-top-editors" title="Most active editors" intro={`Versions saved in the last ${d.rangeDays} days.`}>
      {d.usage.topEditors.length ? (
        <ol className="dash-top">
          {d.usage.topEditors.map((e) => (
            <li key={e.userId}>
              <span className="dash-top-name">{e.displayName}</span>
              <span className="dash-top-count">{plural(e.versions, "version")}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="dash-empty">
          Nobody saved a page in the last {d.rangeDays} days. Create a space and write its first page, or invite people to write with you.
        </p>
      )}
    </Card>
  );
}
