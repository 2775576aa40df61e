import { expect, test } from "bun:test";
import { phaseText } from "./follow";

test("an import waiting for the server's one turn says so, not a stalled bar", () => {
  expect(phaseText("waiting")).toBe("Waiting for another import to finish…");
  expect(phaseText("reading")).toBe("Reading the file");
});
