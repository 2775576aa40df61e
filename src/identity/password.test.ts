import { expect, test } from "bun:test";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");

test("a server hashes passwords with argon2id at the real cost (19 MiB, 2 passes), not the suite's", () => {
  const module = JSON.stringify(join(root, "src", "identity", "password.ts"));
  const run = Bun.spawnSync(["bun", "-e", `const { hashPassword } = await import(${module}); console.log(await hashPassword('correct horse battery staple'))`], { cwd: root });
  expect(run.stdout.toString().trim()).toStartWith("$argon2id$v=19$m=19456,t=2,");
});
