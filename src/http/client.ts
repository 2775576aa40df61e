import { inCidr, parseIp, unmapV4, type Cidr } from "../platform/ip-ranges";

/**
 * Who is on the other end of a request: the client's address (rate limits, lockout, the audit
 * log) and whether it reached us over HTTPS (Secure cookies, HSTS). Behind a reverse proxy the
 * socket is the proxy's; only a proxy named in --trusted-proxies is believed about the original
 * address (X-Forwarded-For) and scheme (X-Forwarded-Proto). Anyone else could send those
 * headers to pose as another address or to get a Secure cookie over plain HTTP.
 */
export interface ClientInfo {
  readonly ip: string;
  https: boolean;
}

/** The socket's address, or how to ask Bun for it at its first use (docs/decisions.md, "A read's address"). */
export type SocketAddress = string | null | (() => string | null);

class LazyClient implements ClientInfo {
  #ask: (() => string | null) | null;
  #ip = "local";
  constructor(
    ask: () => string | null,
    readonly https: boolean,
  ) {
    this.#ask = ask;
  }
  get ip(): string {
    if (this.#ask) {
      this.#ip = this.#ask() ?? "local";
      this.#ask = null;
    }
    return this.#ip;
  }
}

const clients = new WeakMap<Request, ClientInfo>();

/** What the entry learnt about the request (in-process tests have no socket: "local"). */
export function clientOf(request: Request): ClientInfo {
  return clients.get(request) ?? { ip: "local", https: request.url.startsWith("https:") };
}

export function identifyClient(request: Request, socket: SocketAddress, trusted: readonly Cidr[]): ClientInfo {
  let info: ClientInfo;
  if (typeof socket === "function" && !trusted.length) info = new LazyClient(socket, request.url.startsWith("https:"));
  else {
    // Behind a trusted proxy the socket decides which headers to believe.
    const ip = (typeof socket === "function" ? socket() : socket) ?? "local";
    info = trusted.length && isTrusted(ip, trusted) ? forwarded(request, ip, trusted) : { ip, https: request.url.startsWith("https:") };
  }
  clients.set(request, info);
  return info;
}

function isTrusted(ip: string, trusted: readonly Cidr[]): boolean {
  const bytes = parseIp(ip);
  if (!bytes) return false;
  const v4 = unmapV4(bytes);
  return trusted.some((net) => inCidr(bytes, net) || (v4 !== null && inCidr(v4, net)));
}

/**
 * The client is the nearest address in X-Forwarded-For that is not itself a trusted proxy
 * (read from the right: each proxy appends the address it got the request from, and only the
 * entries our own proxies added can be believed). The scheme is the first hop's.
 */
function forwarded(request: Request, socketIp: string, trusted: readonly Cidr[]): ClientInfo {
  const chain = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  let ip = socketIp;
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!parseIp(chain[i])) break; // junk: stop at the last address we could read
    ip = chain[i];
    if (!isTrusted(ip, trusted)) break;
  }
  const proto = (request.headers.get("x-forwarded-proto") ?? "").split(",")[0].trim().toLowerCase();
  return { ip, https: proto === "https" || (proto === "" && request.url.startsWith("https:")) };
}
