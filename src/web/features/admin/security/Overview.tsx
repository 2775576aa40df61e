/** The four figures at the top of the security section, and the two-factor note. */
import { Loading } from "../../../app/Loading";
import { plural } from "./parts";
import { useOverview } from "./queries";

export function OverviewCards() {
  const overview = useOverview();
  if (overview.isPending) return <Loading label="Loading the security overview…" />;
  if (overview.isError)
    return (
      <p className="form-error" role="alert">
        The security overview could not be loaded: {overview.error.message}
      </p>
    );
  const o = overview.data;
  const open = o.openAlerts.critical + o.openAlerts.warning + o.openAlerts.info;
  const alertNote = open
    ? [
        o.openAlerts.critical ? `${o.openAlerts.critical} critical` : "",
        o.openAlerts.warning ? `${o.openAlerts.warning} warning` : "",
        o.openAlerts.info ? `${o.openAlerts.info} info` : "",
      ]
        .filter(Boolean)
        .join(", ")
    : o.openAlerts.acknowledged
      ? `${o.openAlerts.acknowledged} acknowledged`
      : "Nothing needs you";
  return (
    <section aria-label="Security at a glance" className="sec-overview">
      <div className="sec-cards">
        <Stat value={open} label="Open alerts" note={alertNote} bad={o.openAlerts.critical > 0} href="#security-alerts" />
        <Stat value={o.failedSignIns24h} label="Failed sign-ins" note="in the last 24 hours" href="#security-events" />
        <Stat
          value={o.activeLockouts}
          label="Lockouts"
          note={o.activeLockouts ? "in force now" : "no account is locked"}
          href="#security-limits"
        />
        <Stat
          value={o.activeBlocks}
          label="Blocks"
          note={o.activeBlocks ? "in force now" : "no address is blocked"}
          href="#security-blocks"
        />
      </div>
      {!o.twoFactor.available ? (
        <p className="sec-note" style={{ marginTop: "var(--space-3)" }}>
          {o.twoFactor.note}{" "}
          {o.twoFactor.adminsWithout
            ? `${plural(o.twoFactor.adminsWithout, "administrator")} would need to turn it on once it exists.`
            : ""}
        </p>
      ) : null}
    </section>
  );
}

function Stat({ value, label, note, bad, href }: { value: number; label: string; note: string; bad?: boolean; href: string }) {
  return (
    <a className={`sec-stat${bad ? " sec-stat-bad" : ""}`} href={href} style={{ color: "inherit", textDecoration: "none" }}>
      <span className="sec-stat-value">{value}</span>
      <span className="sec-stat-label">{label}</span>
      <span className="sec-stat-note">{note}</span>
    </a>
  );
}
