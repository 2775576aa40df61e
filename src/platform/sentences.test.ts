import { describe, expect, test } from "bun:test";
import { call, makeEnv, signUp } from "../../tests/harness";
import { invalid } from "./errors";
import { fieldSentence, fieldWords } from "./sentences";

describe("refusals read as sentences", () => {
  test("a field and a reason become one sentence, without the field name and a colon", () => {
    expect(invalid("password", "must be at least 8 characters").message).toBe("The password must be at least 8 characters.");
    expect(fieldSentence("displayName", "must not contain control characters (found U+202E)")).toBe(
      "The name must not contain control characters (found U+202E).",
    );
    expect(fieldSentence("inviteToken", "is not valid: it may have expired or been used; ask for a new invite")).toBe(
      "The invite link is not valid: it may have expired or been used; ask for a new invite.",
    );
    // A reason that is a clause of its own starts the sentence.
    expect(fieldSentence("file", "the file is empty")).toBe("The file is empty.");
    expect(fieldSentence("skipped", 'the "welcome" step cannot be skipped')).toBe('The "welcome" step cannot be skipped.');
  });

  test("names in camelCase and nested paths become words", () => {
    expect(fieldWords("keepCount")).toBe("keep count");
    expect(fieldWords("spaces.0.operation")).toBe("operation");
    expect(fieldWords("email")).toBe("e-mail address");
  });

  test("the API's problem documents say it the same way (a service's check and the schema's)", async () => {
    const env = makeEnv();
    try {
      await signUp(env, "owner@example.com");
      const schema = await call(env, "POST", "/api/auth/register", {
        body: { email: "x@example.com", displayName: "X", password: "x".repeat(2000) },
      });
      expect(schema.status).toBe(400);
      expect(schema.body.field).toBe("password");
      expect(schema.body.detail).toMatch(/^The password must be text of at most \d+ characters\.$/);
      expect(schema.body.errors.password).toBeArray();
      const short = await call(env, "POST", "/api/auth/register", {
        body: { email: "y@example.com", displayName: "Y", password: "short" },
      });
      expect(short.body).toMatchObject({
        field: "password",
        detail: "The password must be at least 8 characters.",
        errors: { password: ["must be at least 8 characters"] },
      });
    } finally {
      env.close();
    }
  });
});
