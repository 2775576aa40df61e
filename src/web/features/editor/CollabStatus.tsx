/**
 * Live editing at a glance, at the start of the edit header: who else is in the page (coloured
 * initials, names as labels), the connection in words, and the version the room starts from.
 */
import type { Peer, RoomState } from "./collab-provider";
import { Avatar } from "../../ui/Avatar";
import { Button } from "../../ui/Button";

export function PresenceAvatars({ me, peers }: { me: { name: string; color: string }; peers: Peer[] }) {
  const shown = peers.slice(0, 4);
  const more = peers.length - shown.length;
  return (
    <ul className="presence" aria-label={`In this page: you${peers.map((p) => `, ${p.name}`).join("")}`}>
      <li>
        <Avatar name={me.name} label={`${me.name} (you)`} color={me.color} />
      </li>
      {shown.map((p) => (
        <li key={p.id}>
          <Avatar name={p.name} color={p.color} />
        </li>
      ))}
      {more > 0 ? (
        <li
          className="presence-more"
          title={peers
            .slice(4)
            .map((p) => p.name)
            .join(", ")}
        >
          +{more}
        </li>
      ) : null}
    </ul>
  );
}

export function connectionText(state: RoomState): { short: string; long: string | null } {
  const people = state.peers.length + 1;
  switch (state.connection) {
    case "connected":
      return { short: people === 1 ? "Connected" : `Connected · ${people} people`, long: null };
    case "connecting":
      return { short: "Connecting…", long: null };
    case "reconnecting":
      return { short: "Reconnecting…", long: null };
    case "offline":
      return { short: "Offline", long: "Offline — your changes are kept on this device and will be merged when the connection is back." };
    case "closed":
      return { short: "Disconnected", long: state.closedReason };
  }
}

export function CollabStatus({ state, me }: { state: RoomState; me: { name: string; color: string } }) {
  const text = connectionText(state);
  return (
    <div className="collab-status">
      <PresenceAvatars me={me} peers={state.connection === "connected" ? state.peers : []} />
      <span className={`collab-connection collab-${state.connection}`} role="status" title={text.long ?? undefined}>
        <span className="collab-dot" aria-hidden="true" />
        {text.short}
        {state.version != null ? <span className="collab-version"> · version {state.version}</span> : null}
      </span>
    </div>
  );
}

/** The longer sentence under the header when the room is out of reach. */
export function CollabNotice({ state, onReconnect }: { state: RoomState; onReconnect(): void }) {
  const { long } = connectionText(state);
  if (!long) return null;
  return (
    <p className={`edit-notice collab-notice collab-notice-${state.connection}`} role="status">
      {long}{" "}
      {state.connection === "closed" && state.closeCode === 4429 ? (
        <Button size="sm" variant="ghost" onClick={onReconnect}>
          Try again
        </Button>
      ) : null}
    </p>
  );
}
