/** The page menu's export entries: one per format the space allows (its export switches). */
import type { Space } from "../../api/types";
import { Download } from "../../ui/icons";
import { MenuItem, MenuSeparator } from "../../ui/Menu";
import { toast } from "../../ui/toast";

const FORMATS = [
  { id: "markdown", label: "Export as Markdown" },
  { id: "html", label: "Export as HTML" },
  { id: "pdf", label: "Export as PDF" },
] as const;

/** `separatorAfter`: more entries follow, so the export group is closed off from them. */
export function PageExportItems({
  page,
  space,
  separatorAfter,
}: {
  page: { id: string; title: string };
  space: Pick<Space, "exports">;
  separatorAfter?: boolean;
}) {
  const offered = FORMATS.filter((f) => space.exports[f.id]);
  if (!offered.length) return null;
  // The download code is fetched when first used: nothing of it weighs on the reading view.
  const run = (format: (typeof FORMATS)[number]["id"]) =>
    void import("./page-export").then(
      (m) => m.exportPage(page.id, page.title, format),
      () => toast.error("The export could not start: Cairn may have been updated. Reload the page and try again."),
    );
  return (
    <>
      <MenuSeparator />
      {offered.map((f) => (
        <MenuItem key={f.id} icon={<Download />} onSelect={() => run(f.id)}>
          {f.label}
        </MenuItem>
      ))}
      {separatorAfter ? <MenuSeparator /> : null}
    </>
  );
}
