/** The built-in templates are documents the server accepts as they are (no normalising away). */
import { describe, expect, test } from "bun:test";
import { checkContentJson } from "../../../content/validate";
import { BUILTIN_TEMPLATES } from "./builtin-templates";

describe("built-in templates", () => {
  test("meeting notes, how-to, decision record and runbook, each a valid page document", () => {
    expect(BUILTIN_TEMPLATES.map((t) => t.name)).toEqual(["Meeting notes", "How-to", "Decision record", "Runbook"]);
    for (const t of BUILTIN_TEMPLATES) {
      const checked = checkContentJson(JSON.stringify(t.doc));
      expect(JSON.parse(checked.json)).toEqual(JSON.parse(JSON.stringify(t.doc)));
      expect(t.description.length).toBeGreaterThan(20);
    }
  });
});
