/**
 * Each instance setting checked against its rule. The rules (what each may be set to, what it
 * means, which right changes it) are one table, src/common/settings/rules.ts, that the request
 * schema (schemas.ts, with the OpenAPI descriptions), the service's own check (service.ts, for
 * callers other than HTTP) and the web UI's settings screen are all made from.
 */
import { parseCidr, parseIp } from "../platform/ip-ranges";
import { invalid } from "../platform/errors";
import { singleLine } from "../platform/text";
import { SETTING_DEFAULTS, type SettingKey, type Settings } from "../common/settings/rules";
import { SETTING_KEYS, SETTING_RULES, type EntryKind, type SettingRule } from "../common/settings/rules";

export { SETTING_KEYS, SETTING_RULES, type EntryKind, type SettingRight, type SettingRule } from "../common/settings/rules";

export const SECRET_KEYS = SETTING_KEYS.filter((k) => SETTING_RULES[k].kind === "secret");
export const isSecret = (key: SettingKey) => SETTING_RULES[key].kind === "secret";

const describe = (rule: SettingRule, key: SettingKey) =>
  (rule.kind === "secret" ? rule.description : `${rule.description} (default ${JSON.stringify(SETTING_DEFAULTS[key])})`) +
  `. Right: ${rule.right}`;

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
  email: (v: string) =>
    v.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? null : "must be an e-mail address such as wiki@example.com",
  "client-id": (v: string) =>
    /^[A-Za-z0-9._~-]+$/.test(v) ? null : "must be a client id: letters, digits, dots, dashes and underscores only",
  tenant: (v: string) =>
    /^[A-Za-z0-9.-]+$/.test(v) ? null : 'must be "common", "organizations", "consumers", a tenant id or a domain name',
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
      if (typeof value !== "string" || !rule.values.includes(value))
        throw invalid(key, `must be one of ${rule.values.map((v) => `"${v}"`).join(", ")}`);
      return value;
    case "secret":
      if (value === null) return "";
      if (typeof value !== "string") throw invalid(key, 'must be a string (or null or "" to clear it)');
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
