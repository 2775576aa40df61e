/**
 * What each instance setting may be set to, what it means and which right changes it: one
 * table that both the request schema (schemas.ts, with the OpenAPI descriptions) and the
 * service's own check (service.ts, for callers other than HTTP) are made from.
 */
import { parseCidr, parseIp } from "../platform/ip-ranges";
import { invalid } from "../platform/errors";
import { singleLine } from "../platform/text";
import { SETTING_DEFAULTS, type SettingKey, type Settings } from "./defaults";

/** The right each setting needs to be changed: security.manage for limits and sign-in policy, settings.manage for the rest. */
export type SettingRight = "settings.manage" | "security.manage";

/** What a list entry must be: a host name (with an optional leading "*." for its subdomains) or a CIDR. */
export type EntryKind = "host" | "cidr";

export type SettingRule = { description: string; right: SettingRight } & (
  | { kind: "boolean" }
  | { kind: "integer"; minimum: number; maximum: number }
  /** One line; `optional` allows "" (not set); `format` checks the trimmed value. */
  | { kind: "text"; maxLength: number; optional?: boolean; format?: "url" | "host" | "email" | "client-id" | "tenant" }
  | { kind: "choice"; values: readonly string[] }
  /** A JSON array of strings, stored trimmed, lower-cased and without repeats. */
  | { kind: "list"; entry: EntryKind; maxItems: number }
  /** Never answered (GET shows `<key>Set`); "" or null clears it; the audit log records only that it changed. */
  | { kind: "secret"; maxLength: number }
);

const DAY = 86_400;
const S = "settings.manage" as const;
const SEC = "security.manage" as const;
const LATER = "Stored and checked now; e-mail is sent from the account security release on.";
const SSO_LATER = "Stored and checked now; single sign-on arrives with the account security release.";

