/**
 * The SVG sanitiser for logos and favicons (branding) and the SVG files of the static site
 * export. An SVG is a document that can run script, so it is never kept as sent: it is parsed
 * by a strict tokenizer and written out again from what an allow-list keeps. Elements outside
 * the list (script, foreignObject, style, image, a, editor metadata…) go with everything inside
 * them; attributes outside it (every on… handler, editor namespaces) go; links (href,
 * xlink:href) and url(…) may only point inside the document (#id), so nothing is fetched from
 * elsewhere. A DOCTYPE, an entity other than XML's five or a number, or markup that does not
 * parse is refused whole (SvgRefused): no guessing at broken input.
 */

export class SvgRefused extends Error {}

export interface SanitisedSvg {
  svg: string;
  /** What was taken out, for the person who uploaded it ("script element", "onload attribute"). */
  removed: string[];
  width: number | null;
  height: number | null;
}

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";

const ELEMENTS = new Set(
  (
    "svg g defs symbol use title desc path rect circle ellipse line polyline polygon text tspan textPath " +
    "linearGradient radialGradient stop clipPath mask pattern marker filter feGaussianBlur feOffset feBlend " +
    "feColorMatrix feComposite feFlood feMerge feMergeNode feMorphology feDropShadow"
  ).split(" "),
);

const ATTRIBUTES = new Set(
  (
    "id class viewBox preserveAspectRatio width height x y x1 x2 y1 y2 cx cy r rx ry d points transform " +
    "fill fill-opacity fill-rule stroke stroke-width stroke-opacity stroke-linecap " +
    "stroke-linejoin stroke-miterlimit stroke-dasharray stroke-dashoffset " +
    "opacity color display visibility clip-path clip-rule mask filter offset stop-color " +
    "stop-opacity gradientUnits gradientTransform spreadMethod fx fy fr " +
    "patternUnits patternContentUnits patternTransform maskUnits maskContentUnits " +
    "clipPathUnits markerWidth markerHeight markerUnits refX refY orient " +
    "font-family font-size font-weight font-style text-anchor dominant-baseline letter-spacing " +
    "word-spacing text-decoration dx dy rotate textLength lengthAdjust " +
    "stdDeviation in in2 result mode values type operator k1 k2 k3 k4 radius flood-color flood-opacity " +
    "style version xml:space href xlink:href xmlns xmlns:xlink role aria-label aria-hidden " +
    "focusable shape-rendering color-interpolation-filters vector-effect paint-order"
  ).split(" "),
);

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&([^;&\s]{0,32});/g, (_all, name: string) => {
    if (Object.hasOwn(NAMED_ENTITIES, name)) return NAMED_ENTITIES[name];
    const num = /^#(x[0-9a-f]{1,6}|[0-9]{1,7})$/i.exec(name);
    if (!num) throw new SvgRefused(`the entity &${name}; is not XML's own`);
    const code = num[1][0].toLowerCase() === "x" ? Number.parseInt(num[1].slice(1), 16) : Number.parseInt(num[1], 10);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new SvgRefused("a character reference is out of range");
    return String.fromCodePoint(code);
  });
}

const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, "&quot;");

