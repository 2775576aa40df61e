/** Instance settings with their defaults (SPEC.md §8, DESIGN.md §5). */
export const SETTING_DEFAULTS = {
  instanceName: "Cairn",
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
};

export type Settings = typeof SETTING_DEFAULTS;
export type SettingKey = keyof Settings;
