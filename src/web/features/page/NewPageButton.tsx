// TEMPORARY scaffold, replaced by the page feature (draft, template chooser).
import type { Space } from "../../api/types";
import { Button } from "../../ui/Button";

export function NewPageButton({ label = "New page", variant = "secondary" }: { space: Space; parentPageId?: string; label?: string; variant?: "primary" | "secondary" }) {
  return <Button variant={variant}>{label}</Button>;
}
