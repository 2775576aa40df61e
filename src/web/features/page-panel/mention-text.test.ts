import { describe, expect, test } from "bun:test";
import { fromStored, toStored } from "./mention-text";

const ada = { id: "u-ada", name: "Ada Lovelace" };
const grace = { id: "u-grace", name: "Grace" };

describe("mentions written as names, stored as ids", () => {
  test("a picked name becomes its mention; the rest of the text is left as it is", () => {
    expect(toStored("@Ada Lovelace and @Grace, please look.", [ada, grace])).toBe(
      "@[Ada Lovelace](u-ada) and @[Grace](u-grace), please look.",
    );
  });
  test("a name typed without picking, or inside another word, stays text", () => {
    expect(toStored("@Grace and @Ada and mail@Grace.org and @Gracey", [grace])).toBe(
      "@[Grace](u-grace) and @Ada and mail@Grace.org and @Gracey",
    );
  });
  test("the longer name wins where one name begins another", () => {
    expect(toStored("@Ada Lovelace, @Ada", [{ id: "u-a", name: "Ada" }, ada])).toBe("@[Ada Lovelace](u-ada), @[Ada](u-a)");
  });
  test("names with characters a pattern would read are taken literally", () => {
    expect(toStored("hi @J. (Jo) Smith+", [{ id: "u-j", name: "J. (Jo) Smith+" }])).toBe("hi @[J. (Jo) Smith+](u-j)");
  });
  test("two people of one name are told apart by the order they were picked", () => {
    expect(
      toStored("@Sam and @Sam", [
        { id: "u-1", name: "Sam" },
        { id: "u-2", name: "Sam" },
      ]),
    ).toBe("@[Sam](u-1) and @[Sam](u-2)");
  });
  test("a stored body reads back as names and comes back the same", () => {
    const stored = "Thanks @[Ada Lovelace](u-ada)! cc @[Grace](u-grace)";
    const { text, mentioned } = fromStored(stored);
    expect(text).toBe("Thanks @Ada Lovelace! cc @Grace");
    expect(mentioned).toEqual([ada, grace]);
    expect(toStored(text, mentioned)).toBe(stored);
  });
});
