/**
 * Real objects for the fuzzer to aim at, made through the public API as a user would: an
 * Owner with a session and an API token, a member, a space with a page, comment, label,
 * attachment, webhook, grant and restriction, a group and a template. A path parameter can
 * then name something that exists (and reach the code behind the look-up) as well as junk.
 * Credentials the fuzz may end (a session to sign out, a token to revoke) are spares, never
 * the ones it sends with.
 */
export const PASSWORD = "fuzz horse battery staple";

export interface Fixtures {
  cookie: string;
  token: string;
  ownerId: string;
  memberId: string;
  spaceKey: string;
  spaceId: string;
  pageId: string;
  commentId: string;
  groupId: string;
  webhookId: string;
  attachmentId: string;
  templateId: string;
  grantId: string;
  restrictionId: string;
  inviteId: string;
  label: string;
  /** Ids the fuzz may delete without losing its own way in. */
  spareSessionId: string;
  spareTokenId: string;
}

/** A well-formed id that names nothing: stands in for a fixture that could not be made. */
export const BOGUS_ID = "01900000-0000-7000-8000-000000000000";

/**
 * Only the Owner and its token are required; any other object that cannot be made is noted in
 * `problems` (a 5xx there is a finding like any other) and replaced by BOGUS_ID.
 */
export async function makeFixtures(url: string): Promise<{ fixtures: Fixtures; problems: string[] }> {
  let token = "";
  /** `as`: a session cookie, "anonymous", or (once minted) the token. */
  const call = async (method: string, path: string, body?: unknown, as?: string): Promise<{ json: any; cookie?: string }> => {
    const headers: Record<string, string> = { "x-requested-with": "Cairn" };
    if (as && as !== "anonymous") headers.cookie = `cairn_session=${as}`;
    else if (token && !as) headers.authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const res = await fetch(url + path, { method, headers, body: payload, signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} (setting up) -> ${res.status} ${text.slice(0, 200)}`);
    return { json: text ? JSON.parse(text) : null, cookie: /cairn_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1] };
  };
  const problems: string[] = [];
  const optional = async <T>(make: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await make();
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
      return undefined;
    }
  };

  const owner = await call("POST", "/api/auth/register", { email: "owner@fuzz.test", displayName: "Fuzz Owner", password: PASSWORD });
  const cookie = owner.cookie!;
  token = (await call("POST", "/api/api-tokens", { name: "fuzz" }, cookie)).json.token;
  const spareSessionId = await optional(async () => {
    const spare = await call("POST", "/api/auth/login", { email: "owner@fuzz.test", password: PASSWORD });
    const sessions = (await call("GET", "/api/auth/me/sessions", undefined, spare.cookie)).json as Array<{ id: string; current: boolean }>;
    return sessions.find((s) => s.current)!.id;
  });
  const spareTokenId = await optional(async () => (await call("POST", "/api/api-tokens", { name: "spare" }, cookie)).json.id as string);

  const memberId = await optional(async () => {
    const invite = (await call("POST", "/api/admin/invites", {})).json;
    return (
      await call(
        "POST",
        "/api/auth/register",
        { email: "member@fuzz.test", displayName: "Member", password: PASSWORD, inviteToken: invite.token },
        "anonymous",
      )
    ).json.id as string;
  });
  const inviteId = await optional(async () => (await call("POST", "/api/admin/invites", { email: "later@fuzz.test" })).json.id as string);

  const spaceId = await optional(
    async () => (await call("POST", "/api/spaces", { key: "FUZZ", name: "Fuzz", description: "A space to aim at" })).json.id as string,
  );
  const contentJson = JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Fuzz me" }] }] });
  const pageId = await optional(
    async () => (await call("POST", "/api/pages", { spaceId, title: "Target", contentJson })).json.id as string,
  );
  await optional(() => call("PUT", `/api/pages/${pageId}`, { title: "Target, edited", contentJson, baseVersion: 1 }));
  const commentId = await optional(
    async () => (await call("POST", `/api/pages/${pageId}/comments`, { body: `Hello @[Member](${memberId})` })).json.id as string,
  );
  await optional(() => call("POST", `/api/pages/${pageId}/labels`, { name: "fuzz" }));
  const attachmentId = await optional(async () => {
    const form = new FormData();
    form.append("file", new File(["plain text to aim at\n"], "notes.txt", { type: "text/plain" }));
    return (await call("POST", `/api/pages/${pageId}/attachments`, form)).json.id as string;
  });
  const groupId = await optional(
    async () => (await call("POST", "/api/groups", { name: "Fuzzers", description: "Aim here" })).json.id as string,
  );
  await optional(() => call("POST", `/api/groups/${groupId}/members`, { userId: memberId }));
  // Port 9 (discard) on loopback: nothing listens, and loopback is refused at delivery anyway.
  const webhookId = await optional(
    async () =>
      (await call("POST", "/api/spaces/FUZZ/webhooks", { url: "http://127.0.0.1:9/fuzz", events: ["page.updated"] })).json.id as string,
  );
  const templateId = await optional(
    async () => (await call("POST", "/api/templates", { spaceId, name: "Fuzz template" })).json.id as string,
  );
  const grantId = await optional(async () =>
    idOf((await call("POST", "/api/spaces/FUZZ/permissions", { principalType: 0, principalId: memberId, operation: 1 })).json),
  );
  const restrictionId = await optional(async () =>
    idOf((await call("POST", `/api/pages/${pageId}/restrictions`, { principalType: 1, principalId: groupId, operation: 1 })).json),
  );

  const fixtures: Fixtures = {
    cookie,
    token,
    ownerId: owner.json.id,
    memberId: memberId ?? BOGUS_ID,
    spaceKey: "FUZZ",
    spaceId: spaceId ?? BOGUS_ID,
    pageId: pageId ?? BOGUS_ID,
    commentId: commentId ?? BOGUS_ID,
    groupId: groupId ?? BOGUS_ID,
    webhookId: webhookId ?? BOGUS_ID,
    attachmentId: attachmentId ?? BOGUS_ID,
    templateId: templateId ?? BOGUS_ID,
    grantId: grantId ?? BOGUS_ID,
    restrictionId: restrictionId ?? BOGUS_ID,
    inviteId: inviteId ?? BOGUS_ID,
    label: "fuzz",
    spareSessionId: spareSessionId ?? BOGUS_ID,
    spareTokenId: spareTokenId ?? BOGUS_ID,
  };
  return { fixtures, problems };
}

/** Grant and restriction answers may be the row or the list it is now part of. */
function idOf(answer: any): string {
  return (Array.isArray(answer) ? answer[answer.length - 1] : answer).id;
}
