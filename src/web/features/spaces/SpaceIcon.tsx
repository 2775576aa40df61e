import type { SpaceSummary } from "../../api/types";

/** A space's icon: its uploaded image or emoji when it has one, else its initial on a tint from its key. */
export function SpaceIcon({ space, size = 28 }: { space: Pick<SpaceSummary, "key" | "name" | "iconKind" | "iconValue">; size?: number }) {
  // An image only from Cairn's own media address (never another host: the UI loads nothing from elsewhere).
  if (space.iconKind === 2 && space.iconValue?.startsWith("/api/media/space-icons/")) {
    return (
      <img
        className="space-icon space-icon-image"
        src={space.iconValue}
        alt=""
        width={size}
        height={size}
        style={{ width: size, height: size, objectFit: "cover" }}
        aria-hidden="true"
      />
    );
  }
  if (space.iconKind === 1 && space.iconValue) {
    return (
      <span className="space-icon space-icon-emoji" style={{ width: size, height: size, fontSize: size * 0.6 }} aria-hidden="true">
        {space.iconValue}
      </span>
    );
  }
  let hue = 0;
  for (const c of space.key) hue = (hue * 31 + c.charCodeAt(0)) % 360;
  return (
    <span className="space-icon" style={{ width: size, height: size, fontSize: size * 0.45, ["--hue" as string]: hue }} aria-hidden="true">
      {space.name.trim()[0]?.toUpperCase() ?? "?"}
    </span>
  );
}
