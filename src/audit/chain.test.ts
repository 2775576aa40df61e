import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { call, makeEnv, signUp, type TestEnv } from "../../tests/harness";
import { recordEvent } from "../events/outbox";
import { canonicalJson, entryHash, GENESIS_HASH } from "./chain";
import { auditRows, tamper } from "./testing";

let env: TestEnv;
let owner: { id: string; cookie: string };
beforeEach(async () => {
  env = makeEnv();
  owner = await signUp(env, "owner@example.com"); // entry 1: user.registered
});
afterEach(() => env.close());

/** Appends n entries (2, 3, …), each in its own transaction as real changes are. */
function seed(n: number, oneTransaction = false) {
  const write = (i: number) =>
    recordEvent(env.core, {
      type: "group.created",
      targetType: "group",
      targetId: `g${i}`,
      spaceId: null,
      actorId: owner.id,
      ip: "10.0.0.1",
      data: { name: `Group ${i}` },
    });
  if (oneTransaction) env.core.tx(() => Array.from({ length: n }, (_, i) => write(i)));
  else for (let i = 0; i < n; i++) env.core.tx(() => write(i));
}

const verify = async () => {
  const res = await call(env, "POST", "/api/admin/audit/verify", { as: owner });
  expect(res.status).toBe(200);
  return res.body;
};

const COLUMNS = "id, action, target_type, target_id, space_id, actor_id, actor_name, ip, details, created_at, prev_hash, hash";

