/**
 * Turns the served OpenAPI document into fuzz requests: for every operation, a well-formed
 * request aimed at the fixtures, then that request with one thing wrong at a time (a body
 * field, the whole body, its content type, a path or query parameter, a header, the spelling of
 * the path, the method), and each write eight times at once. The corpus lists mark what every
 * operation gets; the seeded PRNG picks the rest, so the same seed gives the same requests.
 * Authentication alternates between the Owner's token and its session, and every third request
 * also goes anonymously.
 */
import { baseBody, primaryType, wholeBodies, withField, withFields } from "./bodies";
import * as C from "./corpus";
import * as H from "./corpus-http";
import { BOGUS_ID, type Fixtures } from "./fixtures";
import { rng, type Rng } from "./random";

export type Auth = "token" | "session" | "anonymous";

export interface FuzzRequest {
  /** "POST /api/spaces/{key}/permissions" */
  op: string;
  /** What is wrong with it, e.g. `operation="3"`. */
  variant: string;
  auth: Auth;
  method: string;
  /** Path and query exactly as they go on the request line. */
  target: string;
  headers: Array<[string, string]>;
  body?: () => Buffer;
  /** 0: reads and writes; 1: deletions; 2: what may end the fuzzer's session or change the instance's rules. */
  phase: number;
}

export interface Plan {
  seed: number;
  /** Entries not marked `must` that each operation gets from each list; "all" sends every one. */
  sampled: number | "all";
  /** Further requests per operation with several things wrong at once (the long run). */
  combined: number;
}

interface Param {
  name: string;
  in: "path" | "query";
  required?: boolean;
  schema: any;
}
export interface Operation {
  method: string;
  path: string;
  params: Param[];
  body?: { contentType: string; schema: any };
}

/** Every operation in the document, in its order. */
export function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const content = op.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      ops.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).filter((p: Param) => p.in === "path" || p.in === "query"),
        body: contentType ? { contentType, schema: content[contentType].schema } : undefined,
      });
    }
  }
  return ops;
}

export function generate(doc: any, fx: Fixtures, plan: Plan): FuzzRequest[] {
  const random = rng(plan.seed);
  const out: FuzzRequest[] = [];
  const paths = new Set<string>();
  for (const op of operationsOf(doc)) {
    const variants = variantsOf(op, fx, plan, random, !paths.has(op.path));
    paths.add(op.path);
    variants.forEach((v, i) => {
      const base = { op: `${op.method} ${op.path}`, phase: phaseOf(op), ...v, method: v.method ?? op.method };
      const auths: Auth[] = v.auths ?? [i % 2 === 0 ? "token" : "session", ...(i % 3 === 0 ? (["anonymous"] as const) : [])];
      for (const auth of auths) out.push({ ...base, auth, headers: withAuth(auth, fx, v.headers) });
    });
  }
  // Stable: within a phase the document's order stays.
  return out.sort((a, b) => a.phase - b.phase);
}

/** As many as the engine sends at once, so that they arrive together. */
const BURST = 8;

interface Variant {
  variant: string;
  /** Another method than the operation's. */
  method?: string;
  target: string;
  headers: Array<[string, string]>;
  body?: () => Buffer;
  auths?: Auth[];
}

