/** Avatars (/api/media/avatars/*). Space icons take a space: their rows are in tests/access-matrix.test.ts. */
import { PNG } from "../../src/attachments/testing";
import { call } from "../harness";
import type { AdminRow, MatrixCtx } from "./types";

const picture = () => {
  const fd = new FormData();
  fd.append("file", new File([PNG], "me.png", { type: "image/png" }));
  return fd;
};

// The owner's avatar, uploaded once per world, for the GET row.
const uploaded = new WeakMap<object, Promise<void>>();
function ownerAvatar(c: MatrixCtx): Promise<void> {
  let done = uploaded.get(c.env);
  if (!done) {
    done = call(c.env, "PUT", "/api/media/avatars/me", { as: c.owner, body: picture() }).then((res) => {
      if (res.status !== 200) throw new Error(`owner's avatar: ${res.status} ${res.text}`);
    });
    uploaded.set(c.env, done);
  }
  return done;
}

export const rows: AdminRow[] = [
  {
    route: "GET /api/media/avatars/:userId",
    need: "signedIn",
    ok: 200,
    path: async (c) => {
      await ownerAvatar(c);
      return `/api/media/avatars/${c.ids.owner}`;
    },
  },
  { route: "PUT /api/media/avatars/me", need: "signedIn", sessionOnly: true, ok: 200, path: () => "/api/media/avatars/me", body: picture },
  { route: "DELETE /api/media/avatars/me", need: "signedIn", sessionOnly: true, ok: 204, path: () => "/api/media/avatars/me" },
  {
    route: "PUT /api/media/avatars/me/variant",
    need: "signedIn",
    sessionOnly: true,
    ok: 200,
    path: () => "/api/media/avatars/me/variant",
    body: () => ({ variant: 3 }),
  },
];
