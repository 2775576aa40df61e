/** Test helpers for watches and notifications. */
import { call, type TestEnv, type Who } from "../../tests/harness";

export interface Listed {
  id: string;
  action: string;
  targetType: string;
  targetId: string;
  spaceId: string | null;
  pageId: string | null;
  actorId: string | null;
  actorName: string | null;
  details: Record<string, any>;
  createdAt: string;
  readAt: string | null;
}

/** GET /api/notifications (200 expected). */
export async function inbox(env: TestEnv, who: Who, query = ""): Promise<Listed[]> {
  const res = await call(env, "GET", `/api/notifications${query}`, { as: who });
  if (res.status !== 200) throw new Error(`notifications: ${res.status} ${res.text}`);
  return res.body;
}

/** The inbox as "action targetType" strings, newest first: easy to compare. */
export async function actionsOf(env: TestEnv, who: Who): Promise<string[]> {
  return (await inbox(env, who)).map((n) => `${n.action} ${n.targetType}`);
}

export async function unread(env: TestEnv, who: Who): Promise<number> {
  const res = await call(env, "GET", "/api/notifications/unread-count", { as: who });
  if (res.status !== 200) throw new Error(`unread-count: ${res.status} ${res.text}`);
  return res.body.count;
}

export async function watch(env: TestEnv, who: Who, path: string, method: "POST" | "DELETE" = "POST") {
  const res = await call(env, method, `${path}/watch`, { as: who });
  if (res.status !== 200) throw new Error(`${method} ${path}/watch: ${res.status} ${res.text}`);
  return res.body as { watching: boolean };
}

/** A document mentioning these users (by id), as contentJson text. */
export function docMentioning(text: string, ...userIds: string[]): string {
  const mentions = userIds.flatMap((id) => [
    { type: "mention", attrs: { id, label: `user ${id.slice(-4)}` } },
    { type: "text", text: " " },
  ]);
  return JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [...mentions, { type: "text", text }] }] });
}
