import { expect, test } from "bun:test";
import { packText, unpackText } from "./packed-text";

test("a long text is stored as a smaller zstd frame and read back exactly; a short one as itself", () => {
  const long = JSON.stringify({
    type: "doc",
    content: Array.from({ length: 60 }, (_, i) => ({
      type: "paragraph",
      content: [{ type: "text", text: `Ünïcödé line ${i} — 日本語 🙂` }],
    })),
  });
  const packed = packText(long);
  expect(packed).toBeInstanceOf(Uint8Array);
  expect((packed as Uint8Array).length).toBeLessThan(Buffer.byteLength(long) / 3);
  expect(unpackText(packed)).toBe(long);
  expect(packText("short")).toBe("short");
  expect(unpackText("stored before packing")).toBe("stored before packing");
});
