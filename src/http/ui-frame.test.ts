/**
 * A page view's frame painted in the app's page (ui-frame.ts): only for a page address asked
 * with a session cookie and the theme the app last painted, in that theme; otherwise the page
 * as built. The frame names nothing of the caller or the page.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, signUp, type TestEnv } from "../../tests/harness";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { everythingDocument, windowWhileTesting } from "../content/testing";
import { DocumentView } from "../web/features/page/render/DocumentView";
import { frameTheme, framedPage, pageMain } from "./ui-frame";

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
    for (const path of ["/", "/login", "/s/ENG", "/s/ENG/trash", "/admin/people"])
      expect(frameTheme(path, "cairn_session=abc; cairn_theme=dark")).toBeNull();
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
    const unzipped = await call(env, "GET", PAGE, {
      headers: { cookie: "cairn_session=x; cairn_theme=light", "accept-encoding": "identity" },
    });
    expect(plain.text).toContain('<div id="root"></div>');
    expect(plain.text).not.toContain("boot-frame");
    expect(framed.text).toContain('data-theme="dark"');
    expect(framed.text).toContain("boot-frame");
    expect(unzipped.text).toContain('data-theme="light"');
    expect(unzipped.text).toContain("boot-frame");
    // The rest of the page (its stylesheet and script) is the built one.
    expect(framed.text.replace(/<div id="root">.*<\/div>\s*<noscript/s, "").replace(' data-theme="dark"', "")).toBe(
      plain.text.replace(/<div id="root"><\/div>\s*<noscript/, ""),
    );
    expect(framed.headers.get("link")).toBe(plain.headers.get("link"));
    expect(framed.headers.get("vary")).toContain("cookie");
    expect(framed.headers.get("content-security-policy")).toBe(plain.headers.get("content-security-policy"));
  });
});

describe("a page view's frame carrying the page", () => {
  let env: TestEnv;
  let owner: Awaited<ReturnType<typeof ownerAndMember>>["owner"];
  let member: Awaited<ReturnType<typeof ownerAndMember>>["member"];
  const ids: Record<string, string> = {};
  const HOSTILE_TITLE = `<script>alert(1)</script>" onmouseover="x' <img src=x onerror=alert(2)>`;
  const HOSTILE_TEXT = `</div></main><script>alert(3)</script><style>body{display:none}</style>"'&`;
  const view = (who: { cookie: string } | null, path: string, theme = "light", extra: Record<string, string> = {}) =>
    call(env, "GET", path, { headers: { cookie: `${who ? `cairn_session=${who.cookie}; ` : ""}cairn_theme=${theme}`, ...extra } });

  beforeAll(async () => {
    env = makeEnv();
    ({ owner, member } = await ownerAndMember(env));
    const eng = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "ENG", name: "Engineering" } });
    const ops = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "OPS", name: "Operations" } });
    const doc = (t: string) => JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: t }] }] });
    for (const [name, title, text] of [
      ["open", "Runbook", "Restart the queue"],
      ["hostile", HOSTILE_TITLE, HOSTILE_TEXT],
      ["secret", "Salaries", "Ada earns"],
      ["trashed", "Old plan", "Gone soon"],
    ]) {
      const page = await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: eng.body.id, title, contentJson: doc(text) } });
      expect(page.status).toBe(201);
      ids[name] = page.body.id;
    }
    expect(
      (
        await call(env, "POST", `/api/pages/${ids.secret}/restrictions`, {
          as: owner,
          body: { principalType: 0, principalId: owner.id, operation: 0 },
        })
      ).status,
    ).toBe(201);
    expect((await call(env, "DELETE", `/api/pages/${ids.trashed}`, { as: owner })).status).toBeLessThan(300);
    expect(ops.status).toBe(201);
  });
  afterAll(() => env.close());

  test("a reader's view carries the page's title and text, private and never stored", async () => {
    const res = await view(member, `/s/ENG/p/${ids.open}-runbook`);
    expect(res.text).toContain('<h1 class="page-title">Runbook</h1>');
    expect(res.text).toContain('<div class="prose"><p>Restart the queue</p></div>');
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("vary")).toContain("cookie");
    const plain = await call(env, "GET", `/s/ENG/p/${ids.open}-runbook`);
    expect(res.headers.get("content-security-policy")).toBe(plain.headers.get("content-security-policy"));
    expect(res.headers.get("link")).toBe(plain.headers.get("link"));
    // Unzipped for a client that does not take gzip, and in the theme asked for.
    const dark = await view(member, `/s/ENG/p/${ids.open}`, "dark", { "accept-encoding": "identity" });
    expect(dark.text).toContain('data-theme="dark"');
    expect(dark.text).toContain("Restart the queue");
  });

  test("hostile titles and text come escaped: no script, no broken attribute, no closed element", async () => {
    const res = await view(owner, `/s/ENG/p/${ids.hostile}`);
    const main = /<main class="main-column page">.*<\/main>/s.exec(res.text)![0];
    expect(main).not.toContain("<script");
    expect(main).not.toContain("<img");
    expect(main).not.toContain("<style");
    expect(main).toContain("&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&quot;x&#x27; &lt;img src=x onerror=alert(2)&gt;");
    expect(main).toContain("&lt;/div&gt;&lt;/main&gt;&lt;script&gt;alert(3)&lt;/script&gt;");
    // The page's only scripts are the built page's own.
    expect([...res.text.matchAll(/<script/g)].length).toBe([...(await call(env, "GET", "/")).text.matchAll(/<script/g)].length);
  });

  test(
    "a page the caller may not read, a missing, trashed or draft-less address, " +
      "another space's key, no session: the plain frame, byte for byte",
    async () => {
      const missing = "0190b7c2-0000-7000-8000-000000000000";
      const answers = [
        await view(member, `/s/ENG/p/${ids.secret}-salaries`),
        await view(member, `/s/ENG/p/${missing}-salaries`),
        await view(owner, `/s/ENG/p/${ids.trashed}`),
        await view(owner, `/s/OPS/p/${ids.open}`),
        await view(owner, `/s/NOPE/p/${ids.open}`),
        await view(owner, `/s/ENG/p/${ids.open}/edit`),
        await view(owner, `/s/ENG/p/${ids.open}/history`),
        await view(owner, `/s/ENG/p/${ids.open}?panel=comments`),
        await view({ cookie: "not-a-session" }, `/s/ENG/p/${ids.open}`),
      ];
      const logout = await signUpAndLogOut();
      answers.push(await view(logout, `/s/ENG/p/${ids.open}`));
      for (const res of answers) {
        expect(res.status).toBe(200);
        expect(`${answers.indexOf(res)} ${res.text}`).toBe(`${answers.indexOf(res)} ${answers[0].text}`);
        expect(res.headers.get("cache-control")).toBe("no-cache");
      }
      expect(answers[0].text).toContain('<main class="main-column page"></main>');
      expect(answers[0].text).not.toContain("Salaries");
      // The owner may read the secret page: the same address then carries it.
      expect((await view(owner, `/s/ENG/p/${ids.secret}-salaries`)).text).toContain("Ada earns");
    },
  );

  test("a page changed, or closed to the reader, since it was last drawn: the new text, or the plain frame", async () => {
    const path = `/s/ENG/p/${ids.open}`;
    expect((await view(member, path)).text).toContain("Restart the queue");
    const doc = JSON.stringify({
      type: "doc",
      content: [{ type: "paragraph", content: [{ type: "text", text: "Drain the queue first" }] }],
    });
    expect(
      (await call(env, "PUT", `/api/pages/${ids.open}`, { as: owner, body: { title: "Runbook v2", contentJson: doc, baseVersion: 1 } }))
        .status,
    ).toBe(200);
    const changed = await view(member, path);
    expect(changed.text).toContain('<h1 class="page-title">Runbook v2</h1>');
    expect(changed.text).toContain("Drain the queue first");
    expect(changed.text).not.toContain("Restart the queue");
    expect(
      (
        await call(env, "POST", `/api/pages/${ids.open}/restrictions`, {
          as: owner,
          body: { principalType: 0, principalId: owner.id, operation: 0 },
        })
      ).status,
    ).toBe(201);
    const closed = await view(member, path);
    expect(closed.text).toContain('<main class="main-column page"></main>');
    expect(closed.text).not.toContain("Drain the queue");
    expect(closed.headers.get("cache-control")).toBe("no-cache");
  });

  async function signUpAndLogOut() {
    const who = await signUp(env, "gone@example.com").catch(() => null);
    // Registration may be closed to the uninvited: then a member's session, ended.
    const session =
      who ??
      (await signUp(env, "gone2@example.com", {
        inviteToken: (await call(env, "POST", "/api/admin/invites", { as: owner, body: {} })).body.token,
      }));
    expect((await call(env, "POST", "/api/auth/logout", { as: session })).status).toBeLessThan(300);
    return session;
  }
});

describe("the page's main column as the app's first render draws it", () => {
  windowWhileTesting();
  const react = (doc: unknown, canEdit: boolean) =>
    renderToStaticMarkup(createElement(DocumentView, { doc: doc as never, firstScreen: true, onTick: canEdit ? () => {} : undefined }))
      .replace(/ (colSpan|rowSpan|readOnly|tabIndex)=/g, (_, name: string) => ` ${name.toLowerCase()}=`)
      // Without the app's query client its page links show unseen; the app's first render shows them loading.
      .replaceAll(
        /<span class="page-link page-link-unseen" data-type="pageLink">[^<]*<\/span>/g,
        '<span class="page-link page-link-loading" data-type="pageLink">…</span>',
      );
  const prose = (main: string) =>
    /<div><div class="prose">.*<\/div><\/div><\/main>$/s
      .exec(main)![0]
      .replace(/^<div>/, "")
      .replace(/<\/div><\/main>$/, "");

  test("every block, with task boxes that tick for an editor and drawn for a reader", () => {
    const doc = everythingDocument();
    for (const canEdit of [false, true]) {
      expect(prose(pageMain({ title: "T", emoji: null, fullWidth: false, contentJson: JSON.stringify(doc), canEdit }))).toBe(
        react(doc, canEdit),
      );
    }
  });

  test("only the first screen of a long page, cut where the app cuts it", () => {
    const doc = {
      type: "doc",
      content: Array.from({ length: 200 }, (_, i) => ({
        type: "paragraph",
        content: [{ type: "text", text: `Paragraph ${i} `.repeat(8) }],
      })),
    };
    const main = pageMain({ title: "", emoji: "📘", fullWidth: true, contentJson: JSON.stringify(doc), canEdit: false });
    expect(prose(main)).toBe(react(doc, false));
    expect(main).toContain("Paragraph 10 ");
    expect(main).not.toContain("Paragraph 199 ");
    expect(main).toStartWith(
      '<main class="main-column page full-width"><header class="page-head"><div ' +
        'class="page-actions"></div><h1 class="page-title"><span class="page-emoji">📘</span>Untitled</h1>',
    );
  });
});
