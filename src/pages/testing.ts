/** Test helpers for pages. */
import { call, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { newSpace } from "../spaces/testing";
export { eventsOf } from "../events/testing";
export { newSpace } from "../spaces/testing";

/** A one-paragraph document as contentJson text. */
export function doc(text: string): string {
  return JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });
}

export async function newPage(
  env: TestEnv,
  who: Who,
  spaceId: string,
  title: string,
  extra: { parentPageId?: string | null; contentJson?: string } = {},
) {
  const res = await call(env, "POST", "/api/pages", { as: who, body: { spaceId, title, ...extra } });
  if (res.status !== 201) throw new Error(`create page ${title}: ${res.status} ${res.text}`);
  return res.body as {
    id: string;
    title: string;
    spaceId: string;
    parentPageId: string | null;
    currentVersionNumber: number;
    position: number;
  };
}

export async function treeOf(env: TestEnv, who: Who, spaceId: string) {
  const res = await call(env, "GET", `/api/pages/tree?spaceId=${spaceId}`, { as: who });
  if (res.status !== 200) throw new Error(`tree: ${res.status} ${res.text}`);
  return res.body as TreeNodeLike[];
}

export interface TreeNodeLike {
  id: string;
  title: string;
  emoji: string | null;
  position: number;
  children: TreeNodeLike[];
}

/** The tree as nested titles, e.g. ["A", ["A1", "A2"], "B"] → easy to compare. */
export function titles(nodes: TreeNodeLike[]): unknown[] {
  return nodes.flatMap((n) => (n.children.length ? [n.title, titles(n.children)] : [n.title]));
}

/** The common fixture: an owner, an invited member, the space DOCS and one page in it. */
export async function ownerMemberAndPage(env: TestEnv, title = "Guide") {
  const { owner, member } = await ownerAndMember(env);
  const space = await newSpace(env, owner, "DOCS");
  const page = await newPage(env, owner, space.id, title);
  return { owner, member, space, page };
}
