/**
 * How the settings screen shows each instance setting: its label and help in the screen's words,
 * the names of a choice's values, and the cards that group them. What a setting may hold (its
 * kind, range, length, right) is its rule (rules.ts); a field is made of the two by `settingField`,
 * so the screen re-types no range. Every setting has a label (the type says so) and sits on one
 * card (src/settings/form.test.ts).
 */
import { SETTING_RULES, type SettingKey, type SettingRight } from "./rules";

/** `{range}` in a help text is the rule's range in words: "1 to 100,000", "1 to 100 characters". */
interface FormEntry {
  label: string;
  help: string;
  /** For a choice: each value's name, in the rule's order. */
  choices?: Record<string, string>;
}

const LATER_MAIL = "Cairn stores and checks these now; it starts sending mail with a later release.";
const LATER_SSO = "Cairn stores and checks these now; signing in with Microsoft or Google arrives with a later release.";
const KEPT_SECRET = "Never shown again once saved.";

const FORM: { [K in SettingKey]: FormEntry } = {
  instanceName: { label: "Instance name", help: "Shown in the header and on the sign-in screen. {range}." },
  baseUrl: {
    label: "Base URL",
    help:
      "The address people open, such as https://wiki.example.com; used for links in " +
      "e-mails. Leave empty to use the server's --base-url.",
  },
  allowPublicRegistration: { label: "Anyone may create an account without an invite", help: "Off: people join only through an invite." },
  allowPublicSpaces: {
    label: "Public spaces can be read without signing in",
    help: "Spaces are made public one by one; while this is off they stay readable only to the people they are shared with.",
  },
  anonymousRateLimitPerMinute: { label: "Requests a minute without signing in", help: "Per address. {range}." },
  loginRateLimitPerMinute: { label: "Wrong passwords a minute", help: "Per address, before any password is checked. {range}." },
  tokenMintLimitPerHour: { label: "New API tokens an hour", help: "Per account. {range}." },
  lockoutThreshold: { label: "Wrong passwords before a lock", help: "From one address; the account is locked for that address. {range}." },
  lockoutBaseSeconds: { label: "First lock lasts (seconds)", help: "Each further lock doubles it. {range}." },
  lockoutMaxSeconds: { label: "Longest lock (seconds)", help: "At least the first lock. {range} (a week)." },
  lockoutAccountFailures: {
    label: "Wrong passwords that lock for every address",
    help: "Within the window below, from several addresses. {range}.",
  },
  lockoutAccountAddresses: {
    label: "…coming from at least this many addresses",
    help: "At least 2, so one address only ever locks itself out. {range}.",
  },
  lockoutAccountWindowSeconds: { label: "…within (seconds)", help: "{range}." },
  requireTotpForAdmins: {
    label: "Administrators must use two-factor sign-in",
    help: "Enforced once two-factor sign-in arrives. Turning it off asks for your password.",
  },
  trustedProxies: {
    label: "Trusted proxies",
    help:
      "One IP address or CIDR a line (such as 10.0.0.0/8), at most {items}: their " +
      "X-Forwarded-For is believed. Adding one asks for your password.",
  },
  emailEnabled: { label: "Send e-mail", help: "Off: links are shown to administrators to pass on by hand." },
  smtpProvider: {
    label: "Provider",
    help: "How Cairn signs in to send mail.",
    choices: { smtp: "SMTP server (password)", microsoft: "Microsoft 365 (OAuth)", google: "Google Workspace (OAuth)" },
  },
  smtpHost: { label: "SMTP server", help: "A host name such as smtp.example.com, or an IP address." },
  smtpPort: { label: "Port", help: "{range}: usually 587 with STARTTLS, 465 with TLS." },
  smtpTls: {
    label: "Encryption",
    help: "How the connection to the server is protected.",
    choices: {
      starttls: "STARTTLS (usually port 587)",
      tls: "TLS from the start (usually port 465)",
      none: "None: only on a network you trust",
    },
  },
  smtpUsername: { label: "User name", help: "Leave empty if the server needs none." },
  smtpPassword: { label: "Password", help: KEPT_SECRET },
  smtpFromAddress: { label: "Send from", help: "The sender's address, such as wiki@example.com." },
  microsoftClientId: { label: "Microsoft application (client) id", help: "From the app registration in Microsoft Entra." },
  microsoftClientSecret: { label: "Microsoft client secret", help: KEPT_SECRET },
  microsoftTenant: {
    label: "Microsoft tenant",
    help: "common, organizations, consumers, a tenant id or a domain such as example.onmicrosoft.com.",
  },
  googleClientId: { label: "Google client id", help: "Ends in .apps.googleusercontent.com." },
  googleClientSecret: { label: "Google client secret", help: KEPT_SECRET },
  restrictImageHosts: { label: "Show images from other sites only when their host is listed", help: "Attachments are always shown." },
  imageAllowlist: {
    label: "Image hosts",
    help: "One host name a line, such as images.example.com; *.example.com allows its subdomains. At most {items}.",
  },
  embedAllowlist: {
    label: "Embeddable hosts",
    help: "Sites whose videos, maps or documents may be embedded, one host a line. At most {items}.",
  },
};

