/** The settings and their defaults live in src/shared/settings/defaults.ts, shared with the web UI. */
export { SETTING_DEFAULTS, type SettingKey, type Settings } from "../shared/settings/defaults";
