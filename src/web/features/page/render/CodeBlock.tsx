/**
 * A code block in the reading view, in the editor's syntax colours. The highlighter (lowlight
 * and its languages, src/web/features/editor/lowlight.ts) is not in the reading bundle: the
 * first page that has a code block with a language loads it, and the block shows its plain
 * text meanwhile (the same characters, so nothing moves when the colours arrive).
 */
import { useEffect, useState, type ReactNode } from "react";

/** What the reading view uses of lowlight (its type, written here: the module itself loads late). */
interface Lowlight {
  registered(language: string): boolean;
  highlight(language: string, text: string): { children: unknown[] };
}
interface HastText {
  type: "text";
  value: string;
}
interface HastElement {
  type: "element";
  tagName: string;
  properties?: { className?: string[] };
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: string; children?: HastNode[] };

let loading: Promise<Lowlight> | null = null;
let loaded: Lowlight | null = null;
const loadHighlighter = () => (loading ??= import("../../editor/lowlight").then((m) => (loaded = m.lowlight)));

/** lowlight's tree (spans with hljs-* classes around text) as React elements. */
function toReact(nodes: HastNode[], key = ""): ReactNode[] {
  return nodes.map((node, i) => {
    if (node.type === "text") return (node as HastText).value;
    if (node.type !== "element") return null;
    const el = node as HastElement;
    return (
      <span key={`${key}${i}`} className={el.properties?.className?.join(" ")}>
        {toReact(el.children, `${key}${i}.`)}
      </span>
    );
  });
}

function highlighted(lowlight: Lowlight, language: string, text: string): ReactNode[] | null {
  if (!lowlight.registered(language)) return null;
  try {
    return toReact(lowlight.highlight(language, text).children as HastNode[]);
  } catch {
    return null;
  }
}

/**
 * `text`: the block's plain text, or null when it holds more than plain text (the lines of a
 * version comparison): then its children are drawn as they are. `diff`: how a comparison marks it.
 */
export function CodeBlock({
  language,
  text,
  diff,
  children,
}: {
  language: string;
  text: string | null;
  diff?: string;
  children?: ReactNode;
}) {
  const wanted = !!language && text !== null;
  const [lowlight, setLowlight] = useState<Lowlight | null>(loaded);
  useEffect(() => {
    if (!wanted || lowlight) return;
    let live = true;
    void loadHighlighter().then(
      (l) => live && setLowlight(() => l),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [wanted, lowlight]);
  const coloured = wanted && lowlight ? highlighted(lowlight, language, text) : null;
  return (
    // Focusable: a long line scrolls sideways, by keyboard too.
    <pre data-language={language || undefined} className={diff ? `cmp-${diff}` : undefined} tabIndex={0}>
      <code className={language ? `language-${language}` : undefined}>{coloured ?? children}</code>
    </pre>
  );
}
