// TEMPORARY scaffold, replaced by the page feature (template chooser, then a draft in the editor).
import type { Space } from "../../api/types";
export function NewPageScreen(_: { space: Space }) {
  return <main id="main" className="main-column"><h1>New page</h1></main>;
}
