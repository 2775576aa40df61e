/**
 * JSON bodies for an operation: a well-formed one aimed at the fixtures (built from the
 * operation's schema and what each field name means), whole bodies that spoil it (prototype
 * keys, unknown fields), and the base body with fields replaced by corpus values, raw ones
 * spliced into the JSON text where JSON.stringify cannot write them.
 */
import * as C from "./corpus";
import type { Fixtures } from "./fixtures";
import type { Operation } from "./generate";

/** A body the route accepts, or nearly: the fuzz then spoils one thing at a time. */
export function baseBody(op: Operation, fx: Fixtures): Record<string, unknown> {
  const byName: Record<string, unknown> = {
    spaceId: fx.spaceId,
    parentPageId: null,
    parentCommentId: null,
    principalId: fx.memberId,
    userId: fx.memberId,
    email: "someone@fuzz.test",
    // Inside a session a wrong password counts towards the account's lock, and the one that locks
    // it ends the session (auth/service.ts); an empty one is no guess. Signing in as someone who
    // does not exist risks nothing.
    password: /^\/api\/auth\/(login|register)$/.test(op.path) ? "not the password at all" : "",
    currentPassword: "",
    newPassword: "another long passphrase here",
    inviteToken: "no-such-invite",
    code: "123456",
    url: "http://127.0.0.1:9/fuzz",
    events: ["page.updated"],
    contentJson: JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "fuzzed" }] }] }),
    anchorJson: null,
    // Never the real key: deleting the space would leave the rest of the run nothing to aim at.
    confirmKey: "NOPE",
    key: "FZ",
    emoji: "🙂",
    iconValue: null,
    iconColor: "#336699",
    isPublic: false,
    name: "fuzz",
  };
  const body: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries<any>(op.body!.schema.properties ?? {})) {
    if (field in byName) body[field] = byName[field];
    else {
      const kind = primaryType(schema);
      body[field] =
        kind === "integer"
          ? (schema.minimum ?? 0)
          : kind === "boolean"
            ? false
            : /UUID/.test(schema.description ?? "")
              ? fx.pageId
              : "fuzz";
    }
  }
  return body;
}

export function primaryType(schema: any): "string" | "integer" | "boolean" {
  const types = [schema.type ?? schema.anyOf?.map((s: any) => s.type)].flat().filter((t) => t && t !== "null");
  if (types.includes("integer") || types.includes("number")) return "integer";
  if (types.includes("boolean")) return "boolean";
  return "string";
}

/** Whole bodies: the fixed list, and the base body with prototype keys or unknown fields. */
export function wholeBodies(base: Record<string, unknown>): C.BodyText[] {
  const inner = JSON.stringify(base).slice(1, -1);
  const join = (prefix: string) => Buffer.from(`{${prefix}${inner ? `,${inner}` : ""}}`);
  const first = Object.keys(base)[0];
  return [
    ...C.WHOLE_BODIES,
    { label: '"__proto__" key', must: true, bytes: () => join('"__proto__":{"polluted":true,"isAdmin":true}') },
    { label: '"constructor" key', bytes: () => join('"constructor":{"prototype":{"polluted":true}}') },
    { label: "unknown field", must: true, bytes: () => join('"zzUnknown":1') },
    { label: "5,000 unknown fields", bytes: () => join(Array.from({ length: 5_000 }, (_, i) => `"u${i}":${i}`).join(",")) },
    { label: "a 20 KB field name", bytes: () => join(`"${"k".repeat(20 * C.KB)}":1`) },
    { label: "{}", must: true, bytes: () => Buffer.from("{}") },
    { label: "every field null", bytes: () => Buffer.from(JSON.stringify(Object.fromEntries(Object.keys(base).map((k) => [k, null])))) },
    ...(first ? [{ label: `${first} twice, second an object`, bytes: () => Buffer.from(`{${inner},"${first}":{"a":1}}`) }] : []),
  ];
}

const SENTINEL = "@@fuzz-raw-value@@";

export function withField(base: Record<string, unknown>, field: string, value: C.Value): Buffer {
  return withFields(base, [[field, value]]);
}

/** The base body with fields replaced; raw values are spliced into the JSON text. */
export function withFields(base: Record<string, unknown>, fields: Array<[string, C.Value]>): Buffer {
  const body: Record<string, unknown> = { ...base };
  const raws: Buffer[] = [];
  for (const [field, value] of fields) {
    if ("json" in value) body[field] = value.json;
    else {
      body[field] = SENTINEL;
      raws.push(value.raw());
    }
  }
  const pieces = JSON.stringify(body).split(`"${SENTINEL}"`);
  return Buffer.concat(pieces.flatMap((piece, i) => (i < raws.length ? [Buffer.from(piece), raws[i]] : [Buffer.from(piece)])));
}
