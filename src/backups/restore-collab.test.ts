/**
 * A restore under a real server with an editor connected: the room is closed (1012, clients
 * reconnect) when the restore begins, and the room loaded afterwards is the restored page.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { connect, makePage, makeSpace, PASSWORD, startCollabEnv, synced, type CollabEnv } from "../collab/testing";
import { takeBackup } from "./service";

let env: CollabEnv;
beforeEach(async () => (env = await startCollabEnv()));
afterEach(() => env.close());

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

test("editors are disconnected with 1012 when a restore begins, and find the restored page after it", async () => {
  const owner = await env.signUp("owner@example.com");
  const spaceId = await makeSpace(env, owner, "DOCS", []);
  const pageId = await makePage(env, owner, spaceId, "As it was in the backup");
  const label = (await takeBackup(env.server.core, "manual")).label;
  const edited = await env.api("PUT", `/api/pages/${pageId}`, owner, {
    title: "Shared page",
    baseVersion: 1,
    contentMarkdown: "Written after the backup",
  });
  expect(edited.status).toBe(200);

  const client = await connect(env, owner, pageId);
  await synced(client);
  expect(client.text()).toContain("Written after the backup");

  const started = await env.api("POST", `/api/admin/backups/${label}/restore`, owner, { confirmLabel: label, password: PASSWORD });
  expect(started.status).toBe(202);
  await until(() => client.closes.some((c) => c.code === 1012), 5000, "the room to close");
  await until(
    async () => (await env.api("GET", `/api/admin/backups/jobs/${started.body.job.id}`, owner)).body.state !== "running",
    30_000,
    "the restore",
  );
  expect((await env.api("GET", `/api/admin/backups/jobs/${started.body.job.id}`, owner)).body.state).toBe("succeeded");
  client.destroy();

  const again = await connect(env, owner, pageId);
  await synced(again);
  expect(again.text()).toContain("As it was in the backup");
  expect(again.text()).not.toContain("Written after the backup");
  again.destroy();
}, 60_000);
