/**
 * The interactive reference at /api/docs: Scalar's standalone bundle, served from the binary.
 * The CSP allows no inline script, so the page loads two same-origin scripts: the bundle and
 * init.js, which holds the configuration below.
 */

let scalarGz: string | null = null;

/** Called by the compiled binary's entry with the path of Scalar's bundle, embedded gzipped (docs.ts). */
export function embedScalar(gzPath: string): void {
  scalarGz = gzPath;
}

export const embeddedScalar = (): string | null => scalarGz;

export const SPEC_URL = "/api/openapi.json";
export const SCALAR_JS = "/api/docs/scalar.js";
export const INIT_JS = "/api/docs/init.js";

/**
 * Everything that would reach another host is switched off: telemetry, the web fonts (served from
 * Scalar's CDN), the AI agent and MCP buttons (on by default on localhost), the developer toolbar
 * (deploy/share to Scalar's cloud) and the button that opens the separate API client.
 */
const SCALAR_CONFIG = {
  url: SPEC_URL,
  telemetry: false,
  withDefaultFonts: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  hideClientButton: true,
  // "Powered by Scalar" links out of an instance that otherwise never does; error codes in the
  // catalogue table (info.description) read better unbroken. The introduction's "Client
  // Libraries" card shows only a language picker with no example under it; the introduction
  // text carries a worked curl example instead, and each operation keeps its own samples.
  customCss:
    "a[href='https://www.scalar.com'] { display: none !important; } .introduction-description :is(td, " +
    "th):not(:last-child) { white-space: nowrap; } .scalar-reference-intro-clients { display: none !important; }",
};

export const initScript = (): string =>
  `// Cairn: mounts the API reference (configuration lives here because the CSP forbids inline ` +
  `script).\nScalar.createApiReference("#reference", ${JSON.stringify(SCALAR_CONFIG)});\n`;

/**
 * `v` makes the asset URLs change with each release, so they can be cached for good. The empty
 * data: icon keeps the browser from asking for /favicon.ico, which the API would answer with a 404.
 */
export const docsPage = (version: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cairn API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="reference"></div>
<script src="${SCALAR_JS}?v=${encodeURIComponent(version)}"></script>
<script src="${INIT_JS}?v=${encodeURIComponent(version)}"></script>
</body>
</html>
`;
