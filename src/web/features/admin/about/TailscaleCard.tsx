/** The machine's Tailscale status (GET /api/admin/tailscale): never an error, at worst "not set up" with the reason. */
import { useQueryClient } from "@tanstack/react-query";
import { Loading } from "../../../app/Loading";
import { fullDate, timeAgo } from "../../../lib/time";
import { Button } from "../../../ui/Button";
import { FormError } from "../../../ui/Field";
import { Card } from "../../../ui/SectionsFrame";
import { aboutKeys, useTailscale, type TailscaleStatus } from "./queries";

export function TailscaleCard() {
  const status = useTailscale();
  const client = useQueryClient();
  const again = (
    <Button size="sm" busy={status.isFetching} onClick={() => void client.invalidateQueries({ queryKey: aboutKeys.tailscale })}>
      Check again
    </Button>
  );
  return (
    <Card
      id="about-tailscale"
      title="Tailscale"
      action={again}
      intro="Tailscale lets your team reach this server privately, without opening it to the internet."
    >
      {status.isPending ? (
        <Loading />
      ) : status.isError ? (
        <FormError error={(status.error as Error).message} />
      ) : (
        <TailscaleFacts s={status.data} />
      )}
    </Card>
  );
}

function TailscaleFacts({ s }: { s: TailscaleStatus }) {
  const state = !s.configured ? "Not set up" : s.online ? "Connected" : "Not connected";
  const rows: Array<[string, string]> = s.configured
    ? [
        ["Address", s.addresses.length ? s.addresses.join(", ") : "None yet"],
        ["Name", s.dnsName ?? s.hostName ?? "Unknown"],
        ["Tailnet", s.tailnet ?? "Unknown"],
        ["Key expires", s.keyExpiry ? fullDate(s.keyExpiry) : "Never (key expiry is off)"],
      ]
    : [];
  return (
    <>
      <p className={`about-state ${s.configured && s.online ? "pane-ok" : s.configured ? "pane-bad" : ""}`}>
        <strong>{state}</strong>
        {s.reason ? <span className="muted"> — {s.reason}</span> : null}
      </p>
      {rows.length ? (
        <dl className="about-facts">
          {rows.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <p className="muted about-checked">Checked {timeAgo(s.checkedAt)}.</p>
    </>
  );
}
