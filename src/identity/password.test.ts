import { expect, test } from "bun:test";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");

test("a server hashes passwords with argon2id at the real cost (19 MiB, 2 passes), not the suite's", () => {
  const module = JSON.stringify(join(root, "src", "identity", "password.ts"));
  const run = Bun.spawnSync(
    ["bun", "-e", `const { hashPassword } = await import(${module}); console.log(await hashPassword('correct horse battery staple'))`],
    { cwd: root },
  );
  expect(run.stdout.toString().trim()).toStartWith("$argon2id$v=19$m=19456,t=2,");
});

test("the common passwords the server loads are the package's list, one string (scripts/gen-common-passwords.ts)", async () => {
  const { COMMON_PASSWORDS } = await import("./common-passwords.gen");
  const { commonPasswordLines } = await import("./common-password-source");
  expect(COMMON_PASSWORDS).toBe(`\n${(await commonPasswordLines()).join("\n")}\n`);
});

test("a common password is refused whatever its case; others, and two common ones on two lines, are not", async () => {
  const { checkNewPassword } = await import("./password");
  const { COMMON_PASSWORDS } = await import("./common-passwords.gen");
  const [first, second] = COMMON_PASSWORDS.split("\n").filter((p) => p.length >= 8);
  await expect(checkNewPassword(first)).rejects.toThrow("commonly used");
  await expect(checkNewPassword("PassWord1")).rejects.toThrow("commonly used");
  await expect(checkNewPassword("correct horse battery staple")).resolves.toBeUndefined();
  await expect(checkNewPassword(`${first}\n${second}`)).resolves.toBeUndefined();
});
