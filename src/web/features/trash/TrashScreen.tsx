// TEMPORARY scaffold, replaced by the trash feature.
import type { Space } from "../../api/types";
export function TrashScreen(_: { space: Space }) {
  return <main id="main" className="main-column"><h1>Trash</h1></main>;
}
