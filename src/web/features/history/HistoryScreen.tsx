// TEMPORARY scaffold, replaced by the history feature.
import type { Space } from "../../api/types";
export default function HistoryScreen(_: { space: Space; pageId: string; versionNumber?: number }) {
  return <main id="main" className="main-column"><h1>History</h1></main>;
}
