/**
 * The SVG sanitiser: what an attacker tries (scripts, handlers, foreignObject, outside links,
 * entities) never survives, an honest logo comes through intact, broken markup is refused.
 */
import { describe, expect, test } from "bun:test";
import { sanitiseSvg, SvgRefused } from "./svg";

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const wrap = (inner: string, attrs = "") => `<svg ${NS} viewBox="0 0 10 10"${attrs}>${inner}</svg>`;

describe("what is taken out", () => {
  test.each([
    ["a script element", wrap('<script>alert(1)</script><circle r="4"/>'), "script element", "alert"],
    ["a script in CDATA", wrap("<script><![CDATA[alert(1)]]></script>"), "script element", "alert"],
    [
      "an onload handler on the root",
      `<svg ${NS} onload="alert(1)"><rect width="1" height="1"/></svg>`,
      "onload attribute (an event handler)",
      "alert",
    ],
    ["an onclick on a shape", wrap('<rect onclick="steal()" width="2" height="2"/>'), "onclick attribute (an event handler)", "steal"],
    ["upper-case ONMOUSEOVER", wrap('<rect ONMOUSEOVER="steal()"/>'), "ONMOUSEOVER attribute (an event handler)", "steal"],
    [
      "foreignObject with HTML inside",
      wrap('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example"/></div></foreignObject>'),
      "foreignObject element",
      "evil",
    ],
    ["an external image", wrap('<image href="https://evil.example/x.png"/>'), "image element", "evil"],
    [
      "an external use (xlink)",
      wrap('<use xlink:href="https://evil.example/s.svg#a"/>', ' xmlns:xlink="http://www.w3.org/1999/xlink"'),
      "xlink:href pointing outside the image",
      "evil",
    ],
    ["a javascript: link", wrap('<a href="javascript:alert(1)"><text>x</text></a>'), "a element", "javascript"],
    ["a style element (can @import)", wrap("<style>@import url(https://evil.example/a.css);</style>"), "style element", "evil"],
    ["a fill pointing outside", wrap('<rect fill="url(https://evil.example/p#g)"/>'), "fill attribute", "evil"],
    ["a style attribute pointing outside", wrap("<rect style=\"fill:url('https://evil.example/x')\"/>"), "style attribute", "evil"],
    ["a data: URL in a style", wrap('<rect style="background:url(data:image/svg+xml;base64,AAAA)"/>'), "style attribute", "data:"],
    [
      "Inkscape's metadata",
      wrap(
        '<sodipodi:namedview id="n"/><metadata><rdf:RDF/></metadata><path d="M0 0" inkscape:label="L"/>',
        ' xmlns:sodipodi="http://sodipodi" xmlns:inkscape="http://inkscape"',
      ),
      "sodipodi:namedview element",
      "sodipodi",
    ],
    ["an animate that sets href", wrap('<a><animate attributeName="href" to="javascript:alert(1)"/></a>'), "a element", "animate"],
    ["a set element", wrap('<set attributeName="onmouseover" to="alert(1)"/>'), "set element", "alert"],
    ["an iframe", wrap('<iframe src="https://evil.example"/>'), "iframe element", "evil"],
  ])("%s", (_name, input, removed, gone) => {
    const out = sanitiseSvg(input);
    expect(out.removed).toContain(removed);
    expect(out.svg).not.toContain(gone);
    expect(out.svg.startsWith("<svg ")).toBe(true);
  });
});

describe("what stays", () => {
  test("an honest logo keeps its shapes, gradients, inside links and text", () => {
    const input = `<?xml version="1.0" encoding="UTF-8"?>
<!-- made by hand -->
<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="40px" viewBox="0 0 120 40">
  <title>Acme &amp; Co</title>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#0a0"/><stop offset="1" stop-color="#060"/></linearGradient></defs>
  <rect width="40" height="40" rx="6" fill="url(#g)"/>
  <use xlink:href="#g"/>
  <text x="48" y="26" font-family="sans-serif" font-size="18" style="fill:#123">Acme &#169; &lt;3</text>
</svg>`;
    const out = sanitiseSvg(input);
    expect(out.removed).toEqual([]);
    expect(out.width).toBe(120);
    expect(out.height).toBe(40);
    expect(out.svg).toContain('fill="url(#g)"');
    expect(out.svg).toContain('<use xlink:href="#g"/>');
    expect(out.svg).toContain("Acme ©");
    expect(out.svg).toContain("&lt;3");
    expect(out.svg).toContain("<title>Acme &amp; Co</title>");
    expect(out.svg).not.toContain("made by hand");
    // The output parses again to the same thing.
    expect(sanitiseSvg(out.svg).svg).toBe(out.svg);
  });

  test("a root without xmlns gets it; sizes in other units are not pixels", () => {
    const out = sanitiseSvg('<svg width="10em" height="2cm"><path d="M0 0h1"/></svg>');
    expect(out.svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect([out.width, out.height]).toEqual([null, null]);
  });

  test("quotes and angle brackets inside values are escaped on the way out", () => {
    const out = sanitiseSvg(`<svg ${NS}><text aria-label='say "hi" &gt;'>a</text></svg>`);
    expect(out.svg).toContain('aria-label="say &quot;hi&quot; &gt;"');
  });
});

describe("what is refused whole", () => {
  test.each([
    [
      "a DOCTYPE with entities (billion laughs / XXE)",
      '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg><text>&x;</text></svg>',
    ],
    ["an unknown entity", `<svg ${NS}><text>&nbsp;</text></svg>`],
    ["a root that is not svg", "<html><svg/></html>"],
    ["two roots", `<svg ${NS}/><svg ${NS}/>`],
    ["an unclosed element", `<svg ${NS}><g>`],
    ["mismatched tags", `<svg ${NS}><g></rect></svg>`],
    ["text outside the root", `hello <svg ${NS}/>`],
    ["an unquoted attribute", `<svg ${NS} width=10/>`],
    ["a duplicated attribute", `<svg ${NS} width="1" width="2"/>`],
    ["an unclosed comment", `<svg ${NS}><!-- </svg>`],
    ["a character reference to NUL", `<svg ${NS}><text>&#0;</text></svg>`],
    ["nothing", ""],
  ])("%s", (_name, input) => {
    expect(() => sanitiseSvg(input)).toThrow(SvgRefused);
  });
});