export const SETTING_RULES: { [K in SettingKey]: SettingRule } = {
  instanceName: { kind: "text", right: S, maxLength: 100, description: "The wiki's name, shown by GET /api/instance and in the page title: one line, 1 to 100 characters, surrounding spaces dropped" },
  baseUrl: {
    kind: "text",
    right: S,
    maxLength: 2000,
    optional: true,
    format: "url",
    description: "The address people reach the wiki at (http:// or https://, no query or fragment; a trailing / dropped), for links in e-mails; \"\" for none (then --base-url, if given)",
  },
  allowPublicRegistration: { kind: "boolean", right: S, description: "Anyone may create an account without an invite. Turning it on needs a recent re-authentication" },
  allowPublicSpaces: {
    kind: "boolean",
    right: S,
    description:
      "Spaces marked public (PUT /api/admin/spaces/{key}/public) can be read by anyone, signed in or not. While off, a space marked public is read only through its grants. Turning it on needs a recent re-authentication",
  },
  anonymousRateLimitPerMinute: { kind: "integer", right: SEC, minimum: 1, maximum: 100_000, description: "Requests a minute from one client address with no session or token; more answer 429" },
  loginRateLimitPerMinute: {
    kind: "integer",
    right: SEC,
    minimum: 1,
    maximum: 1_000,
    description: "Wrong passwords a minute from one client address (sign-in, re-authentication and password changes together); more answer 429 before any password is checked",
  },
  tokenMintLimitPerHour: { kind: "integer", right: SEC, minimum: 1, maximum: 1_000, description: "API tokens one account may create an hour" },
  lockoutThreshold: {
    kind: "integer",
    right: SEC,
    minimum: 1,
    maximum: 100,
    description: "Wrong passwords from one client address that lock the account for that address (and how many more a lock still checks)",
  },
  lockoutBaseSeconds: { kind: "integer", right: SEC, minimum: 1, maximum: DAY, description: "How long the first lock lasts, in seconds; each further lock doubles it, up to lockoutMaxSeconds" },
  lockoutMaxSeconds: { kind: "integer", right: SEC, minimum: 1, maximum: 7 * DAY, description: "The longest a lock lasts, in seconds; at least lockoutBaseSeconds" },
  lockoutAccountFailures: {
    kind: "integer",
    right: SEC,
    minimum: 1,
    maximum: 100_000,
    description: "Wrong passwords within lockoutAccountWindowSeconds, from at least lockoutAccountAddresses addresses, that lock the account for every address",
  },
  lockoutAccountAddresses: {
    kind: "integer",
    right: SEC,
    minimum: 2,
    maximum: 1_000,
    description: "How many client addresses the wrong passwords must come from to lock the account for every address; at least 2, so one address only ever locks itself out",
  },
  lockoutAccountWindowSeconds: { kind: "integer", right: SEC, minimum: 60, maximum: 7 * DAY, description: "The window, in seconds, in which lockoutAccountFailures are counted" },
  trustedProxies: {
    kind: "list",
    right: SEC,
    entry: "cidr",
    maxItems: 50,
    description:
      "Reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (IP addresses or CIDRs such as 10.0.0.0/8), beside those given with --trusted-proxies; at most 50. Adding one needs a recent re-authentication",
  },
  requireTotpForAdmins: {
    kind: "boolean",
    right: SEC,
    description: "Accounts of the Admin and Owner tiers must use two-factor sign-in (enforced once two-factor sign-in exists). Turning it off needs a recent re-authentication",
  },
  emailEnabled: { kind: "boolean", right: S, description: `Send e-mail (invites, password resets, notifications) through the server below. ${LATER}` },
  smtpProvider: {
    kind: "choice",
    right: S,
    values: ["smtp", "microsoft", "google"],
    description: `How mail is sent: "smtp" (a server with a user name and password), "microsoft" or "google" (their mail service, signed in with OAuth). ${LATER}`,
  },
  smtpHost: { kind: "text", right: S, maxLength: 253, optional: true, format: "host", description: `The SMTP server: a host name or IP address; "" for none. ${LATER}` },
  smtpPort: { kind: "integer", right: S, minimum: 1, maximum: 65_535, description: `The SMTP server's port, 1 to 65535 (587 for STARTTLS, 465 for TLS). ${LATER}` },
  smtpTls: {
    kind: "choice",
    right: S,
    values: ["starttls", "tls", "none"],
    description: `"starttls" (upgrade the connection, usually port 587), "tls" (encrypted from the start, usually 465) or "none" (unencrypted: only on a trusted network). ${LATER}`,
  },
  smtpUsername: { kind: "text", right: S, maxLength: 254, optional: true, description: `The SMTP user name; "" for none. ${LATER}` },
  smtpPassword: { kind: "secret", right: S, maxLength: 1000, description: `The SMTP password: never answered (smtpPasswordSet says whether one is stored); "" or null clears it. ${LATER}` },
  smtpFromAddress: { kind: "text", right: S, maxLength: 254, optional: true, format: "email", description: `The address mail is sent from, such as wiki@example.com; "" for none. ${LATER}` },
  microsoftClientId: { kind: "text", right: S, maxLength: 200, optional: true, format: "client-id", description: `The Microsoft Entra application (client) id; "" for none. ${SSO_LATER}` },
  microsoftClientSecret: {
    kind: "secret",
    right: S,
    maxLength: 1000,
    description: `The Microsoft application's client secret: never answered (microsoftClientSecretSet); "" or null clears it. ${SSO_LATER}`,
  },
  microsoftTenant: {
    kind: "text",
    right: S,
    maxLength: 100,
    format: "tenant",
    description: `The Microsoft tenant: "common", "organizations", "consumers", a tenant id or a domain such as example.onmicrosoft.com. ${SSO_LATER}`,
  },
  googleClientId: { kind: "text", right: S, maxLength: 200, optional: true, format: "client-id", description: `The Google OAuth client id (…apps.googleusercontent.com); "" for none. ${SSO_LATER}` },
  googleClientSecret: { kind: "secret", right: S, maxLength: 1000, description: `The Google OAuth client secret: never answered (googleClientSecretSet); "" or null clears it. ${SSO_LATER}` },
  restrictImageHosts: {
    kind: "boolean",
    right: S,
    description: "Pages show images from other sites only when their host is in imageAllowlist (attachments are always shown). Turning it off needs a recent re-authentication",
  },
  imageAllowlist: {
    kind: "list",
    right: S,
    entry: "host",
    maxItems: 200,
    description: "Host names pages may show images from while restrictImageHosts is on; \"*.example.com\" also allows its subdomains; at most 200. Adding one needs a recent re-authentication",
  },
  embedAllowlist: {
    kind: "list",
    right: S,
    entry: "host",
    maxItems: 200,
    description: "Host names whose pages may be embedded in pages (video, maps…); \"*.example.com\" also allows its subdomains; at most 200. Adding one needs a recent re-authentication",
  },
};

export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];
export const SECRET_KEYS = SETTING_KEYS.filter((k) => SETTING_RULES[k].kind === "secret");
export const isSecret = (key: SettingKey) => SETTING_RULES[key].kind === "secret";

const describe = (rule: SettingRule, key: SettingKey) => (rule.kind === "secret" ? rule.description : `${rule.description} (default ${JSON.stringify(SETTING_DEFAULTS[key])})`) + `. Right: ${rule.right}`;

/** The description of a setting, with its default and right, for the OpenAPI document. */
export const settingDescription = (key: SettingKey) => describe(SETTING_RULES[key], key);

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
function isHostName(host: string): boolean {
  if (host.length > 253) return false;
  const labels = host.split(".");
  return labels.every((l) => HOST_LABEL.test(l)) && !/^\d+$/.test(labels.at(-1)!);
}
const isHost = (value: string) => isHostName(value) || parseIp(value.replace(/^\[(.*)\]$/, "$1")) !== null;

const FORMATS = {
  url: (v: string) => {
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      return "must be an address such as https://wiki.example.com";
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return "must start with http:// or https://";
    if (url.search || url.hash || url.username || url.password) return "must not carry a query, a fragment or a user name";
    return null;
  },
  host: (v: string) => (isHost(v.toLowerCase()) ? null : "must be a host name such as smtp.example.com or an IP address"),
  email: (v: string) => (v.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? null : "must be an e-mail address such as wiki@example.com"),
  "client-id": (v: string) => (/^[A-Za-z0-9._~-]+$/.test(v) ? null : "must be a client id: letters, digits, dots, dashes and underscores only"),
  tenant: (v: string) => (/^[A-Za-z0-9.-]+$/.test(v) ? null : 'must be "common", "organizations", "consumers", a tenant id or a domain name'),
};

