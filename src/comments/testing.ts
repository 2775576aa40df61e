/** Test helpers for comments. */
import { call, signUp, type TestEnv, type Who } from "../../tests/harness";

export async function invited(env: TestEnv, owner: Who, email: string) {
  const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
  return signUp(env, email, { inviteToken: invite.body.token });
}

export async function comment(env: TestEnv, who: Who, pageId: string, body: Record<string, unknown>) {
  const res = await call(env, "POST", `/api/pages/${pageId}/comments`, { as: who, body });
  if (res.status !== 201) throw new Error(`comment: ${res.status} ${res.text}`);
  return res.body as { id: string; body: string; parentCommentId: string | null; authorId: string | null };
}

export async function commentsOf(env: TestEnv, who: Who, pageId: string) {
  const res = await call(env, "GET", `/api/pages/${pageId}/comments`, { as: who });
  if (res.status !== 200) throw new Error(`comments: ${res.status} ${res.text}`);
  return res.body as Array<Record<string, any>>;
}

export const commentRows = (env: TestEnv) => (env.core.sqlite.query("SELECT count(*) AS n FROM comments").get() as { n: number }).n;
