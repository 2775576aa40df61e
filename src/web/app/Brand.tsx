/**
 * The brand as the instance's branding says to show it: the name with Cairn's mark, the logo, or
 * both. The logo for the dark theme (when there is one) shows only in the dark theme, by CSS,
 * so switching themes needs no re-render. Without a logo the name shows, whatever the display.
 */
import type { PublicBranding } from "../lib/branding";
import "./brand.css";

export type BrandLook = Pick<PublicBranding, "brandName" | "display" | "logoUrl" | "logoDarkUrl">;

export function Brand({ branding, size = "md" }: { branding: BrandLook | undefined; size?: "md" | "lg" }) {
  const name = branding?.brandName ?? "Cairn";
  const logo = branding?.display !== "name" ? (branding?.logoUrl ?? null) : null;
  const dark = logo ? (branding?.logoDarkUrl ?? null) : null;
  const showName = !logo || branding?.display === "logo-and-name";
  // The logo alone carries the name as its alternative text; beside the name it is decoration.
  const alt = showName ? "" : name;
  return (
    <span className={`brand-lockup brand-${size}`}>
      {logo ? <img className={dark ? "brand-logo brand-logo-light" : "brand-logo"} src={logo} alt={alt} /> : null}
      {dark ? <img className="brand-logo brand-logo-dark" src={dark} alt={alt} /> : null}
      {!logo ? (
        <span className="brand-mark" aria-hidden="true">
          ◆
        </span>
      ) : null}
      {showName ? <span className="brand-name">{name}</span> : null}
    </span>
  );
}