/** url(…) that points outside the document, or script-ish values in styles and presentation attributes. */
function reachesOutside(value: string): boolean {
  const lower = value.toLowerCase().replace(/\\/g, "");
  for (const m of lower.matchAll(/url\s*\(\s*(['"]?)([^)'"]*)\1\s*\)/g)) if (!m[2].trim().startsWith("#")) return true;
  return (
    /@import|expression\s*\(|javascript:|data:|-moz-binding|behavior\s*:/.test(lower) ||
    (lower.includes("url(") && !/url\s*\(\s*['"]?#/.test(lower))
  );
}

interface Token {
  kind: "open" | "close" | "text";
  name: string;
  attrs: Array<[string, string]>;
  selfClosing: boolean;
  text: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*/;

function* tokens(source: string): Generator<Token> {
  let i = 0;
  const n = source.length;
  while (i < n) {
    const lt = source.indexOf("<", i);
    if (lt !== i) {
      const end = lt === -1 ? n : lt;
      yield { kind: "text", name: "", attrs: [], selfClosing: false, text: decodeEntities(source.slice(i, end)) };
      i = end;
      continue;
    }
    if (source.startsWith("<!--", i)) {
      const end = source.indexOf("-->", i + 4);
      if (end === -1) throw new SvgRefused("a comment is never closed");
      i = end + 3;
    } else if (source.startsWith("<![CDATA[", i)) {
      const end = source.indexOf("]]>", i + 9);
      if (end === -1) throw new SvgRefused("a CDATA section is never closed");
      yield { kind: "text", name: "", attrs: [], selfClosing: false, text: source.slice(i + 9, end) };
      i = end + 3;
    } else if (source.startsWith("<?", i)) {
      const end = source.indexOf("?>", i + 2);
      if (end === -1) throw new SvgRefused("a processing instruction is never closed");
      i = end + 2;
    } else if (source.startsWith("<!", i)) {
      throw new SvgRefused("a DOCTYPE or other declaration is not accepted");
    } else if (source.startsWith("</", i)) {
      const m = NAME.exec(source.slice(i + 2));
      const after = m ? i + 2 + m[0].length : -1;
      const close = m ? source.indexOf(">", after) : -1;
      if (!m || close === -1 || source.slice(after, close).trim() !== "") throw new SvgRefused("a closing tag is malformed");
      yield { kind: "close", name: m[0], attrs: [], selfClosing: false, text: "" };
      i = close + 1;
    } else {
      const m = NAME.exec(source.slice(i + 1));
      if (!m) throw new SvgRefused("a tag is malformed");
      let j = i + 1 + m[0].length;
      const attrs: Array<[string, string]> = [];
      for (;;) {
        const ws = /^\s*/.exec(source.slice(j))![0].length;
        j += ws;
        if (source.startsWith("/>", j) || source[j] === ">") break;
        if (ws === 0 && attrs.length > 0) throw new SvgRefused("attributes must be separated by spaces");
        const a = /^([A-Za-z_][A-Za-z0-9_.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(source.slice(j));
        if (!a) throw new SvgRefused(`an attribute of <${m[0]}> is malformed`);
        if (attrs.some(([k]) => k === a[1])) throw new SvgRefused(`<${m[0]}> has the attribute ${a[1]} twice`);
        attrs.push([a[1], decodeEntities(a[3] ?? a[4] ?? "")]);
        j += a[0].length;
      }
      const selfClosing = source.startsWith("/>", j);
      yield { kind: "open", name: m[0], attrs, selfClosing, text: "" };
      i = j + (selfClosing ? 2 : 1);
    }
  }
}

/** A length attribute as pixels when it is a plain number (or px); null otherwise. */
function pixels(value: string | undefined): number | null {
  const m = value ? /^\s*([0-9]+(?:\.[0-9]+)?)\s*(px)?\s*$/.exec(value) : null;
  return m ? Math.round(Number(m[1])) : null;
}

export function sanitiseSvg(source: string): SanitisedSvg {
  const removed = new Set<string>();
  const out: string[] = [];
  const open: string[] = [];
  /** Depth inside an element being dropped with its content (0: keeping). */
  let dropping = 0;
  let root: Token | null = null;
  let closedRoot = false;
  for (const token of tokens(source.replace(/^\uFEFF/, ""))) {
    if (token.kind === "text") {
      if (open.length === 0) {
        if (token.text.trim() !== "") throw new SvgRefused("there is text outside the <svg> element");
        continue;
      }
      if (!dropping) out.push(escapeText(token.text));
      continue;
    }
    if (token.kind === "close") {
      if (open.pop() !== token.name) throw new SvgRefused(`</${token.name}> does not close the element that is open`);
      if (dropping) dropping--;
      else out.push(`</${token.name}>`);
      if (open.length === 0) closedRoot = true;
      continue;
    }
    if (open.length === 0) {
      if (root) throw new SvgRefused("there is more than one root element");
      if (token.name !== "svg") throw new SvgRefused("the root element is not <svg>");
      root = token;
    }
    if (!token.selfClosing) open.push(token.name);
    if (dropping || !ELEMENTS.has(token.name)) {
      if (!dropping) removed.add(`${token.name} element`);
      if (!token.selfClosing) dropping++;
      continue;
    }
    out.push(`<${token.name}${keptAttributes(token, removed, token === root)}${token.selfClosing ? "/>" : ">"}`);
    if (token.selfClosing && open.length === 0) closedRoot = true;
  }
  if (!root || !closedRoot || open.length > 0) throw new SvgRefused("the document is not a complete <svg> element");
  const attr = (name: string) => root!.attrs.find(([k]) => k === name)?.[1];
  return { svg: out.join(""), removed: [...removed], width: pixels(attr("width")), height: pixels(attr("height")) };
}

function keptAttributes(token: Token, removed: Set<string>, isRoot: boolean): string {
  const kept: string[] = [];
  for (const [name, value] of token.attrs) {
    let keep = ATTRIBUTES.has(name);
    if (name === "href" || name === "xlink:href") keep = value.trim().startsWith("#");
    else if (name === "xmlns") keep = value === SVG_NS;
    else if (name === "xmlns:xlink") keep = value === XLINK_NS;
    else if (keep && reachesOutside(value)) keep = false;
    if (keep) kept.push(` ${name}="${escapeAttr(value)}"`);
    else
      removed.add(
        /^on/i.test(name)
          ? `${name} attribute (an event handler)`
          : name.endsWith("href")
            ? `${name} pointing outside the image`
            : `${name} attribute`,
      );
  }
  if (isRoot) {
    // Written by us whatever was sent: the namespaces the kept markup needs, and only those.
    const own = kept.filter((a) => !a.startsWith(" xmlns"));
    return ` xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"${own.join("")}`;
  }
  return kept.join("");
}
