/**
 * The allowed values of every attribute of the content schema, checked by the server before a
 * page is stored. The editor's own parsing is lenient (pasted HTML falls back to defaults); the
 * server is strict, so a client that sends a bad value hears why instead of losing data.
 *
 * A rule answers why a value is wrong, or undefined. It is given the attribute's effective value
 * (the default when the client left it out), so a required attribute is simply one whose default
 * fails its rule. Attributes without a rule here cannot be set (attrs.test.ts keeps this table
 * and the schema in step).
 */
import { isPanelKind, PANEL_KINDS } from "./nodes/panel";
import { PAGE_ID } from "./page-links";
import { IMAGE_SCHEMES, LINK_SCHEMES, urlProblem } from "./urls";

export type AttrRule = (value: unknown) => string | undefined;

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function text(max: number, opts: { nullable?: boolean; required?: boolean } = {}): AttrRule {
  return (value) => {
    if (value === null && opts.nullable) return undefined;
    if (typeof value !== "string") return opts.nullable ? "must be a string or null" : "must be a string";
    if (opts.required && value.trim() === "") return "must not be empty";
    if (value.length > max) return `must be at most ${max} characters`;
    if (CONTROL.test(value)) return "must not contain control characters";
    return undefined;
  };
}

function integer(min: number, max: number, nullable = false): AttrRule {
  return (value) => {
    if (value === null && nullable) return undefined;
    if (typeof value === "number" && Number.isInteger(value) && value >= min && value <= max) return undefined;
    return `must be an integer from ${min} to ${max}${nullable ? ", or null" : ""}`;
  };
}

function oneOf(values: readonly unknown[]): AttrRule {
  const listed = values.map((v) => JSON.stringify(v)).join(", ");
  return (value) => (values.includes(value) ? undefined : `must be one of ${listed}`);
}

/** Ids of users, comments, attachments: ours are UUIDs, imported ones may be anything printable. */
const id = text(200, { required: true });
const optionalId: AttrRule = (value) => (value === null ? undefined : id(value));

const colwidth: AttrRule = (value) => {
  if (value === null) return undefined;
  const ok =
    Array.isArray(value) &&
    value.length >= 1 &&
    value.length <= 1000 &&
    value.every((w) => typeof w === "number" && Number.isInteger(w) && w >= 0 && w <= 10_000);
  return ok ? undefined : "must be null or a list of column widths in pixels (integers from 0 to 10000)";
};

const cell: Record<string, AttrRule> = {
  colspan: integer(1, 1000),
  rowspan: integer(1, 1000),
  colwidth,
  align: oneOf([null, "left", "center", "right"]),
};

/** An image dimension as the editor stores it: a number, or CSS-like text such as "50%". */
const dimension: AttrRule = (value) => {
  if (value === null) return undefined;
  if (typeof value === "number" && Number.isFinite(value) && value > 0 && value <= 100_000) return undefined;
  if (typeof value === "string" && /^\d{1,6}(\.\d{1,4})?(px|%)?$/.test(value)) return undefined;
  return 'must be null, a positive number or text such as "640px" or "50%"';
};

const timestamp: AttrRule = (value) => {
  if (value === null) return undefined;
  if (typeof value === "string" && value.length <= 40 && /^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(Date.parse(value))) {
    return undefined;
  }
  return 'must be null or an ISO 8601 date-time such as "2025-01-31T09:30:00Z"';
};

const trackedChange: Record<string, AttrRule> = { id, authorId: optionalId, createdAt: timestamp };

/** Rules per node or mark name, then per attribute name. */
export const ATTR_RULES: Record<string, Record<string, AttrRule>> = {
  heading: { level: integer(1, 6) },
  codeBlock: {
    language: (value) =>
      value === null || (typeof value === "string" && /^[A-Za-z0-9_+#.-]{1,40}$/.test(value))
        ? undefined
        : 'must be null or a language name such as "typescript" (letters, digits, _ + # . -)',
  },
  orderedList: { start: integer(0, 1_000_000_000), type: oneOf([null, "1", "a", "A", "i", "I"]) },
  taskItem: { checked: oneOf([true, false]) },
  tableCell: cell,
  tableHeader: cell,
  image: {
    src: (value) => urlProblem(value, IMAGE_SCHEMES),
    alt: text(1000, { nullable: true }),
    title: text(1000, { nullable: true }),
    width: dimension,
    height: dimension,
  },
  attachment: {
    attachmentId: id,
    filename: text(255, { required: true }),
    size: integer(0, Number.MAX_SAFE_INTEGER, true),
    contentType: (value) =>
      value === null || (typeof value === "string" && value.length <= 255 && /^[\w.+-]+\/[\w.+-]+(\s*;[^\u0000-\u001f]*)?$/.test(value))
        ? undefined
        : 'must be null or a media type such as "application/pdf"',
  },
  panel: { kind: (value) => (isPanelKind(value) ? undefined : `must be one of ${PANEL_KINDS.map((k) => `"${k}"`).join(", ")}`) },
  // A link to a page is by its id (a UUID), never by its title or address: see page-links.ts.
  pageLink: { pageId: (value) => (typeof value === "string" && PAGE_ID.test(value) ? undefined : "must be the id of a page (a UUID)") },
  mention: { id, label: text(200, { nullable: true }), mentionSuggestionChar: oneOf(["@"]) },
  link: {
    href: (value) => urlProblem(value, LINK_SCHEMES),
    target: oneOf([null, "_blank", "_self"]),
    rel: text(200, { nullable: true }),
    class: (value) =>
      value === null || (typeof value === "string" && /^[\w -]{0,200}$/.test(value)) ? undefined : "must be null or CSS class names",
    title: text(1000, { nullable: true }),
  },
  comment: { commentId: id },
  insertion: trackedChange,
  deletion: trackedChange,
};
