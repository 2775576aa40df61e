/**
 * The ONE way Cairn makes an outbound HTTP request (webhooks now; link previews, OIDC discovery
 * and backup targets later). The rule (docs/decisions.md, "One outbound guard"): http(s) only,
 * every resolved address checked, redirects re-checked, a time-out and a size cap.
 *
 * DNS rebinding: the host is resolved once per hop, every address is checked, and the request
 * then goes to the checked address itself (the URL carries the IP; the Host header and, for
 * https, the TLS server name / certificate check carry the original host name). Nothing
 * resolves the name a second time, so an answer that changes between the check and the
 * connection cannot slip a private address in.
 */
import { classifyIp, formatIp, hostAllowed, ipAllowed, parseAllowList, parseIp, type AllowList, type IpBytes } from "./ip-ranges";

export type OutboundFailure = "bad_url" | "refused" | "timeout" | "network" | "too_many_redirects";

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

export interface OutboundOptions {
  /** CAIRN_OUTBOUND_ALLOW entries: host names, addresses or CIDRs that may be private. */
  allow: string[];
  /** For the whole exchange: resolution, every redirect hop and reading the answer. */
  timeoutMs: number;
  /** Read at most this many bytes of the answer's body (the rest is dropped unread). */
  maxBytes: number;
  maxRedirects?: number;
  /**
   * false: a redirect is answered as it came (status and Location), not followed. For callers
   * whose request must reach the URL itself: a webhook's POST would otherwise arrive as a
   * bodiless GET after a 301/302. Default true.
   */
  followRedirects?: boolean;
  /** Resolves a host name to its addresses (tests); default: the system resolver, all answers. */
  resolve?: (host: string) => Promise<string[]>;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  /** A string or bytes, so a 307/308 redirect can send it again. */
  body?: string | Uint8Array<ArrayBuffer>;
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  /** The URL that answered (after redirects). */
  url: string;
  /** The address connected to. */
  address: string;
  /** At most maxBytes of the body. */
  body: Uint8Array;
  truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function systemResolve(host: string): Promise<string[]> {
  // Loaded at the first outbound request: this module loads before the server listens.
  const { lookup } = await import("node:dns/promises");
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

/**
 * The allow list parsed once per list: callers pass the configuration's own array (webhook
 * deliveries, several per change), which does not change while the process runs.
 */
const parsedAllowLists = new WeakMap<string[], AllowList>();
function allowListOf(entries: string[]): AllowList {
  let list = parsedAllowLists.get(entries);
  if (!list) parsedAllowLists.set(entries, (list = parseAllowList(entries)));
  return list;
}

/** Parses and checks the shape of a URL; the addresses are checked in `checkedAddress`. */
export function checkOutboundUrl(raw: string | URL): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError("bad_url", "bad URL: not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new OutboundError("bad_url", `bad URL: ${url.protocol} is not allowed (http and https only)`);
  if (!url.hostname) throw new OutboundError("bad_url", "bad URL: no host");
  if (url.username || url.password) throw new OutboundError("bad_url", "bad URL: user names and passwords in URLs are not supported");
  return url;
}

/**
 * Resolves the URL's host and answers the address to connect to, or throws "refused" if ANY
 * address is one we must not reach and neither the host nor that address is allowed.
 */
async function checkedAddress(url: URL, opts: OutboundOptions, signal: AbortSignal): Promise<IpBytes> {
  const allow = allowListOf(opts.allow);
  const literal = parseIp(url.hostname);
  let addresses: IpBytes[];
  if (literal) addresses = [literal];
  else {
    const resolving = (opts.resolve ?? systemResolve)(url.hostname);
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(new OutboundError("timeout", `timed out after ${opts.timeoutMs} ms (resolving ${url.hostname})`));
      if (signal.aborted) fail();
      signal.addEventListener("abort", fail, { once: true });
    });
    let names: string[];
    try {
      names = await Promise.race([resolving, aborted]);
    } catch (err) {
      if (err instanceof OutboundError) throw err;
      throw new OutboundError("network", `could not resolve ${url.hostname}: ${(err as { code?: string }).code ?? (err as Error).message}`);
    }
    addresses = names.map(parseIp).filter((a): a is IpBytes => a !== null);
    if (addresses.length === 0) throw new OutboundError("network", `could not resolve ${url.hostname}: no addresses`);
  }
  const hostOk = hostAllowed(allow, url.hostname);
  for (const address of addresses) {
    const reason = classifyIp(address);
    if (reason && !hostOk && !ipAllowed(allow, address)) {
      const shown = literal ? formatIp(address) : `${formatIp(address)} (${url.hostname})`;
      throw new OutboundError("refused", `refused: ${reason} ${shown}; CAIRN_OUTBOUND_ALLOW can allow it`);
    }
  }
  return addresses[0];
}

