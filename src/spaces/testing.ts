/** Test helpers for spaces (used by the spaces and pages tests). */
import { call, type TestEnv, type Who } from "../../tests/harness";
export { eventsOf } from "../events/testing";

export async function newSpace(env: TestEnv, who: Who, key: string, name = key) {
  const res = await call(env, "POST", "/api/spaces", { as: who, body: { key, name } });
  if (res.status !== 201) throw new Error(`create space ${key}: ${res.status} ${res.text}`);
  return res.body as { id: string; key: string; name: string };
}
