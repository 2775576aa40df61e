/**
 * Instance settings (src/settings): reading needs settings.manage; each setting changed needs
 * its own right (settings.manage, or security.manage for limits and sign-in policy), and one
 * that widens access a recent re-authentication. The bodies send values that leave the world
 * as it was (the defaults, or the name as it is).
 */
import type { AdminRow } from "./types";

const PATH = "/api/admin/settings";

export const rows: AdminRow[] = [
  { route: `GET ${PATH}`, need: "settings.manage", ok: 200, path: () => PATH },
  {
    route: `PUT ${PATH}`,
    note: "the name (settings.manage)",
    need: "settings.manage",
    ok: 200,
    path: () => PATH,
    body: () => ({ instanceName: "Cairn", smtpPort: 587 }),
  },
  {
    route: `PUT ${PATH}`,
    note: "a lockout figure (security.manage)",
    need: "security.manage",
    ok: 200,
    path: () => PATH,
    body: () => ({ lockoutThreshold: 5 }),
  },
  // Widening by what is sent: the image restriction off (its default), two-factor for administrators off (its default).
  {
    route: `PUT ${PATH}`,
    note: "image restriction off (settings.manage, widens)",
    need: "settings.manage",
    reauth: true,
    ok: 200,
    path: () => PATH,
    body: () => ({ restrictImageHosts: false }),
  },
  {
    route: `PUT ${PATH}`,
    note: "admin two-factor off (security.manage, widens)",
    need: "security.manage",
    reauth: true,
    ok: 200,
    path: () => PATH,
    body: () => ({ requireTotpForAdmins: false }),
  },
];