/**
 * For a client that makes its own connections (Bun's S3 client for backup targets): checks
 * the URL's shape and every address its host resolves to now, as guardedFetch does before each
 * hop, and answers the address checked. The client resolves the name again when it connects,
 * so this does not pin the address as guardedFetch does; it refuses what is configured.
 */
export async function checkOutboundHost(
  raw: string | URL,
  opts: Pick<OutboundOptions, "allow" | "timeoutMs" | "resolve">,
): Promise<string> {
  const url = checkOutboundUrl(raw);
  return formatIp(await checkedAddress(url, { ...opts, maxBytes: 0 }, AbortSignal.timeout(opts.timeoutMs)));
}

async function readCapped(res: Response, maxBytes: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  if (!res.body) return { body: new Uint8Array(), truncated: false };
  // A declared length within the cap (a receiver's short "ok"): read natively in one go, not
  // chunk by chunk through a stream reader. The client reads no more than the length declared.
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (Number.isInteger(declared) && declared >= 0 && declared <= maxBytes && !res.headers.has("content-encoding")) {
    const body = await res.bytes();
    return body.byteLength <= maxBytes ? { body, truncated: false } : { body: body.subarray(0, maxBytes), truncated: true };
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > maxBytes) {
      // Keep what fits, drop the rest unread: memory stays at maxBytes plus one chunk.
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return { body, truncated };
}

/**
 * Sends one request through the guard and reads at most `maxBytes` of the answer. Throws an
 * OutboundError: bad_url, refused (with the reason, e.g. "refused: loopback address"),
 * timeout, network or too_many_redirects. Any HTTP status is an answer, not an error.
 */
export async function guardedFetch(rawUrl: string | URL, init: OutboundRequest, opts: OutboundOptions): Promise<OutboundResponse> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  const maxRedirects = opts.maxRedirects ?? 5;
  let url = checkOutboundUrl(rawUrl);
  let method = (init.method ?? "GET").toUpperCase();
  let body = init.body;
  let headers: Record<string, string> = Object.fromEntries(Object.entries(init.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  for (let hop = 0; ; hop++) {
    // 1. Check every address of this hop's host; 2. connect to the checked one.
    const address = await checkedAddress(url, opts, signal);
    const ip = formatIp(address);
    const pinned = new URL(url);
    pinned.hostname = address.length === 16 ? `[${ip}]` : ip;
    const literal = parseIp(url.hostname) !== null;
    let res: Response;
    try {
      res = await fetch(pinned, {
        method,
        headers: { ...headers, host: url.host },
        body: method === "GET" || method === "HEAD" ? undefined : body,
        redirect: "manual",
        signal,
        ...(url.protocol === "https:" && !literal ? { tls: { serverName: url.hostname } } : {}),
      });
    } catch (err) {
      if (signal.aborted) throw new OutboundError("timeout", `timed out after ${opts.timeoutMs} ms`);
      throw new OutboundError("network", `could not connect to ${url.host} (${ip}): ${(err as Error).message}`);
    }
    const location = res.headers.get("location");
    if (!REDIRECTS.has(res.status) || !location || opts.followRedirects === false) {
      try {
        const { body: bytes, truncated } = await readCapped(res, opts.maxBytes);
        return { status: res.status, headers: res.headers, url: url.href, address: ip, body: bytes, truncated };
      } catch (err) {
        if (signal.aborted) throw new OutboundError("timeout", `timed out after ${opts.timeoutMs} ms (reading the answer)`);
        throw new OutboundError("network", `the answer from ${url.host} broke off: ${(err as Error).message}`);
      }
    }
    // 3. A redirect: drop this answer, re-check the next URL from scratch.
    await res.body?.cancel().catch(() => {});
    if (hop + 1 > maxRedirects) throw new OutboundError("too_many_redirects", `more than ${maxRedirects} redirects`);
    const next = checkOutboundUrl(new URL(location, url));
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
      method = method === "HEAD" ? "HEAD" : "GET";
      body = undefined;
      const { "content-type": _t, "content-length": _l, ...rest } = headers;
      headers = rest;
    }
    if (next.origin !== url.origin) {
      // As browsers do: credentials for one origin are not handed to another.
      const { authorization: _a, cookie: _c, ...rest } = headers;
      headers = rest;
    }
    url = next;
  }
}
