/**
 * Instance settings with their defaults (docs/decisions.md, "Limits" and "Registration"; each
 * described in rules.ts beside this file). An empty string means "not set". Shared with the web UI.
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
