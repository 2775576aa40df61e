/**
 * Roles (src/roles): every route needs roles.manage; changing rights (permissions, reset) also
 * a recent re-authentication. Rows that change a role work on a fresh Member-tier custom role,
 * so every caller allowed (a Member-tier holder of roles.manage included) may change it.
 */
import { ROLE_ID } from "../../src/identity/rights";
import { makeRole } from "../../src/roles/testing";
import type { AdminRow, MatrixCtx } from "./types";

const BASE = "/api/admin/roles";
let made = 0;
const freshRole = (c: MatrixCtx) => makeRole(c.env.core, { name: `Matrix role ${++made}`, tier: 0 });

export const rows: AdminRow[] = [
  { route: `GET ${BASE}`, need: "roles.manage", ok: 200, path: () => BASE },
  { route: `POST ${BASE}`, need: "roles.manage", ok: 201, path: () => BASE, body: () => ({ name: `Matrix new ${++made}`, tier: 0 }) },
  { route: `POST ${BASE}/review`, need: "roles.manage", ok: 200, path: () => `${BASE}/review` },
  {
    route: `PUT ${BASE}/:roleId`,
    need: "roles.manage",
    ok: 200,
    path: (c) => `${BASE}/${freshRole(c)}`,
    body: () => ({ name: `Matrix renamed ${++made}`, description: "Renamed by the matrix" }),
  },
  { route: `DELETE ${BASE}/:roleId`, need: "roles.manage", ok: 204, path: (c) => `${BASE}/${freshRole(c)}` },
  {
    route: `PUT ${BASE}/:roleId/permissions`,
    need: "roles.manage",
    reauth: true,
    ok: 200,
    path: (c) => `${BASE}/${freshRole(c)}/permissions`,
    // A right every allowed caller holds (nobody but the owner grants what they lack).
    body: () => ({ permissions: ["roles.manage"] }),
  },
  // The User role stays at its defaults throughout, so resetting it grants nothing new.
  { route: `POST ${BASE}/:roleId/reset`, need: "roles.manage", reauth: true, ok: 200, path: () => `${BASE}/${ROLE_ID.user}/reset` },
];
