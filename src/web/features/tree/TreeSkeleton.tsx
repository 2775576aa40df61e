/**
 * What the sidebar shows until the tree is drawn (its chunk and its answer on a cold view): rows
 * of the tree's own height and place, as grey bars, so the sidebar is not an empty column and
 * nothing moves when the real rows arrive. Decoration only: screen readers meet the tree itself.
 */
import "./tree-skeleton.css";

// Title lengths that look like a tree's (a fixed list: the same bars on every load).
const WIDTHS = [68, 52, 76, 44, 60, 72, 48, 64];

export function TreeSkeleton() {
  return (
    <div className="tree-skeleton" aria-hidden="true">
      {WIDTHS.map((width, i) => (
        <div key={i} className="tree-skeleton-row">
          <span className="tree-skeleton-bar" style={{ width: `${width}%` }} />
        </div>
      ))}
    </div>
  );
}
