import { Link } from "wouter";
import type { Space } from "../../api/types";
import { Plus } from "../../ui/icons";

/** "New page": the chooser of a blank page or a template, under a parent when given. */
export function NewPageButton({ space, parentPageId, label = "New page", variant = "secondary" }: { space: Space; parentPageId?: string; label?: string; variant?: "primary" | "secondary" }) {
  const href = `/s/${space.key}/new${parentPageId ? `?parent=${encodeURIComponent(parentPageId)}` : ""}`;
  return (
    <Link className={`btn btn-${variant} btn-sm`} href={href}>
      <Plus size={15} aria-hidden="true" /> {label}
    </Link>
  );
}
