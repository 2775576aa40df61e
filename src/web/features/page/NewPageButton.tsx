import type { Space } from "../../api/types";
import { Button } from "../../ui/Button";
import { Plus } from "../../ui/icons";
import { useStartPage } from "./start-page";

/** "New page": a draft straight in the editor (or the chooser when the space has templates), under a parent when given. */
export function NewPageButton({
  space,
  parentPageId,
  label = "New page",
  variant = "secondary",
}: {
  space: Space;
  parentPageId?: string;
  label?: string;
  variant?: "primary" | "secondary";
}) {
  const { start, busy } = useStartPage(space);
  // View only (or archived, or signed out): nothing to offer.
  if (!space.canEdit) return null;
  return (
    <Button size="sm" variant={variant} onClick={() => void start(parentPageId)} busy={busy}>
      <Plus size={15} aria-hidden="true" /> {label}
    </Button>
  );
}
