/**
 * IP address parsing and classification for the outbound guard (src/platform/outbound.ts):
 * which addresses an outbound request must not reach unless an administrator allows them
 * (CAIRN_OUTBOUND_ALLOW). Framework-free and synchronous, so it is easy to test on its own.
 */

/** 4 bytes (IPv4) or 16 bytes (IPv6). */
export type IpBytes = Uint8Array;

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseV4(text: string): IpBytes | null {
  const m = V4.exec(text);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p, i) => p > 255 || (m[i + 1].length > 1 && m[i + 1].startsWith("0")))) return null;
  return Uint8Array.from(parts);
}

function parseV6(text: string): IpBytes | null {
  let s = text;
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) becomes two hex groups.
  const lastColon = s.lastIndexOf(":");
  if (s.includes(".")) {
    const v4 = parseV4(s.slice(lastColon + 1));
    if (!v4) return null;
    s = `${s.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(all[i])) return null;
    const v = parseInt(all[i], 16);
    out[2 * i] = v >> 8;
    out[2 * i + 1] = v & 0xff;
  }
  return out;
}

/** Parses "1.2.3.4", "::1", "[::1]", "fe80::1%eth0"; anything else (a hostname) is null. */
export function parseIp(text: string): IpBytes | null {
  let s = text.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  return s.includes(":") ? parseV6(s) : parseV4(s);
}

export function formatIp(ip: IpBytes): string {
  if (ip.length === 4) return ip.join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ip[i] << 8) | ip[i + 1]).toString(16));
  // Shorten the longest run of zero groups (RFC 5952), enough for messages and URLs.
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  if (best < 0) return groups.join(":");
  return `${groups.slice(0, best).join(":")}::${groups.slice(best + bestLen).join(":")}`;
}

export interface Cidr {
  bytes: IpBytes;
  prefix: number;
}

/** "10.0.0.0/8", "fd00::/8", or a single address (a /32 or /128). */
export function parseCidr(text: string): Cidr | null {
  const [addr, len, ...rest] = text.trim().split("/");
  if (rest.length) return null;
  const bytes = parseIp(addr);
  if (!bytes) return null;
  const max = bytes.length * 8;
  if (len === undefined) return { bytes, prefix: max };
  if (!/^\d{1,3}$/.test(len) || Number(len) > max) return null;
  return { bytes, prefix: Number(len) };
}

export function inCidr(ip: IpBytes, net: Cidr): boolean {
  if (ip.length !== net.bytes.length) return false;
  for (let bit = 0; bit < net.prefix; bit += 8) {
    const take = Math.min(8, net.prefix - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((ip[bit / 8] & mask) !== (net.bytes[bit / 8] & mask)) return false;
  }
  return true;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d), else null. */
export function unmapV4(ip: IpBytes): IpBytes | null {
  if (ip.length === 16 && inCidr(ip, MAPPED)) return ip.slice(12);
  return null;
}

const MAPPED = parseCidr("::ffff:0:0/96")!;

const table = (rows: Array<[string, string]>) => rows.map(([cidr, reason]) => ({ net: parseCidr(cidr)!, reason }));

/** First match wins, so the narrow metadata entries come before the ranges holding them. */
const V4_RANGES = table([
  ["169.254.169.254/32", "metadata address"],
  ["168.63.129.16/32", "metadata address"],
  ["0.0.0.0/8", "unspecified address"],
  ["10.0.0.0/8", "private address"],
  ["100.64.0.0/10", "shared (CGNAT) address"],
  ["127.0.0.0/8", "loopback address"],
  ["169.254.0.0/16", "link-local address"],
  ["172.16.0.0/12", "private address"],
  ["192.0.0.0/24", "reserved address"],
  ["192.168.0.0/16", "private address"],
  ["198.18.0.0/15", "reserved address"],
  ["224.0.0.0/4", "multicast address"],
  ["240.0.0.0/4", "reserved address"],
]);

const V6_RANGES = table([
  ["fd00:ec2::254/128", "metadata address"],
  ["::/128", "unspecified address"],
  ["::1/128", "loopback address"],
  ["64:ff9b:1::/48", "private address"],
  ["100::/64", "reserved address"],
  ["2001::/32", "reserved address"],
  ["2001:db8::/32", "reserved address"],
  ["fc00::/7", "unique-local address"],
  ["fe80::/10", "link-local address"],
  ["fec0::/10", "private address"],
  ["ff00::/8", "multicast address"],
]);

/** IPv6 ranges that carry an IPv4 address: judged by the IPv4 address inside. */
const V6_EMBEDDING: Array<{ net: Cidr; at: number }> = [
  { net: parseCidr("::ffff:0:0/96")!, at: 12 }, // IPv4-mapped
  { net: parseCidr("::/96")!, at: 12 }, // IPv4-compatible (deprecated)
  { net: parseCidr("64:ff9b::/96")!, at: 12 }, // NAT64
  { net: parseCidr("2002::/16")!, at: 2 }, // 6to4
];

/**
 * Why an outbound request must not reach this address ("loopback address", "private
 * address"…), or null for an ordinary public address.
 */
export function classifyIp(ip: IpBytes): string | null {
  if (ip.length === 4) return V4_RANGES.find((r) => inCidr(ip, r.net))?.reason ?? null;
  for (const r of V6_RANGES.slice(0, 3)) if (inCidr(ip, r.net)) return r.reason;
  for (const e of V6_EMBEDDING) if (inCidr(ip, e.net)) return classifyIp(ip.slice(e.at, e.at + 4));
  return V6_RANGES.find((r) => inCidr(ip, r.net))?.reason ?? null;
}

/** The administrator's exceptions (CAIRN_OUTBOUND_ALLOW): host names, addresses and CIDRs. */
export interface AllowList {
  hosts: Set<string>;
  nets: Cidr[];
}

const normaliseHost = (host: string) => host.trim().toLowerCase().replace(/\.$/, "");

/** Entries that are neither an address, a CIDR nor a host name are ignored (they match nothing). */
export function parseAllowList(entries: string[]): AllowList {
  const list: AllowList = { hosts: new Set(), nets: [] };
  for (const raw of entries) {
    const entry = raw.trim();
    if (!entry) continue;
    const net = parseCidr(entry);
    if (net) list.nets.push(net);
    else if (!entry.includes("/")) list.hosts.add(normaliseHost(entry));
  }
  return list;
}

export function hostAllowed(list: AllowList, host: string): boolean {
  return list.hosts.has(normaliseHost(host));
}

/** An address matches an allowed CIDR directly or, when IPv4-mapped, through its IPv4 form. */
export function ipAllowed(list: AllowList, ip: IpBytes): boolean {
  const v4 = unmapV4(ip);
  return list.nets.some((net) => inCidr(ip, net) || (v4 !== null && inCidr(v4, net)));
}
