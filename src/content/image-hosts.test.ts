import { describe, expect, test } from "bun:test";
import { imageShown, imageSources, type ImageHostPolicy } from "./image-hosts";

const open: ImageHostPolicy = { restricted: false, hosts: [] };
const listed: ImageHostPolicy = { restricted: true, hosts: ["img.shields.io", "*.example.com"] };
const none: ImageHostPolicy = { restricted: true, hosts: [] };

describe("images from other sites", () => {
  test.each([
    ["/api/attachments/a/view", open, true],
    ["/api/attachments/a/view", listed, true],
    ["https://img.shields.io/badge/x.svg", open, true],
    ["https://img.shields.io/badge/x.svg", listed, true],
    ["https://cdn.example.com/a.png", listed, true],
    ["https://example.com/a.png", listed, false],
    ["https://evil.com/a.png", listed, false],
    ["https://notexample.com/a.png", listed, false],
    ["http://img.shields.io/badge/x.svg", open, false],
    ["//img.shields.io/badge/x.svg", open, false],
    ["https://img.shields.io/x", none, false],
  ] as Array<[string, ImageHostPolicy, boolean]>)("%s (%o): %p", (src, policy, shown) => {
    expect(imageShown(src, policy)).toBe(shown);
  });

  test("the policy header lets through exactly what the renderer shows", () => {
    expect(imageSources(open)).toBe("'self' data: blob: https:");
    expect(imageSources(listed)).toBe("'self' data: blob: https://img.shields.io https://*.example.com");
    expect(imageSources({ restricted: true, hosts: [] })).toBe("'self' data: blob:");
    // An entry that is no host name (edited into the database by hand) never reaches the header.
    expect(imageSources({ restricted: true, hosts: ["a.com; script-src *"] })).toBe("'self' data: blob:");
  });
});
