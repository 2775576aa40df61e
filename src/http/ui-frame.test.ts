/**
 * A page view's frame painted in the app's page (ui-frame.ts): only for a page address asked
 * with a session cookie and the theme the app last painted, in that theme; otherwise the page
 * as built. The frame names nothing of the caller or the page.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeEnv, type TestEnv } from "../../tests/harness";
import { frameTheme, framedPage } from "./ui-frame";

const ID = "0190b7c2-0000-7000-8000-000000000000";
const PAGE = `/s/ENG/p/${ID}-a-title`;

describe("which requests get the frame", () => {
  test("a page address with a session and a painted theme, in that theme", () => {
    expect(frameTheme(PAGE, "cairn_session=abc; cairn_theme=dark")).toBe("dark");
    expect(frameTheme(`${PAGE}/edit`, "cairn_theme=light; cairn_session=abc")).toBe("light");
  });

  test("none without a session, without a known theme, or away from a page", () => {
    expect(frameTheme(PAGE, "cairn_theme=dark")).toBeNull();
    expect(frameTheme(PAGE, "cairn_session=abc")).toBeNull();
    expect(frameTheme(PAGE, "cairn_session=abc; cairn_theme=blue")).toBeNull();
    expect(frameTheme(PAGE, "my_cairn_session=abc; cairn_theme=dark")).toBeNull();
    for (const path of ["/", "/login", "/s/ENG", "/s/ENG/trash", "/admin/people"]) expect(frameTheme(path, "cairn_session=abc; cairn_theme=dark")).toBeNull();
  });

  test("the frame goes into the root, the theme onto <html>; an unexpected page is left alone", () => {
    const html = '<!doctype html><html lang="en"><head></head><body><div id="root"></div></body></html>';
    const framed = framedPage(html, "dark")!;
    expect(framed).toContain('<html lang="en" data-theme="dark">');
    expect(framed).toMatch(/<div id="root"><div class="shell shell-with-sidebar boot-frame" aria-hidden="true" inert>/);
    expect(framedPage(html.replace('<div id="root"></div>', '<div id="app"></div>'), "dark")).toBeNull();
  });
});

describe("the app's page with its frame", () => {
  let env: TestEnv;
  beforeAll(() => {
    env = makeEnv();
  });
  afterAll(() => env.close());

  test("served framed and plain as the cookies say, gzipped or not, with the same Link header", async () => {
    const plain = await call(env, "GET", PAGE);
    const framed = await call(env, "GET", PAGE, { headers: { cookie: "cairn_session=x; cairn_theme=dark" } });
    const unzipped = await call(env, "GET", PAGE, { headers: { cookie: "cairn_session=x; cairn_theme=light", "accept-encoding": "identity" } });
    expect(plain.text).toContain('<div id="root"></div>');
    expect(plain.text).not.toContain("boot-frame");
    expect(framed.text).toContain('data-theme="dark"');
    expect(framed.text).toContain("boot-frame");
    expect(unzipped.text).toContain('data-theme="light"');
    expect(unzipped.text).toContain("boot-frame");
    // The rest of the page (its stylesheet and script) is the built one.
    expect(framed.text.replace(/<div id="root">.*<\/div>\s*<noscript/s, "").replace(' data-theme="dark"', "")).toBe(plain.text.replace(/<div id="root"><\/div>\s*<noscript/, ""));
    expect(framed.headers.get("link")).toBe(plain.headers.get("link"));
    expect(framed.headers.get("vary")).toContain("cookie");
    expect(framed.headers.get("content-security-policy")).toBe(plain.headers.get("content-security-policy"));
  });
});
