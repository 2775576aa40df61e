import type { BlockChange } from "./text-diff";

const LABEL = { added: "Added", removed: "Removed", changed: "Changed", same: "" } as const;

/** Two versions compared, block by block: inserted words tinted, deleted ones struck through. */
export function Comparison({ changes }: { changes: BlockChange[] }) {
  if (changes.every((c) => c.kind === "same")) return <p className="muted">These two versions have the same text.</p>;
  return (
    <div className="prose comparison">
      {changes.map((c, i) => {
        const Tag = c.type === "heading" ? (`h${Math.min(6, c.level ?? 2)}` as "h2") : "p";
        return (
          <div key={i} className={`cmp-block cmp-${c.kind}`}>
            {c.kind !== "same" ? <span className="cmp-label">{LABEL[c.kind]}</span> : null}
            <Tag>
              {c.pieces.map((piece, j) =>
                piece.kind === "added" ? (
                  <ins key={j}>{piece.text}</ins>
                ) : piece.kind === "removed" ? (
                  <del key={j}>{piece.text}</del>
                ) : (
                  <span key={j}>{piece.text}</span>
                ),
              )}
            </Tag>
          </div>
        );
      })}
    </div>
  );
}
