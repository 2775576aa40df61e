/**
 * What each instance setting may be set to, what it means and which right changes it. The
 * server checks values against it (src/settings/rules.ts) and builds the request schema and the
 * OpenAPI descriptions from it; the settings screen draws its fields from it with the labels of
 * form.ts. Imports nothing: the web UI imports it too.
 *
 * The settings with their defaults (docs/api.md, "Rate limits"; docs/decisions.md, "Registration"). An empty
 * string means "not set".
 */
export const SETTING_DEFAULTS = {
  instanceName: "Cairn",
  baseUrl: "",
  allowPublicRegistration: false,
  allowPublicSpaces: false,
  anonymousRateLimitPerMinute: 300,
  loginRateLimitPerMinute: 10,
  tokenMintLimitPerHour: 20,
  lockoutThreshold: 5,
  lockoutBaseSeconds: 60,
  lockoutMaxSeconds: 900,
  // The account-wide lock (every address): at least this many wrong passwords from at least
  // this many addresses within the window. One address only ever locks itself out.
  lockoutAccountFailures: 20,
  lockoutAccountAddresses: 3,
  lockoutAccountWindowSeconds: 3600,
  trustedProxies: [] as string[],
  requireTotpForAdmins: false,
  // E-mail and single sign-on: stored and validated here; Cairn neither sends mail nor signs in
  // through them yet.
  emailEnabled: false,
  smtpProvider: "smtp" as "smtp" | "microsoft" | "google",
  smtpHost: "",
  smtpPort: 587,
  smtpTls: "starttls" as "starttls" | "tls" | "none",
  smtpUsername: "",
  smtpPassword: "",
  smtpFromAddress: "",
  microsoftClientId: "",
  microsoftClientSecret: "",
  microsoftTenant: "common",
  googleClientId: "",
  googleClientSecret: "",
  // Images and embeds.
  restrictImageHosts: false,
  imageAllowlist: [] as string[],
  embedAllowlist: [] as string[],
};