function variantsOf(op: Operation, fx: Fixtures, plan: Plan, random: Rng, firstOfPath: boolean): Variant[] {
  const choose = <T extends { must?: boolean }>(items: readonly T[]): T[] => {
    const must = items.filter((i) => i.must);
    const rest = items.filter((i) => !i.must);
    return [...must, ...(plan.sampled === "all" ? rest : random.sample(rest, plan.sampled))];
  };
  const pathValues = Object.fromEntries(op.params.filter((p) => p.in === "path").map((p) => [p.name, realParam(op.path, p.name, fx)]));
  const queryValues = Object.fromEntries(
    op.params.filter((p) => p.in === "query" && p.required).map((p) => [p.name, realQuery(p.name, fx)]),
  );
  const target = (paths = pathValues, query: Record<string, string> = queryValues, extra = "") => {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name) => paths[name]);
    const q = [...Object.entries(query).map(([k, v]) => `${k}=${v}`), ...(extra ? [extra] : [])].join("&");
    return q ? `${path}?${q}` : path;
  };
  const jsonBody = op.body?.contentType === "application/json";
  const base = jsonBody ? baseBody(op, fx) : {};
  const baseBytes = () => Buffer.from(JSON.stringify(base));
  const plain = (): Omit<Variant, "variant"> => {
    if (jsonBody) return { target: target(), headers: [["Content-Type", "application/json"]], body: baseBytes };
    if (op.body) return { target: target(), headers: [["Content-Type", C.MULTIPARTS[0].contentType ?? ""]], body: C.MULTIPARTS[0].body };
    return { target: target(), headers: [] };
  };
  const v: Variant[] = [{ variant: "well-formed", ...plain(), auths: ["token", "session", "anonymous"] }];

  // Body fields, one at a time.
  if (jsonBody) {
    const props = Object.entries<any>(op.body!.schema.properties ?? {});
    for (const [field, schema] of props) {
      const kind = primaryType(schema);
      const values = [
        ...choose(C.STRUCTURES),
        ...(/Json$/.test(field) ? choose(C.DOCUMENTS) : []),
        ...(kind === "integer"
          ? choose([...C.WRONG_TYPES.integer, ...C.NUMERIC_STRINGS])
          : kind === "boolean"
            ? choose(C.WRONG_TYPES.boolean)
            : choose([...C.WRONG_TYPES.string, ...C.STRINGS, ...C.INVALID_UTF8])),
      ];
      for (const value of values)
        v.push({
          variant: `${field}=${value.label}`,
          target: target(),
          headers: [["Content-Type", "application/json"]],
          body: () => withField(base, field, value),
        });
    }
    for (const field of op.body!.schema.required ?? []) {
      if (plan.sampled === "all" || random.int(3) === 0) {
        const { [field]: _, ...rest } = base;
        v.push({
          variant: `without ${field}`,
          target: target(),
          headers: [["Content-Type", "application/json"]],
          body: () => Buffer.from(JSON.stringify(rest)),
        });
      }
    }
    if (props.length) {
      // One field of each operation gets the 2 MB string and one the 100,000-element array.
      for (const value of [C.HUGE_STRING, C.HUGE_ARRAY]) {
        const [field] = random.pick(props);
        v.push({
          variant: `${field}=${value.label}`,
          target: target(),
          headers: [["Content-Type", "application/json"]],
          body: () => withField(base, field, value),
        });
      }
    }
    for (const whole of choose(wholeBodies(base)))
      v.push({ variant: `body: ${whole.label}`, target: target(), headers: [["Content-Type", "application/json"]], body: whole.bytes });
    for (const ct of choose(C.CONTENT_TYPES))
      v.push({
        variant: `content type: ${ct.label}`,
        target: target(),
        headers: ct.value === null ? [] : [["Content-Type", ct.value]],
        body: ct.body ?? baseBytes,
      });
  } else if (op.body) {
    for (const m of choose(C.MULTIPARTS.slice(1)))
      v.push({
        variant: `upload: ${m.label}`,
        target: target(),
        headers: m.contentType === null ? [] : [["Content-Type", m.contentType]],
        body: m.body,
      });
  } else {
    // A body where none is expected: still read, parsed or ignored without harm.
    const deep = C.WHOLE_BODIES.find((b) => b.label.startsWith("top-level [×"))!;
    v.push({
      variant: `unexpected body: ${deep.label}`,
      target: target(),
      headers: [["Content-Type", "application/json"]],
      body: deep.bytes,
    });
    for (const extra of random.sample(C.WHOLE_BODIES, plan.sampled === "all" ? C.WHOLE_BODIES.length : 1))
      v.push({
        variant: `unexpected body: ${extra.label}`,
        target: target(),
        headers: [["Content-Type", "application/json"]],
        body: extra.bytes,
      });
  }

  // Path parameters, one at a time, the others real.
  const withBody = plain();
  for (const p of op.params.filter((p) => p.in === "path")) {
    for (const junk of [{ label: "bogus id", value: BOGUS_ID, must: true }, ...choose(H.PATH_JUNK)]) {
      v.push({ ...withBody, variant: `${p.name}=${junk.label}`, target: target({ ...pathValues, [p.name]: junk.value }) });
    }
  }
  // Query parameters, one at a time, then whole junk query strings.
  for (const p of op.params.filter((p) => p.in === "query")) {
    for (const junk of choose(H.QUERY_JUNK))
      v.push({ ...withBody, variant: `?${p.name}=${junk.label}`, target: target(pathValues, { ...queryValues, [p.name]: junk.value }) });
  }
  for (const junk of choose(H.QUERY_STRINGS))
    v.push({ ...withBody, variant: `?${junk.label}`, target: target(pathValues, queryValues, junk.value) });
  // Headers: the ones that replace the credentials go without the others.
  const headerJunk = H.HEADER_JUNK.filter((h) => !h.getOnly || op.method === "GET");
  for (const junk of plan.sampled === "all" ? headerJunk : random.sample(headerJunk, 2))
    v.push({ ...withBody, variant: junk.label, headers: [...withBody.headers, ...junk.headers] });

  // Other spellings of the path, and (once per path) methods no route describes.
  const [path, query] = [target().split("?")[0], target().split("?")[1]];
  for (const s of plan.sampled === "all" ? H.PATH_SHAPES : random.sample(H.PATH_SHAPES, 1))
    v.push({ ...withBody, variant: `path: ${s.label}`, target: s.shape(path) + (query ? `?${query}` : "") });
  if (firstOfPath)
    for (const method of plan.sampled === "all" ? H.METHODS : random.sample(H.METHODS, 1))
      v.push({ ...withBody, variant: `method ${method} instead`, method });

  // The same write eight times at once: a check-then-insert that awaits in between (a password
  // hash, a file write) lets two pass the check, and the loser must not meet the constraint as a 500.
  if (op.method !== "GET" && phaseOf(op) === 0)
    for (let i = 0; i < BURST; i++)
      v.push({ ...withBody, variant: `the same ${BURST} at once (${i + 1})`, auths: [i % 2 ? "session" : "token"] });

  for (let i = 0; i < plan.combined; i++) v.push(combined(op, base, pathValues, target, random));
  return v;
}

