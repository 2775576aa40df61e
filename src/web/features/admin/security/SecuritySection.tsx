/**
 * The security section of the admin area (/admin/security, right security.manage): the figures
 * at a glance, alerts to acknowledge and resolve, address blocks, the events, and the limits
 * with the lockouts in force. Loaded when first opened.
 */
import { AlertsCard } from "./Alerts";
import { BlocksCard } from "./Blocks";
import { EventsCard } from "./Events";
import { LimitsCard } from "./Limits";
import { OverviewCards } from "./Overview";
import "./security.css";

export default function SecuritySection() {
  return (
    <>
      <OverviewCards />
      <AlertsCard />
      <BlocksCard />
      <EventsCard />
      <LimitsCard />
    </>
  );
}