export type Settings = typeof SETTING_DEFAULTS;
export type SettingKey = keyof Settings;

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
  instanceName: {
    kind: "text",
    right: S,
    maxLength: 100,
    description:
      "The wiki's name, shown by GET /api/instance and in the page title: one line, 1 to 100 characters, surrounding spaces dropped",
  },
  baseUrl: {
    kind: "text",
    right: S,
    maxLength: 2000,
    optional: true,
    format: "url",
    description:
      "The address people reach the wiki at (http:// or https://, no query or fragment; a trailing / " +
      'dropped), for links in e-mails; "" for none (then --base-url, if given)',
  },
  allowPublicRegistration: {
    kind: "boolean",
    right: S,
    description: "Anyone may create an account without an invite. Turning it on needs a recent re-authentication",
  },
  allowPublicSpaces: {
    kind: "boolean",
    right: S,
    description:
      "Spaces marked public (PUT /api/admin/spaces/{key}/public) can be read by anyone, signed in or not. While off, a space " +
      "marked public is read only through its grants. Turning it on needs a recent re-authentication",
  },
  anonymousRateLimitPerMinute: {
    kind: "integer",
    right: SEC,
    minimum: 1,
    maximum: 100_000,
    description: "Requests a minute from one client address with no session or token; more answer 429",
  },
  loginRateLimitPerMinute: {
    kind: "integer",
    right: SEC,
    minimum: 1,
    maximum: 1_000,
    description:
      "Wrong passwords a minute from one client address (sign-in, re-authentication and password " +
      "changes together); more answer 429 before any password is checked",
  },
  tokenMintLimitPerHour: {
    kind: "integer",
    right: SEC,
    minimum: 1,
    maximum: 1_000,
    description: "API tokens one account may create an hour",
  },
  lockoutThreshold: {
    kind: "integer",
    right: SEC,
    minimum: 1,
    maximum: 100,
    description: "Wrong passwords from one client address that lock the account for that address (and how many more a lock still checks)",
  },
  lockoutBaseSeconds: {
    kind: "integer",
    right: SEC,
    minimum: 1,
    maximum: DAY,
    description: "How long the first lock lasts, in seconds; each further lock doubles it, up to lockoutMaxSeconds",
  },
  lockoutMaxSeconds: {
    kind: "integer",
    right: SEC,
    minimum: 1,
    maximum: 7 * DAY,
    description: "The longest a lock lasts, in seconds; at least lockoutBaseSeconds",
  },
  lockoutAccountFailures: {
    kind: "integer",
    right: SEC,
    minimum: 1,
    maximum: 100_000,
    description:
      "Wrong passwords within lockoutAccountWindowSeconds, from at least " +
      "lockoutAccountAddresses addresses, that lock the account for every address",
  },
  lockoutAccountAddresses: {
    kind: "integer",
    right: SEC,
    minimum: 2,
    maximum: 1_000,
    description:
      "How many client addresses the wrong passwords must come from to lock the account for " +
      "every address; at least 2, so one address only ever locks itself out",
  },
  lockoutAccountWindowSeconds: {
    kind: "integer",
    right: SEC,
    minimum: 60,
    maximum: 7 * DAY,
    description: "The window, in seconds, in which lockoutAccountFailures are counted",
  },
  trustedProxies: {
    kind: "list",
    right: SEC,
    entry: "cidr",
    maxItems: 50,
    description:
      "Reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (IP addresses or CIDRs such as 10.0.0.0/8), " +
      "beside those given with --trusted-proxies; at most 50. Adding one needs a recent re-authentication",
  },
  requireTotpForAdmins: {
    kind: "boolean",
    right: SEC,
    description:
      "Accounts of the Admin and Owner tiers must use two-factor sign-in (enforced once " +
      "two-factor sign-in exists). Turning it off needs a recent re-authentication",
  },
  emailEnabled: {
    kind: "boolean",
    right: S,
    description: `Send e-mail (invites, password resets, notifications) through the server below. ${LATER}`,
  },
  smtpProvider: {
    kind: "choice",
    right: S,
    values: ["smtp", "microsoft", "google"],
    description:
      `How mail is sent: "smtp" (a server with a user name and password), "microsoft" or ` +
      `"google" (their mail service, signed in with OAuth). ${LATER}`,
  },
  smtpHost: {
    kind: "text",
    right: S,
    maxLength: 253,
    optional: true,
    format: "host",
    description: `The SMTP server: a host name or IP address; "" for none. ${LATER}`,
  },
  smtpPort: {
    kind: "integer",
    right: S,
    minimum: 1,
    maximum: 65_535,
    description: `The SMTP server's port, 1 to 65535 (587 for STARTTLS, 465 for TLS). ${LATER}`,
  },
  smtpTls: {
    kind: "choice",
    right: S,
    values: ["starttls", "tls", "none"],
    description:
      `"starttls" (upgrade the connection, usually port 587), "tls" (encrypted from the start, ` +
      `usually 465) or "none" (unencrypted: only on a trusted network). ${LATER}`,
  },
  smtpUsername: { kind: "text", right: S, maxLength: 254, optional: true, description: `The SMTP user name; "" for none. ${LATER}` },
  smtpPassword: {
    kind: "secret",
    right: S,
    maxLength: 1000,
    description: `The SMTP password: never answered (smtpPasswordSet says whether one is stored); "" or null clears it. ${LATER}`,
  },
  smtpFromAddress: {
    kind: "text",
    right: S,
    maxLength: 254,
    optional: true,
    format: "email",
    description: `The address mail is sent from, such as wiki@example.com; "" for none. ${LATER}`,
  },
  microsoftClientId: {
    kind: "text",
    right: S,
    maxLength: 200,
    optional: true,
    format: "client-id",
    description: `The Microsoft Entra application (client) id; "" for none. ${SSO_LATER}`,
  },
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
    description:
      `The Microsoft tenant: "common", "organizations", "consumers", a tenant id or ` +
      `a domain such as example.onmicrosoft.com. ${SSO_LATER}`,
  },
  googleClientId: {
    kind: "text",
    right: S,
    maxLength: 200,
    optional: true,
    format: "client-id",
    description: `The Google OAuth client id (…apps.googleusercontent.com); "" for none. ${SSO_LATER}`,
  },
  googleClientSecret: {
    kind: "secret",
    right: S,
    maxLength: 1000,
    description: `The Google OAuth client secret: never answered (googleClientSecretSet); "" or null clears it. ${SSO_LATER}`,
  },
  restrictImageHosts: {
    kind: "boolean",
    right: S,
    description:
      "Pages show images from other sites only when their host is in imageAllowlist (attachments " +
      "are always shown). Turning it off needs a recent re-authentication",
  },
  imageAllowlist: {
    kind: "list",
    right: S,
    entry: "host",
    maxItems: 200,
    description:
      'Host names pages may show images from while restrictImageHosts is on; "*.example.com" also ' +
      "allows its subdomains; at most 200. Adding one needs a recent re-authentication",
  },
  embedAllowlist: {
    kind: "list",
    right: S,
    entry: "host",
    maxItems: 200,
    description:
      'Host names whose pages may be embedded in pages (video, maps…); "*.example.com" also allows ' +
      "its subdomains; at most 200. Adding one needs a recent re-authentication",
  },
};

export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];
