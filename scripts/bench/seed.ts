/**
 * Seeds a fresh instance through its public HTTP API, as a user would: registers the Owner
 * (keeping the session cookie) and mints the API token the scenarios load with.
 */
import type { BenchContext } from "./scenarios";

export const OWNER = { email: "bench-owner@example.com", displayName: "Bench Owner", password: "bench horse battery staple" };
const TIMEOUT_MS = 15_000;

async function expectOk(res: Response, what: string): Promise<any> {
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`${what}: ${res.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** `ownerExists`: the data directory was seeded beforehand (seed-pages.ts), so sign in instead. */
export async function seedContext(baseUrl: string, quick: boolean, ownerExists = false): Promise<BenchContext> {
  const registered = await fetch(`${baseUrl}/api/auth/${ownerExists ? "login" : "register"}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
    body: JSON.stringify(ownerExists ? { email: OWNER.email, password: OWNER.password } : OWNER),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const cookie = /cairn_session=([^;]*)/.exec(registered.headers.get("set-cookie") ?? "")?.[1];
  await expectOk(registered, "register owner");
  if (!cookie) throw new Error("register owner: no session cookie in the answer");

  const minted = await expectOk(
    await fetch(`${baseUrl}/api/api-tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-requested-with": "Cairn", cookie: `cairn_session=${cookie}` },
      body: JSON.stringify({ name: "bench" }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }),
    "mint token",
  );
  const token: string = minted.token;
  const auth = () => ({ authorization: `Bearer ${token}` });

  return {
    baseUrl,
    token,
    cookie,
    quick,
    auth,
    shared: {},
    async api(method, path, body) {
      const headers: Record<string, string> = auth();
      if (body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      return expectOk(res, `${method} ${path}`);
    },
  };
}
