/**
 * The settings screen's cards: which settings each shows, with a label, help and range for
 * each. The rules themselves are the server's (src/settings/rules.ts); a value out of range
 * comes back as a 400 naming the field and is shown under it.
 */
export type FieldKind = "text" | "url" | "email" | "number" | "check" | "choice" | "list" | "secret";

export interface FieldDef {
  key: string;
  label: string;
  kind: FieldKind;
  help: string;
  min?: number;
  max?: number;
  choices?: Array<[string, string]>;
  /** The right that changes it, when not settings.manage. */
  right?: "security.manage";
}

export interface CardDef {
  id: string;
  title: string;
  intro: string;
  fields: FieldDef[];
}

const LATER_MAIL = "Cairn stores and checks these now; it starts sending mail with a later release.";
const LATER_SSO = "Cairn stores and checks these now; signing in with Microsoft or Google arrives with a later release.";

export const CARDS: CardDef[] = [
  {
    id: "general",
    title: "General",
    intro: "What the wiki is called and where people reach it.",
    fields: [
      { key: "instanceName", label: "Instance name", kind: "text", help: "Shown in the header and on the sign-in screen. 1 to 100 characters." },
      { key: "baseUrl", label: "Base URL", kind: "url", help: "The address people open, such as https://wiki.example.com; used for links in e-mails. Leave empty to use the server's --base-url." },
    ],
  },
  {
    id: "access",
    title: "Registration and public spaces",
    intro: "Who may join, and whether anyone may read public spaces. Turning either on asks for your password.",
    fields: [
      { key: "allowPublicRegistration", label: "Anyone may create an account without an invite", kind: "check", help: "Off: people join only through an invite." },
      { key: "allowPublicSpaces", label: "Public spaces can be read without signing in", kind: "check", help: "Spaces are made public one by one; while this is off they stay readable only to the people they are shared with." },
    ],
  },
  {
    id: "limits",
    title: "Sign-in limits and lockout",
    intro: "How much one address or account may try before Cairn slows it down, and which proxies are believed about the client's address. Changing these needs the Security right.",
    fields: [
      { key: "anonymousRateLimitPerMinute", label: "Requests a minute without signing in", kind: "number", min: 1, max: 100_000, help: "Per address. 1 to 100,000.", right: "security.manage" },
      { key: "loginRateLimitPerMinute", label: "Wrong passwords a minute", kind: "number", min: 1, max: 1_000, help: "Per address, before any password is checked. 1 to 1,000.", right: "security.manage" },
      { key: "tokenMintLimitPerHour", label: "New API tokens an hour", kind: "number", min: 1, max: 1_000, help: "Per account. 1 to 1,000.", right: "security.manage" },
      { key: "lockoutThreshold", label: "Wrong passwords before a lock", kind: "number", min: 1, max: 100, help: "From one address; the account is locked for that address. 1 to 100.", right: "security.manage" },
      { key: "lockoutBaseSeconds", label: "First lock lasts (seconds)", kind: "number", min: 1, max: 86_400, help: "Each further lock doubles it. 1 to 86,400.", right: "security.manage" },
      { key: "lockoutMaxSeconds", label: "Longest lock (seconds)", kind: "number", min: 1, max: 604_800, help: "At least the first lock. 1 to 604,800 (a week).", right: "security.manage" },
      { key: "lockoutAccountFailures", label: "Wrong passwords that lock for every address", kind: "number", min: 1, max: 100_000, help: "Within the window below, from several addresses. 1 to 100,000.", right: "security.manage" },
      { key: "lockoutAccountAddresses", label: "…coming from at least this many addresses", kind: "number", min: 2, max: 1_000, help: "At least 2, so one address only ever locks itself out. 2 to 1,000.", right: "security.manage" },
      { key: "lockoutAccountWindowSeconds", label: "…within (seconds)", kind: "number", min: 60, max: 604_800, help: "60 to 604,800.", right: "security.manage" },
      { key: "requireTotpForAdmins", label: "Administrators must use two-factor sign-in", kind: "check", help: "Enforced once two-factor sign-in arrives. Turning it off asks for your password.", right: "security.manage" },
      {
        key: "trustedProxies",
        label: "Trusted proxies",
        kind: "list",
        help: "One IP address or CIDR a line (such as 10.0.0.0/8), at most 50: their X-Forwarded-For is believed. Adding one asks for your password.",
        right: "security.manage",
      },
    ],
  },
  {
    id: "email",
    title: "E-mail",
    intro: `The server Cairn sends mail through (invites, password resets, notifications). ${LATER_MAIL}`,
    fields: [
      { key: "emailEnabled", label: "Send e-mail", kind: "check", help: "Off: links are shown to administrators to pass on by hand." },
      {
        key: "smtpProvider",
        label: "Provider",
        kind: "choice",
        choices: [
          ["smtp", "SMTP server (password)"],
          ["microsoft", "Microsoft 365 (OAuth)"],
          ["google", "Google Workspace (OAuth)"],
        ],
        help: "How Cairn signs in to send mail.",
      },
      { key: "smtpHost", label: "SMTP server", kind: "text", help: "A host name such as smtp.example.com, or an IP address." },
      { key: "smtpPort", label: "Port", kind: "number", min: 1, max: 65_535, help: "1 to 65535: usually 587 with STARTTLS, 465 with TLS." },
      {
        key: "smtpTls",
        label: "Encryption",
        kind: "choice",
        choices: [
          ["starttls", "STARTTLS (usually port 587)"],
          ["tls", "TLS from the start (usually port 465)"],
          ["none", "None: only on a network you trust"],
        ],
        help: "How the connection to the server is protected.",
      },
      { key: "smtpUsername", label: "User name", kind: "text", help: "Leave empty if the server needs none." },
      { key: "smtpPassword", label: "Password", kind: "secret", help: "Never shown again once saved." },
      { key: "smtpFromAddress", label: "Send from", kind: "email", help: "The sender's address, such as wiki@example.com." },
    ],
  },
  {
    id: "sso",
    title: "Single sign-on",
    intro: `The applications registered with Microsoft or Google. ${LATER_SSO}`,
    fields: [
      { key: "microsoftClientId", label: "Microsoft application (client) id", kind: "text", help: "From the app registration in Microsoft Entra." },
      { key: "microsoftClientSecret", label: "Microsoft client secret", kind: "secret", help: "Never shown again once saved." },
      { key: "microsoftTenant", label: "Microsoft tenant", kind: "text", help: "common, organizations, consumers, a tenant id or a domain such as example.onmicrosoft.com." },
      { key: "googleClientId", label: "Google client id", kind: "text", help: "Ends in .apps.googleusercontent.com." },
      { key: "googleClientSecret", label: "Google client secret", kind: "secret", help: "Never shown again once saved." },
    ],
  },
  {
    id: "media",
    title: "Images and embeds",
    intro: "Which other sites pages may show images from or embed. Widening either asks for your password.",
    fields: [
      { key: "restrictImageHosts", label: "Show images from other sites only when their host is listed", kind: "check", help: "Attachments are always shown." },
      { key: "imageAllowlist", label: "Image hosts", kind: "list", help: "One host name a line, such as images.example.com; *.example.com allows its subdomains. At most 200." },
      { key: "embedAllowlist", label: "Embeddable hosts", kind: "list", help: "Sites whose videos, maps or documents may be embedded, one host a line. At most 200." },
    ],
  },
];
