/**
 * The UI's types of the API are generated from the server's OpenAPI document; a route or
 * schema changed without regenerating them fails here (`bun scripts/gen-api-types.ts`).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { apiTypesSource, SCHEMA_FILE } from "../../../scripts/gen-api-types";

test("src/web/api/schema.d.ts matches the API as it is", async () => {
  const current = readFileSync(SCHEMA_FILE, "utf8");
  const fresh = await apiTypesSource();
  if (current !== fresh) throw new Error("src/web/api/schema.d.ts is stale: run `bun scripts/gen-api-types.ts` and commit it");
  expect(current).toBe(fresh);
});