export interface SettingsCardDef {
  id: string;
  title: string;
  intro: string;
  keys: SettingKey[];
}

/** The screen's cards, in order, each saved on its own. */
export const SETTING_CARDS: SettingsCardDef[] = [
  { id: "general", title: "General", intro: "What the wiki is called and where people reach it.", keys: ["instanceName", "baseUrl"] },
  {
    id: "access",
    title: "Registration and public spaces",
    intro: "Who may join, and whether anyone may read public spaces. Turning either on asks for your password.",
    keys: ["allowPublicRegistration", "allowPublicSpaces"],
  },
  {
    id: "limits",
    title: "Sign-in limits and lockout",
    intro:
      "How much one address or account may try before Cairn slows it down, and which proxies are " +
      "believed about the client's address. Changing these needs the Security right.",
    keys: [
      "anonymousRateLimitPerMinute",
      "loginRateLimitPerMinute",
      "tokenMintLimitPerHour",
      "lockoutThreshold",
      "lockoutBaseSeconds",
      "lockoutMaxSeconds",
      "lockoutAccountFailures",
      "lockoutAccountAddresses",
      "lockoutAccountWindowSeconds",
      "requireTotpForAdmins",
      "trustedProxies",
    ],
  },
  {
    id: "email",
    title: "E-mail",
    intro: `The server Cairn sends mail through (invites, password resets, notifications). ${LATER_MAIL}`,
    keys: ["emailEnabled", "smtpProvider", "smtpHost", "smtpPort", "smtpTls", "smtpUsername", "smtpPassword", "smtpFromAddress"],
  },
  {
    id: "sso",
    title: "Single sign-on",
    intro: `The applications registered with Microsoft or Google. ${LATER_SSO}`,
    keys: ["microsoftClientId", "microsoftClientSecret", "microsoftTenant", "googleClientId", "googleClientSecret"],
  },
  {
    id: "media",
    title: "Images and embeds",
    intro: "Which other sites pages may show images from or embed. Widening either asks for your password.",
    keys: ["restrictImageHosts", "imageAllowlist", "embedAllowlist"],
  },
];

/** How a field is drawn: its input, from the rule's kind and format. */
export type FieldKind = "text" | "url" | "email" | "number" | "check" | "choice" | "list" | "secret";

export interface SettingField {
  key: SettingKey;
  label: string;
  kind: FieldKind;
  help: string;
  right: SettingRight;
  min?: number;
  max?: number;
  maxLength?: number;
  choices?: Array<[value: string, label: string]>;
}

const count = (n: number) => n.toLocaleString("en-US");

/** One setting as the screen shows it: its rule and its words together. */
export function settingField(key: SettingKey): SettingField {
  const rule = SETTING_RULES[key];
  const { label, help, choices } = FORM[key];
  const field: SettingField = { key, label, help, right: rule.right, kind: "text" };
  switch (rule.kind) {
    case "boolean":
      return { ...field, kind: "check" };
    case "integer":
      return {
        ...field,
        kind: "number",
        min: rule.minimum,
        max: rule.maximum,
        help: help.replace("{range}", `${count(rule.minimum)} to ${count(rule.maximum)}`),
      };
    case "choice":
      return { ...field, kind: "choice", choices: rule.values.map((v) => [v, choices?.[v] ?? v]) };
    case "list":
      return { ...field, kind: "list", help: help.replace("{items}", count(rule.maxItems)) };
    case "secret":
      return { ...field, kind: "secret", maxLength: rule.maxLength };
    case "text":
      return {
        ...field,
        kind: rule.format === "url" ? "url" : rule.format === "email" ? "email" : "text",
        maxLength: rule.maxLength,
        help: help.replace("{range}", `${rule.optional ? 0 : 1} to ${count(rule.maxLength)} characters`),
      };
  }
}
