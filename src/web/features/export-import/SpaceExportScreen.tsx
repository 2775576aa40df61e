/**
 * /s/KEY/export: the space's static site and wiki pack for anyone who may read it, not only its
 * administrators (who also find the same section in Settings › Export). The server decides what
 * goes in: what the person may read, and only the exports the space allows.
 */
import type { Space } from "../../api/types";
import { useTitle } from "../../lib/title";
import SpaceExportSection from "./SpaceExportSection";

export default function SpaceExportScreen({ space }: { space: Space }) {
  useTitle("Export", space.name);
  return (
    <main id="main" className="main-column full-width settings">
      <h1 className="settings-title">Export {space.name}</h1>
      <div className="settings-body export-screen">
        <SpaceExportSection space={space} />
      </div>
    </main>
  );
}
