/**
 * The first-run owner form on a server listening on 0.0.0.0 (docs/decisions.md, "The setup code"):
 * it asks for the setup code from the server's log, refuses a missing or wrong one beside the
 * field, and takes the right one. On 127.0.0.1 the field is not there. Checked with axe and
 * photographed in the four looks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkLooks, PASSWORD, startCairn, visit, type RunningCairn } from "./harness";

let open: RunningCairn;
let local: RunningCairn;

beforeAll(async () => {
  const served = await startCairn(["--host", "0.0.0.0"]);
  // Browsers refuse to navigate to 0.0.0.0: the same server, reached through loopback.
  open = { ...served, url: served.url.replace("0.0.0.0", "127.0.0.1") };
  local = await startCairn();
}, 300_000);
afterAll(async () => {
  await open?.stop();
  await local?.stop();
});

describe("the owner form asks for the setup code", () => {
  test("in the four looks: the field with its hint, no axe violation", async () => {
    // Loaded once; its looks gone through in place (checkLooks).
    const v = await visit(open);
    try {
      await v.page.goto("/");
      await v.page.waitForURL(/\/setup$/);
      await v.page.getByLabel("Setup code").waitFor();
      await v.page.getByText("To see it again, run cairn setup-code on the server.").waitFor();
      expect(await checkLooks(v.page, "setup-code")).toEqual({});
      expect(v.foreign).toEqual([]);
      expect(v.errors).toEqual([]);
    } finally {
      await v.close();
    }
  }, 60_000);

  test("missing, then wrong: the error stands beside the field; the code from the log makes the owner", async () => {
    const v = await visit(open);
    const { page } = v;
    try {
      await page.goto("/setup");
      await page.getByLabel("Your name").fill("Olive Owner");
      await page.getByLabel("E-mail").fill("owner@example.com");
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      // By keyboard: Enter in the last field submits.
      await page.getByLabel("Setup code").press("Enter");
      const field = page.getByLabel("Setup code");
      await page.getByText("The setup code is required: this server can be reached from other machines").waitFor();
      expect(await field.getAttribute("aria-invalid")).toBe("true");
      await field.fill("2222-3333-4444");
      await page.getByRole("button", { name: "Create the owner account" }).click();
      await page.getByText("That is not the setup code.").waitFor();
      expect(await checkLooks(page, "setup-code-wrong")).toEqual({});

      const code = readFileSync(join(open.dataDir, "setup-code"), "utf8").trim();
      await field.fill(code);
      await page.getByRole("button", { name: "Create the owner account" }).click();
      await page.waitForURL((url) => url.pathname.startsWith("/welcome"));
    } finally {
      await v.close();
    }
  }, 60_000);

  test("on 127.0.0.1 the form has no setup code field", async () => {
    const v = await visit(local);
    try {
      await v.page.goto("/setup");
      await v.page.getByLabel("Your name").waitFor();
      expect(await v.page.getByLabel("Setup code").count()).toBe(0);
    } finally {
      await v.close();
    }
  }, 30_000);
});
