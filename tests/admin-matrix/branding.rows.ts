/**
 * Branding (src/branding): reading and the accent preview need branding.manage; every change
 * also needs a recent re-authentication (docs/permissions.md). The bodies leave the world as
 * Cairn's own (the display as it is; images are uploaded and removed, which no other row reads).
 */
import { PNG } from "../../src/attachments/testing";
import type { AdminRow } from "./types";

const PATH = "/api/admin/branding";

const picture = () => {
  const fd = new FormData();
  fd.append("file", new File([PNG], "logo.png", { type: "image/png" }));
  return fd;
};

const slotRows = (slot: "logo" | "logo-dark" | "favicon"): AdminRow[] => [
  { route: `PUT ${PATH}/${slot}`, need: "branding.manage", reauth: true, ok: 200, path: () => `${PATH}/${slot}`, body: picture },
  { route: `DELETE ${PATH}/${slot}`, need: "branding.manage", reauth: true, ok: 204, path: () => `${PATH}/${slot}` },
];

export const rows: AdminRow[] = [
  { route: `GET ${PATH}`, need: "branding.manage", ok: 200, path: () => PATH },
  { route: `PUT ${PATH}`, need: "branding.manage", reauth: true, ok: 200, path: () => PATH, body: () => ({ display: "name" }) },
  {
    route: `POST ${PATH}/accent-preview`,
    need: "branding.manage",
    ok: 200,
    path: () => `${PATH}/accent-preview`,
    body: () => ({ light: "#2f6f5e", dark: "#7fc8b0" }),
  },
  { route: `POST ${PATH}/reset`, need: "branding.manage", reauth: true, ok: 200, path: () => `${PATH}/reset` },
  ...slotRows("logo"),
  ...slotRows("logo-dark"),
  ...slotRows("favicon"),
];