/** Several things wrong at once, drawn from every list (the long run's requests). */
function combined(
  op: Operation,
  base: Record<string, unknown>,
  realPaths: Record<string, string>,
  target: (paths?: Record<string, string>, query?: Record<string, string>, extra?: string) => string,
  random: Rng,
): Variant {
  const labels: string[] = [];
  let body: (() => Buffer) | undefined;
  const headers: Array<[string, string]> = [];
  const props = Object.keys(op.body?.schema?.properties ?? {});
  if (op.body?.contentType === "application/json" && props.length) {
    const pool = [
      ...C.STRUCTURES,
      ...C.STRINGS,
      ...C.INVALID_UTF8,
      ...C.WRONG_TYPES.integer,
      ...C.NUMERIC_STRINGS,
      ...C.WRONG_TYPES.string,
      ...C.WRONG_TYPES.boolean,
      ...C.DOCUMENTS,
    ];
    const mutated: Array<[string, C.Value]> = random.sample(props, 1 + random.int(3)).map((f) => [f, random.pick(pool)]);
    labels.push(...mutated.map(([f, val]) => `${f}=${val.label}`));
    body = () => withFields(base, mutated);
    headers.push(["Content-Type", "application/json"]);
  } else if (op.body) {
    const upload = random.pick(C.MULTIPARTS);
    labels.push(`upload: ${upload.label}`);
    body = upload.body;
    if (upload.contentType !== null) headers.push(["Content-Type", upload.contentType]);
  }
  // Mostly aimed at the real objects with valid credentials, so the spoilt body gets past the look-ups.
  const paths: Record<string, string> = {};
  if (random.int(3) === 0) {
    for (const p of op.params.filter((p) => p.in === "path")) {
      const junk = random.pick(H.PATH_JUNK);
      paths[p.name] = junk.value;
      labels.push(`${p.name}=${junk.label}`);
    }
  }
  if (random.int(4) === 0) {
    const junk = random.pick(H.HEADER_JUNK);
    headers.push(...junk.headers);
    labels.push(junk.label);
  }
  const query = random.int(3) === 0 ? random.pick(H.QUERY_STRINGS) : undefined;
  if (query) labels.push(`?${query.label}`);
  return {
    variant: `combined: ${labels.join(", ") || "well-formed"}`,
    target: target(Object.keys(paths).length ? { ...realPaths, ...paths } : undefined, undefined, query?.value),
    headers,
    body,
  };
}

