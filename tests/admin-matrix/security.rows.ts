/** Security administration (src/security): every route needs security.manage. */
import { raiseAlert } from "../../src/security/alerts";
import { call } from "../harness";
import type { AdminRow, MatrixCtx } from "./types";

const BASE = "/api/admin/security";

/** A new open alert per call, so acknowledging or resolving one never finds it already moved. */
let alerts = 0;
async function freshAlert(c: MatrixCtx): Promise<string> {
  const subject = `address:matrix-${++alerts}`;
  c.env.core.tx(() => raiseAlert(c.env.core, "brute_force_address", subject, 2, "Matrix alert", {}));
  const open = await call(c.env, "GET", `${BASE}/alerts?status=0&take=200`, { as: c.owner });
  return open.body.find((a: { subject: string }) => a.subject === subject).id;
}

async function freshBlock(c: MatrixCtx): Promise<string> {
  const res = await call(c.env, "POST", `${BASE}/blocks`, { as: c.owner, body: { cidr: "198.51.100.0/24", reason: "matrix" } });
  if (res.status !== 201) throw new Error(`block: ${res.status} ${res.text}`);
  return res.body.id;
}

export const rows: AdminRow[] = [
  { route: `GET ${BASE}/overview`, need: "security.manage", ok: 200, path: () => `${BASE}/overview` },
  { route: `GET ${BASE}/events`, need: "security.manage", ok: 200, path: () => `${BASE}/events?kind=sign_in_failure&severity=0&take=20` },
  { route: `GET ${BASE}/alerts`, need: "security.manage", ok: 200, path: () => `${BASE}/alerts?status=0` },
  {
    route: `POST ${BASE}/alerts/:id/acknowledge`,
    need: "security.manage",
    ok: 200,
    path: async (c) => `${BASE}/alerts/${await freshAlert(c)}/acknowledge`,
    body: () => ({ note: "Looking" }),
  },
  {
    route: `POST ${BASE}/alerts/:id/resolve`,
    need: "security.manage",
    ok: 200,
    path: async (c) => `${BASE}/alerts/${await freshAlert(c)}/resolve`,
    body: () => ({}),
  },
  { route: `GET ${BASE}/blocks`, need: "security.manage", ok: 200, path: () => `${BASE}/blocks` },
  {
    route: `POST ${BASE}/blocks`,
    need: "security.manage",
    ok: 201,
    path: () => `${BASE}/blocks`,
    body: () => ({ cidr: "203.0.113.0/24", reason: "matrix", expiresInHours: 1 }),
  },
  { route: `DELETE ${BASE}/blocks/:id`, need: "security.manage", ok: 204, path: (c) => freshBlock(c).then((id) => `${BASE}/blocks/${id}`) },
  { route: `GET ${BASE}/limits`, need: "security.manage", ok: 200, path: () => `${BASE}/limits` },
];
