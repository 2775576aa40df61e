/** The page header's buttons that open one section of the right-hand panel. */
import { IconButton } from "../../ui/Button";
import { Info, Lock, MessageSquare, Paperclip } from "../../ui/icons";
import { usePanel, type PanelKind } from "./usePanel";
import "./highlights.css";

// The chunk itself, not index.ts (which imports this file).
const preloadPanel = () => void import("./PagePanel");

const BUTTONS: Array<{ kind: PanelKind; label: string; icon: typeof Info }> = [
  { kind: "comments", label: "Comments", icon: MessageSquare },
  { kind: "attachments", label: "Attachments", icon: Paperclip },
  { kind: "details", label: "Page details", icon: Info },
  { kind: "restrictions", label: "Restrictions", icon: Lock },
];

export function PanelButtons({ signedIn }: { signedIn: boolean }) {
  const { panel, open } = usePanel();
  return (
    <>
      {BUTTONS.filter((b) => signedIn || b.kind === "comments" || b.kind === "details").map(({ kind, label, icon: Icon }) => (
        <IconButton
          key={kind}
          className={kind === "details" || kind === "restrictions" ? "panel-button-extra" : undefined}
          label={label}
          title={label}
          aria-pressed={panel === kind}
          aria-controls={panel === kind ? "page-panel" : undefined}
          onClick={() => open(panel === kind ? null : kind)}
          onPointerEnter={preloadPanel}
          onFocus={preloadPanel}
        >
          <Icon size={16} aria-hidden="true" />
        </IconButton>
      ))}
    </>
  );
}