function checkEntry(key: SettingKey, kind: EntryKind, raw: unknown, i: number): string {
  if (typeof raw !== "string") throw invalid(key, `must hold only text (entry ${i + 1} is not)`);
  const entry = raw.trim().toLowerCase();
  if (kind === "cidr") {
    if (!parseCidr(entry)) throw invalid(key, `"${raw}" is not an IP address or CIDR such as 10.0.0.0/8`);
    return entry;
  }
  if (!isHostName(entry.replace(/^\*\./, ""))) throw invalid(key, `"${raw}" is not a host name such as example.com or *.example.com`);
  return entry;
}

/** One value checked against its rule: answers it as stored (trimmed, normalised), or a 400 naming it. */
function checkValue(key: SettingKey, value: unknown): unknown {
  const rule = SETTING_RULES[key];
  switch (rule.kind) {
    case "boolean":
      if (typeof value !== "boolean") throw invalid(key, "must be true or false");
      return value;
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) throw invalid(key, "must be a whole number");
      if (value < rule.minimum || value > rule.maximum) throw invalid(key, `must be from ${rule.minimum} to ${rule.maximum}`);
      return value;
    case "choice":
      if (typeof value !== "string" || !rule.values.includes(value)) throw invalid(key, `must be one of ${rule.values.map((v) => `"${v}"`).join(", ")}`);
      return value;
    case "secret":
      if (value === null) return "";
      if (typeof value !== "string") throw invalid(key, "must be a string (or null or \"\" to clear it)");
      if (value.length > rule.maxLength) throw invalid(key, `must be at most ${rule.maxLength} characters`);
      return singleLine(key, value);
    case "list": {
      if (!Array.isArray(value)) throw invalid(key, "must be a list (a JSON array of strings)");
      if (value.length > rule.maxItems) throw invalid(key, `must have at most ${rule.maxItems} entries`);
      return [...new Set(value.map((v, i) => checkEntry(key, rule.entry, v, i)))];
    }
    case "text": {
      if (typeof value !== "string") throw invalid(key, "must be a string");
      let text = singleLine(key, value).trim();
      if (!text) {
        if (rule.optional) return "";
        throw invalid(key, "must not be blank");
      }
      if (text.length > rule.maxLength) throw invalid(key, `must be at most ${rule.maxLength} characters`);
      const wrong = rule.format ? FORMATS[rule.format](text) : null;
      if (wrong) throw invalid(key, wrong);
      if (rule.format === "url") text = text.replace(/\/+$/, "");
      if (rule.format === "host" || rule.format === "email") text = text.toLowerCase();
      return text;
    }
  }
}

/** Whether a stored value still keeps its rule (a database edited by hand may hold anything). */
export function keepsRule(key: SettingKey, value: unknown): boolean {
  try {
    return JSON.stringify(checkValue(key, value)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/**
 * A change of some settings, checked as a whole: each value against its rule, then the
 * settings that depend on each other as they would be afterwards. Answers the new settings.
 */
export function checkSettings(current: Settings, input: Record<string, unknown>): Settings {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(input)) {
    if (!Object.hasOwn(SETTING_RULES, key)) throw invalid(key, "is not a setting");
    next[key] = checkValue(key as SettingKey, value);
  }
  const s = next as Settings;
  if (s.lockoutMaxSeconds < s.lockoutBaseSeconds) {
    const field = "lockoutMaxSeconds" in input ? "lockoutMaxSeconds" : "lockoutBaseSeconds";
    throw invalid(field, `lockoutMaxSeconds (${s.lockoutMaxSeconds}) must be at least lockoutBaseSeconds (${s.lockoutBaseSeconds})`);
  }
  return s;
}

/**
 * The settings of a change that widen access (they need a recent re-authentication:
 * docs/permissions.md): registration or public spaces turned on, two-factor for administrators or
 * the image restriction turned off, and an entry added to a list (trusted proxies, images,
 * embeds). Judged from what is sent, so sending the widening value again still asks.
 */
export function wideningKeys(current: Settings, next: Settings, input: Record<string, unknown>): SettingKey[] {
  const sent = (k: SettingKey) => Object.hasOwn(input, k);
  const widening: SettingKey[] = [];
  if (sent("allowPublicRegistration") && next.allowPublicRegistration) widening.push("allowPublicRegistration");
  if (sent("allowPublicSpaces") && next.allowPublicSpaces) widening.push("allowPublicSpaces");
  if (sent("requireTotpForAdmins") && !next.requireTotpForAdmins) widening.push("requireTotpForAdmins");
  if (sent("restrictImageHosts") && !next.restrictImageHosts) widening.push("restrictImageHosts");
  for (const k of ["trustedProxies", "imageAllowlist", "embedAllowlist"] as const) {
    if (sent(k) && next[k].some((e) => !current[k].includes(e))) widening.push(k);
  }
  return widening;
}