describe("the chain", () => {
  test("an untouched log verifies, reporting the last entry to keep outside Cairn", async () => {
    seed(9);
    const rows = auditRows(env);
    expect(rows.map((r) => r.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await verify()).toEqual({
      ok: true,
      checked: 10,
      brokenAtSequence: null,
      problem: null,
      lastSequence: 10,
      lastHash: rows[9].hash,
    });
  });

  test("each hash is SHA-256 of the previous hash and the documented canonical entry", () => {
    seed(2);
    const rows = auditRows(env);
    expect(rows[0].prevHash).toBe(GENESIS_HASH);
    for (const [i, r] of rows.entries()) {
      if (i > 0) expect(r.prevHash).toBe(rows[i - 1].hash);
      const fields = [r.sequence, r.id, r.action, r.targetType, r.targetId, r.spaceId, r.actorId, r.actorName, r.ip, r.createdAt];
      const canonical = `[${fields.map((v) => JSON.stringify(v)).join(",")},${r.details}]`;
      expect(r.hash).toBe(
        createHash("sha256")
          .update(r.prevHash + canonical)
          .digest("hex"),
      );
    }
    expect(rows[1].details).toBe('{"name":"Group 0"}');
    expect(canonicalJson({ b: 1, a: [{ d: null, c: "x" }], u: undefined })).toBe('{"a":[{"c":"x","d":null}],"b":1}');
  });

  test("the database refuses to change or remove an entry", () => {
    seed(2);
    const before = auditRows(env);
    const db = env.core.sqlite;
    expect(() => db.exec("UPDATE audit_log SET ip = '6.6.6.6' WHERE sequence = 2")).toThrow(/append-only/);
    expect(() => db.exec("DELETE FROM audit_log WHERE sequence = 2")).toThrow(/append-only/);
    expect(() => db.exec("DELETE FROM audit_log")).toThrow(/append-only/);
    expect(auditRows(env)).toEqual(before);
  });

  test("verification walks past its batch size and finds a break beyond it", async () => {
    seed(1100, true);
    expect(await verify()).toMatchObject({ ok: true, checked: 1101 });
    tamper(env, "UPDATE audit_log SET ip = '6.6.6.6' WHERE sequence = 1050");
    expect(await verify()).toMatchObject({ ok: false, checked: 1049, brokenAtSequence: 1050 });
  });
});

describe("tampering underneath is reported at the right entry", () => {
  const altered = [
    ["action", "'group.deleted'"],
    ["target_type", "'user'"],
    ["target_id", "'someone-else'"],
    ["space_id", "'a-space'"],
    ["actor_id", "NULL"],
    ["actor_name", "'Mallory'"],
    ["ip", "'6.6.6.6'"],
    ["details", `'{"name":"Other"}'`],
    ["created_at", "'2001-01-01T00:00:00.000Z'"],
    ["id", "'forged-id'"],
  ] as const;
  for (const [column, value] of altered) {
    test(`${column} altered`, async () => {
      seed(6);
      tamper(env, `UPDATE audit_log SET ${column} = ${value} WHERE sequence = 4`);
      expect(await verify()).toMatchObject({
        ok: false,
        checked: 3,
        brokenAtSequence: 4,
        problem: "Entry 4 was altered: its hash does not match its contents.",
        lastSequence: 3,
      });
    });
  }

  test("details edited into something that is not JSON are listed, not a 500", async () => {
    seed(2);
    tamper(env, "UPDATE audit_log SET details = 'not json' WHERE sequence = 2");
    const list = await call(env, "GET", "/api/audit", { as: owner });
    expect(list.status).toBe(200);
    expect(list.body.find((e: any) => e.sequence === 2).details).toEqual({ unreadable: "not json" });
    expect(await verify()).toMatchObject({ ok: false, brokenAtSequence: 2 });
  });

  test("an entry altered and re-hashed breaks the link to the next one", async () => {
    seed(6);
    const row = auditRows(env)[3];
    const forged = { ...row, ip: "6.6.6.6" };
    tamper(env, `UPDATE audit_log SET ip = '6.6.6.6', hash = '${entryHash(row.prevHash, forged)}' WHERE sequence = 4`);
    expect(await verify()).toMatchObject({
      ok: false,
      checked: 4,
      brokenAtSequence: 5,
      problem: expect.stringContaining("Entry 5 does not follow entry 4"),
    });
  });

  test("an entry deleted from the middle", async () => {
    seed(6);
    tamper(env, "DELETE FROM audit_log WHERE sequence = 4");
    expect(await verify()).toMatchObject({
      ok: false,
      checked: 3,
      brokenAtSequence: 4,
      problem: "Entry 4 is missing: entry 5 comes next.",
    });
  });

  test("the first entry deleted", async () => {
    seed(3);
    tamper(env, "DELETE FROM audit_log WHERE sequence = 1");
    expect(await verify()).toMatchObject({
      ok: false,
      checked: 0,
      brokenAtSequence: 1,
      problem: "Entry 1 is missing: entry 2 comes next.",
    });
  });

  test("entries cut off the end", async () => {
    seed(6);
    tamper(env, "DELETE FROM audit_log WHERE sequence >= 6");
    expect(await verify()).toMatchObject({
      ok: false,
      checked: 5,
      brokenAtSequence: 6,
      problem: "Entries 6 to 7 are missing from the end of the log.",
    });
  });

  test("entries deleted and the rest renumbered", async () => {
    seed(6);
    tamper(env, "DELETE FROM audit_log WHERE sequence = 3; UPDATE audit_log SET sequence = sequence - 1 WHERE sequence > 3;");
    expect(await verify()).toMatchObject({
      ok: false,
      checked: 2,
      brokenAtSequence: 3,
      problem: expect.stringContaining("Entry 3 does not follow entry 2"),
    });
  });

  test("two entries swapped", async () => {
    seed(6);
    tamper(
      env,
      `CREATE TEMP TABLE swap AS SELECT sequence, ${COLUMNS} FROM audit_log WHERE sequence IN (3, 6);
       UPDATE audit_log SET ` +
        `id = 'moving-' || id WHERE sequence IN (3, 6);
       UPDATE audit_log SET (${COLUMNS}) = (SELECT ${COLUMNS} FROM swap ` +
        `WHERE swap.sequence = CASE audit_log.sequence WHEN 3 THEN 6 ELSE 3 END) WHERE sequence IN (3, 6);
       DROP TABLE swap;`,
    );
    const rows = auditRows(env);
    expect(rows[2].targetId).toBe("g4"); // the swap really happened
    expect(await verify()).toMatchObject({
      ok: false,
      checked: 2,
      brokenAtSequence: 3,
      problem: expect.stringContaining("Entry 3 does not follow entry 2"),
    });
  });

  test("a forged entry appended with a made-up hash", async () => {
    seed(3);
    const last = auditRows(env).at(-1)!;
    tamper(
      env,
      `INSERT INTO audit_log (sequence, ${COLUMNS}) VALUES (5, 'forged', 'token.revoked', 'token', 't', NULL, ` +
        `NULL, NULL, NULL, '{}', '${last.createdAt}', '${last.hash}', '${"f".repeat(64)}')`,
    );
    expect(await verify()).toMatchObject({
      ok: false,
      checked: 4,
      brokenAtSequence: 5,
      problem: "Entry 5 was altered: its hash does not match its contents.",
    });
  });

  test("a forged entry with a consistent hash that does not link to the chain", async () => {
    seed(3);
    const forged = {
      sequence: 5,
      id: "forged",
      action: "token.revoked",
      targetType: "token",
      targetId: "t",
      spaceId: null,
      actorId: null,
      actorName: null,
      ip: null,
      createdAt: "2030-01-01T00:00:00.000Z",
      details: "{}",
    };
    const hash = entryHash(GENESIS_HASH, forged);
    tamper(
      env,
      `INSERT INTO audit_log (sequence, ${COLUMNS}) VALUES (5, 'forged', 'token.revoked', 'token', 't', ` +
        `NULL, NULL, NULL, NULL, '{}', '${forged.createdAt}', '${GENESIS_HASH}', '${hash}')`,
    );
    expect(await verify()).toMatchObject({
      ok: false,
      checked: 4,
      brokenAtSequence: 5,
      problem: expect.stringContaining("Entry 5 does not follow entry 4"),
    });
  });

  test("appending goes on after a tampered entry, and the break stays reported", async () => {
    seed(3);
    tamper(env, "UPDATE audit_log SET ip = '6.6.6.6' WHERE sequence = 2");
    seed(2);
    expect(auditRows(env).map((r) => r.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await verify()).toMatchObject({ ok: false, brokenAtSequence: 2 });
  });
});