function withAuth(auth: Auth, fx: Fixtures, headers: Array<[string, string]>): Array<[string, string]> {
  const replacesCredentials = headers.some(([n]) => /^(cookie|authorization)$/i.test(n));
  const credentials: Array<[string, string]> =
    replacesCredentials || auth === "anonymous"
      ? []
      : auth === "token"
        ? [["Authorization", `Bearer ${fx.token}`]]
        : [["Cookie", `cairn_session=${fx.cookie}`]];
  // Sent by everyone but the CSRF test, so that writes reach their route.
  const csrf: Array<[string, string]> = headers.some(([n]) => /^x-requested-with$/i.test(n)) ? [] : [["X-Requested-With", "Cairn"]];
  return [...credentials, ...csrf, ...headers];
}

/**
 * What can end the fuzzer's own session (signing out, revoking sessions, wrong passwords inside
 * it), removes what the others aim at, or changes the rules for everyone (instance settings: a
 * rate limit of 1 a minute, sessions that last a minute) runs last; deletions run before that.
 */
const LAST = new Set([
  "POST /api/auth/logout",
  "DELETE /api/auth/me/sessions/others",
  "POST /api/auth/reauth",
  "PUT /api/auth/me/password",
  "DELETE /api/spaces/{key}",
]);

function phaseOf(op: Operation): number {
  if (LAST.has(`${op.method} ${op.path}`) || (op.method !== "GET" && op.path.startsWith("/api/admin/settings"))) return 2;
  if (op.method === "DELETE" || /\/(archive|unarchive|purge|recover-access|public)$/.test(op.path)) return 1;
  return 0;
}

function realParam(path: string, name: string, fx: Fixtures): string {
  if (name === "key") return fx.spaceKey;
  if (name === "number") return "1";
  if (name === "userId") return fx.memberId;
  if (name === "name") return fx.label;
  if (name === "restrictionId") return fx.restrictionId;
  const owner = /\/([\w-]+)\/\{id\}/.exec(path)?.[1];
  const byCollection: Record<string, string> = {
    sessions: fx.spareSessionId,
    "api-tokens": fx.spareTokenId,
    invites: fx.inviteId,
    pages: fx.pageId,
    groups: fx.groupId,
    webhooks: fx.webhookId,
    comments: fx.commentId,
    attachments: fx.attachmentId,
    templates: fx.templateId,
    permissions: fx.grantId,
  };
  return (owner && byCollection[owner]) || BOGUS_ID;
}

function realQuery(name: string, fx: Fixtures): string {
  return ({ spaceId: fx.spaceId, q: "fuzz", take: "5", operation: "0" } as Record<string, string>)[name] ?? "1";
}
