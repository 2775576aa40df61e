import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { doc, newPage, newSpace } from "../pages/testing";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };
let spaceId: string;
beforeEach(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
  spaceId = (await newSpace(env, owner, "ENG", "Engineering")).id;
});
afterEach(() => env.close());

const page = async (title: string, body: string, space = spaceId) =>
  (await newPage(env, owner, space, title, { contentJson: doc(body) })).id;
const find = async (q: string, who: Who = owner) => {
  const res = await call(env, "GET", `/api/search?q=${encodeURIComponent(q)}`, { as: who });
  expect(res.status).toBe(200);
  return res.body as Array<{ pageId: string; title: string; snippet: string }>;
};
const ids = async (q: string, who: Who = owner) => (await find(q, who)).map((h) => h.pageId);

describe("GET /api/search with mistyped words", () => {
  test("finds the word meant, and highlights the word the page has", async () => {
    const billing = await page("Billing FAQ", "Questions about billing and refunds.");
    const invoices = await page("Accounts", "Send the invoices monthly.");
    const postgres = await page("Database", "We run Postgres 16 in production.");
    expect(await find("biling")).toEqual([
      expect.objectContaining({ pageId: billing, snippet: "Questions about **billing** and refunds." }),
    ]);
    expect(await find("invoces")).toEqual([expect.objectContaining({ pageId: invoices, snippet: "Send the **invoices** monthly." })]);
    expect(await find("postgress")).toEqual([
      expect.objectContaining({ pageId: postgres, snippet: "We run **Postgres** 16 in production." }),
    ]);
  });

  test("a near-spelling hit says what it matched instead (spelledAs); a match as typed says nothing", async () => {
    await page("Billing FAQ", "Questions about billing and refunds.");
    const acc = await page("Travel", "Book accommodation early, with refunds.");
    expect((await find("biling")).map((h) => (h as { spelledAs?: string }).spelledAs)).toEqual(["billing"]);
    // Words as typed stay; only the corrected one changes; two edits find the page's own word.
    const [hit] = await find("acomodation refunds");
    expect(hit).toEqual(expect.objectContaining({ pageId: acc, spelledAs: "accommodation refunds" }));
    expect(await find("billing")).toEqual([expect.not.objectContaining({ spelledAs: expect.anything() })]);
    // A word only in the title counts too.
    await page("Kubernetes notes", "About pods.");
    expect((await find("kubernetis")).map((h) => (h as { spelledAs?: string }).spelledAs)).toEqual(["kubernetes"]);
  });

  test("one edit for words of 4 to 7 letters, two from 8 letters, none for shorter words", async () => {
    const bill = await page("Rota", "who pays the bill");
    const acc = await page("Travel", "Book accommodation early.");
    expect(await ids("bils")).toEqual([bill]); // 4 letters, one edit
    expect(await ids("bll")).toEqual([]); // 3 letters: never corrected
    expect(await ids("bxlx")).toEqual([]); // 4 letters, two edits
    expect(await ids("acomodation")).toEqual([acc]); // 11 letters, two edits
    expect((await find("acomodation"))[0].snippet).toBe("Book **accommodation** early.");
    expect(await ids("axxomodation")).toEqual([]); // three edits
  });

  test("near spellings rank below every match of the word as typed", async () => {
    const near = await page("Postgres", "Postgres tuning.");
    const typed = await page("Notes", "someone wrote postgress here");
    expect(await ids("postgress")).toEqual([typed, near]);
  });

  test("are tried only when the words as typed find fewer than 5 pages", async () => {
    await page("Postgres", "Postgres tuning.");
    for (let i = 0; i < 4; i++) await page(`Typo ${i}`, "postgress");
    expect(await ids("postgress")).toHaveLength(5);
    await page("Typo 4", "postgress");
    expect((await find("postgress")).map((h) => h.title).sort()).toEqual(["Typo 0", "Typo 1", "Typo 2", "Typo 3", "Typo 4"]);
  });

  test("every other word, phrase and exclusion of the query still applies", async () => {
    const both = await page("Replicas", "postgres replica lag");
    await page("Only postgres", "postgres alone");
    const mysql = await page("Mixed", "postgres replica and mysql");
    expect((await ids("postgress replica")).sort()).toEqual([both, mysql].sort());
    expect(await ids("postgress replica -mysql")).toEqual([both]);
    expect(await ids('postgress "replica lag"')).toEqual([both]);
  });

  test("never find a page the caller cannot read", async () => {
    const open = await page("Open", "postgres for everyone");
    const hidden = await page("Hidden", "postgres secrets");
    const restricted = await call(env, "POST", `/api/pages/${hidden}/restrictions`, {
      as: owner,
      body: { principalType: 0, principalId: owner.id, operation: 0 },
    });
    expect(restricted.status).toBe(201);
    const closedSpace = (await newSpace(env, owner, "HR")).id;
    const closed = await page("Closed", "postgres salaries", closedSpace);
    expect(
      (await call(env, "DELETE", "/api/spaces/HR/permissions", { as: owner, body: { password: "correct horse battery staple" } })).status,
    ).toBeLessThan(300);
    expect(await ids("postgress", member)).toEqual([open]);
    expect(await ids("postgress secrets", member)).toEqual([]);
    expect((await ids("postgress")).sort()).toEqual([open, hidden, closed].sort());
  });

  test("follow words added and removed after the vocabulary was first read", async () => {
    expect(await ids("kubernetis")).toEqual([]); // reads the vocabulary
    const id = await page("Cluster", "kubernetes upgrade notes");
    expect(await ids("kubernetis")).toEqual([id]);
    expect(
      (await call(env, "PUT", `/api/pages/${id}`, { as: owner, body: { title: "Cluster", contentJson: doc("nomad upgrade notes") } }))
        .status,
    ).toBe(200);
    expect(await ids("kubernetis")).toEqual([]);
    expect(await ids("nomda")).toEqual([id]);
  });
});
