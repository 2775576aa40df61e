/** Test helpers for security administration: requests from a given client address. */
import { BASE, PASSWORD, type Answer, type CallOptions, type TestEnv } from "../../tests/harness";
import { dispatchEvents } from "../events/outbox";

/** call() as if the request came in on a socket from `ip` (the in-process default has no address). */
export async function callFrom(env: TestEnv, ip: string, method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.as?.cookie) headers.cookie = `cairn_session=${opts.as.cookie}`;
  if (opts.as?.token) headers.authorization = `Bearer ${opts.as.token}`;
  if (method !== "GET" && !opts.noCsrfHeader) headers["x-requested-with"] ??= "Cairn";
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await env.handle(new Request(BASE + path, { method, headers, body }), ip);
  const text = await res.text();
  let parsed: any = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A wrong-password sign-in from `ip`; answers its status (401, or 429 once locked or limited). */
export async function wrongPassword(env: TestEnv, ip: string, email: string): Promise<number> {
  const res = await callFrom(env, ip, "POST", "/api/auth/login", { body: { email, password: `not ${PASSWORD}` } });
  return res.status;
}

/** Runs the outbox consumers now (detectors run after commit, on a microtask). */
export async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 0));
}

export { dispatchEvents };
