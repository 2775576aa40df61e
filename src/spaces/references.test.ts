/**
 * Wherever a request names a space (`spaceId` in a query or body), its key works as well as its
 * id, in any case, as in /api/spaces/{key} (docs/decisions.md, "Spaces named by key";
 * findSpaceByIdOrKey). A key names nothing more than the id would: an unknown key and a space the
 * caller may not see are both 404.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type Answer, type TestEnv, type Who } from "../../tests/harness";
import { newPage, newSpace } from "../pages/testing";

let env: TestEnv;

interface World {
  owner: Who;
  member: Who;
  eng: { id: string; key: string };
  /** A page of DOCS, to move and copy into ENG. */
  guide: { id: string };
}

/** DOCS with a page; ENG with a page, a trashed page and a template; SECRET, which the member cannot see. */
async function world(): Promise<World> {
  const { owner, member } = await ownerAndMember(env);
  const docs = await newSpace(env, owner, "DOCS");
  const eng = await newSpace(env, owner, "ENG");
  const guide = await newPage(env, owner, docs.id, "Guide");
  await newPage(env, owner, eng.id, "Runbook");
  await call(env, "DELETE", `/api/pages/${(await newPage(env, owner, eng.id, "Old")).id}`, { as: owner });
  await call(env, "POST", "/api/templates", { as: owner, body: { spaceId: eng.id, name: "Postmortem" } });
  await newSpace(env, owner, "SECRET");
  const grants = (await call(env, "GET", "/api/spaces/SECRET/permissions", { as: owner })).body as Array<{ id: string; operation: number }>;
  await call(env, "DELETE", `/api/spaces/SECRET/permissions/${grants.find((g) => g.operation === 1)!.id}`, { as: owner });
  return { owner, member, eng, guide };
}

type Endpoint = [name: string, send: (w: World, who: Who, ref: string) => Promise<Answer>, worked: (w: World, a: Answer) => void];

const ENDPOINTS: Endpoint[] = [
  [
    "POST /api/pages",
    (_w, who, ref) => call(env, "POST", "/api/pages", { as: who, body: { spaceId: ref, title: "New" } }),
    (w, a) => expect(a.body.spaceId).toBe(w.eng.id),
  ],
  [
    "POST /api/pages/draft",
    (_w, who, ref) => call(env, "POST", "/api/pages/draft", { as: who, body: { spaceId: ref } }),
    (w, a) => expect(a.body.spaceId).toBe(w.eng.id),
  ],
  [
    "GET /api/pages/tree",
    (_w, who, ref) => call(env, "GET", `/api/pages/tree?spaceId=${ref}`, { as: who }),
    (_w, a) => expect(a.body.map((n: { title: string }) => n.title)).toEqual(["Runbook"]),
  ],
  [
    "GET /api/pages/trash",
    (_w, who, ref) => call(env, "GET", `/api/pages/trash?spaceId=${ref}`, { as: who }),
    (_w, a) => expect(a.body.map((e: { title: string }) => e.title)).toEqual(["Old"]),
  ],
  [
    "PUT /api/pages/{id}/move",
    (w, who, ref) => call(env, "PUT", `/api/pages/${w.guide.id}/move`, { as: who, body: { spaceId: ref } }),
    (w, a) => expect(a.body.spaceId).toBe(w.eng.id),
  ],
  [
    "POST /api/pages/{id}/copy",
    (w, who, ref) => call(env, "POST", `/api/pages/${w.guide.id}/copy`, { as: who, body: { spaceId: ref } }),
    (w, a) => expect(a.body.spaceId).toBe(w.eng.id),
  ],
  [
    "GET /api/templates",
    (_w, who, ref) => call(env, "GET", `/api/templates?spaceId=${ref}`, { as: who }),
    (_w, a) => expect(a.body.map((t: { name: string }) => t.name)).toEqual(["Postmortem"]),
  ],
  [
    "POST /api/templates",
    (_w, who, ref) => call(env, "POST", "/api/templates", { as: who, body: { spaceId: ref, name: "Retro" } }),
    (w, a) => expect(a.body.spaceId).toBe(w.eng.id),
  ],
  [
    "GET /api/search",
    (_w, who, ref) => call(env, "GET", `/api/search?q=runbook&spaceId=${ref}`, { as: who }),
    (_w, a) => expect(a.body.map((h: { title: string }) => h.title)).toEqual(["Runbook"]),
  ],
];

// Moving the guide into ENG changes where it is, so a second move would check nothing: each of
// its cases starts from a world of its own. The others' writes (a new page, draft, copy or
// template in ENG) leave what their own cases look at as it was, so an endpoint's four cases
// share one world.
const WORLD_EACH = new Set(["PUT /api/pages/{id}/move"]);

/** Each test of the block gets a world: a fresh one, or one shared by the block. */
function worlds(fresh: boolean): () => Promise<World> {
  let shared: Promise<World> | null = null;
  if (fresh) {
    beforeEach(() => (env = makeEnv()));
    afterEach(() => env.close());
  } else {
    beforeAll(() => {
      env = makeEnv();
      shared = null;
    });
    afterAll(() => env.close());
  }
  return () => (fresh ? world() : (shared ??= world()));
}

describe("a space named by id or key", () => {
  for (const [name, send, worked] of ENDPOINTS) {
    describe(name, () => {
      const worldOf = worlds(WORLD_EACH.has(name));
      test.each(["id", "ENG", "eng", "Eng"] as const)(`${name} takes spaceId=%s`, async (ref) => {
        const w = await worldOf();
        const res = await send(w, w.member, ref === "id" ? w.eng.id : ref);
        expect(res.status).toBeLessThan(300);
        worked(w, res);
      });
    });
  }

  describe("refused", () => {
    // A 404 changes nothing, so the nine endpoints share one world.
    const worldOf = worlds(false);
    test.each(ENDPOINTS)("%s: an unknown key and a space the caller cannot see are 404 by key as by id", async (_name, send) => {
      const w = await worldOf();
      const secretId = (await call(env, "GET", "/api/spaces/SECRET", { as: w.owner })).body.id as string;
      const byId = await send(w, w.member, secretId);
      expect(byId.status).toBe(404);
      expect((await send(w, w.member, "SECRET")).text).toBe(byId.text);
      expect((await send(w, w.member, "secret")).text).toBe(byId.text);
      expect((await send(w, w.member, "NOPE")).text).toBe(byId.text);
    });
  });
});
