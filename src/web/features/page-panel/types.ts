/** What the panel is given by the page that opens it. */
import type { Page, Space } from "../../api/types";
import type { TextAnchor } from "./anchors";
import type { PanelState } from "./usePanel";

export interface PagePanelProps {
  page: Page;
  space: Space;
  state: PanelState;
  /** The passage chosen for a new comment, until it is posted or dropped. */
  draftAnchor: TextAnchor | null;
  onDraftDone(): void;
  /** Comment ids whose passage is in the page as drawn (null: not looked for yet). */
  found: Set<string> | null;
}
