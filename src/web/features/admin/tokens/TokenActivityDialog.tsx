/** One token's requests per day over the last 30 days, and where its last request came from. */
import { fullDate } from "../../../lib/time";
import { AsyncList } from "../../../ui/AsyncList";
import { Dialog } from "../../../ui/Dialog";
import { DayBars } from "../../../ui/DayBars";
import { plural } from "../../../lib/format";
import { useTokenActivity, type AdminToken } from "./queries";

export function TokenActivityDialog({ token, onClose }: { token: AdminToken | null; onClose: () => void }) {
  const activity = useTokenActivity(token?.id ?? null);
  return (
    <Dialog
      open={token !== null}
      onOpenChange={(o) => (o ? null : onClose())}
      title={token ? `Activity of “${token.name}”` : "Activity"}
      description={token ? `${token.owner.displayName}'s token ${token.prefix}…, the last 30 days.` : undefined}
      wide
    >
      <AsyncList query={activity} what="The activity">
        {(items) => (
          <>
            <dl className="tok-facts">
              <div>
                <dt>Requests in 30 days</dt>
                <dd>{items.totalRequests.toLocaleString("en")}</dd>
              </div>
              <div>
                <dt>Last request</dt>
                <dd>{items.lastUsedAt ? <time dateTime={items.lastUsedAt}>{fullDate(items.lastUsedAt)}</time> : "None counted yet"}</dd>
              </div>
              <div>
                <dt>From the address</dt>
                <dd>{items.lastIp ?? "—"}</dd>
              </div>
              <div>
                <dt>Every request since it was made</dt>
                <dd>{plural(items.token.useCount, "request")}</dd>
              </div>
            </dl>
            {items.totalRequests ? (
              <DayBars
                days={items.days.map((d) => ({ day: d.day, value: d.requests }))}
                label={`Requests with ${items.token.name}, last 30 days`}
                unit="request"
              />
            ) : (
              <p className="dash-empty">This token made no request in the last 30 days. If nobody needs it any more, revoke it.</p>
            )}
          </>
        )}
      </AsyncList>
    </Dialog>
  );
}
