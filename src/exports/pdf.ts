/**
 * PDFs printed by Chromium's own command line (`--headless --print-to-pdf`): no automation
 * library in the server (playwright-core was 14.7 MB of the binary and 6 MB of memory). Each
 * print is one short-lived Chromium on a private temporary directory (the HTML, the PDF and the
 * browser's profile), removed afterwards; at most two prints at once (up to 20 more wait their
 * turn; beyond that 503); each print has 30 seconds, then its Chromium is killed.
 *
 * A print loads nothing: a Content-Security-Policy meta put first in the document allows only
 * inline styles and data: images and fonts (the export's HTML carries its images as data: URLs,
 * and the server must never fetch a URL a page's author chose, nor show a file of its own), so no
 * script runs (Chromium's own switch for that, --blink-settings=scriptEnabled=false, stops
 * --print-to-pdf from writing anything), and every request that would still go out is sent to a
 * proxy that does not exist.
 * No Chromium: 503 `export_unavailable` naming what to install.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Core } from "../core";
import { AppError } from "../platform/errors";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";
const MAX_PRINTS = 2;
/** Prints waiting for a turn; past this a print is refused at once (503) rather than queued for minutes. */
const MAX_WAITING = 20;
const PRINT_TIMEOUT_MS = 30_000;

/** Nothing of Chromium's own background traffic, no sandbox (the server may run as root), no state kept. */
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
  "--disable-default-apps",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-dev-shm-usage",
  "--disable-crash-reporter",
  "--mute-audio",
  "--hide-scrollbars",
  "--force-color-profile=srgb",
  // Whatever the CSP below would let through still reaches no host (loopback included).
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  "--no-pdf-header-footer",
];

/** Put first in every printed document: the print's only permissions. */
const PRINT_HEAD =
  `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">` +
  // A4 with the margins of the old print, backgrounds printed, light colours.
  `<style>@page{size:A4;margin:16mm 14mm}:root{color-scheme:light;-webkit-print-color-adjust:exact;print-color-adjust:exact}</style>`;

const unavailable = (why: string) =>
  new AppError("export_unavailable", {
    detail:
      `PDF export needs Chromium on the server: ${why}. Install it (Debian and Ubuntu: apt-get install -y ` +
      `chromium) or point CAIRN_CHROMIUM at a Chromium or Chrome executable, then try again.`,
  });

const tooSlow = () =>
  new AppError("service_unavailable", {
    detail: `The PDF took longer than ${PRINT_TIMEOUT_MS / 1000} s to print; try again, or export as HTML.`,
  });

/** A meta element, quoted values included (a `>` inside quotes does not end it). */
const META = /<meta\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;

/**
 * The document with the print's head first (after a doctype, so it keeps its standards mode).
 * Its own http-equiv metas are disarmed: a CSP does not stop a refresh, which could take the
 * print to a file of the server.
 */
export function printable(html: string): string {
  const disarmed = html.replace(META, (meta) => meta.replace(/\bhttp-equiv\b/gi, "data-refused"));
  const doctype = /^\s*<!doctype[^>]*>/i.exec(disarmed);
  return doctype ? `${doctype[0]}${PRINT_HEAD}${disarmed.slice(doctype[0].length)}` : `<!doctype html>${PRINT_HEAD}${disarmed}`;
}

/** An instance's prints and their queue. */
export class PdfPrinter {
  private running = 0;
  private waiting: Array<() => void> = [];
  private readonly children = new Set<Bun.Subprocess>();
  private closed = false;

  /** `maxWaiting`: prints that may wait for a turn (tests lower it). */
  constructor(
    private readonly executable: string,
    private readonly maxWaiting = MAX_WAITING,
  ) {}

  /** The HTML as an A4 PDF (backgrounds printed, light colours). */
  async print(html: string): Promise<Uint8Array<ArrayBuffer>> {
    if (this.closed) throw unavailable("the server is shutting down");
    if (!existsSync(this.executable)) throw unavailable(`no executable at ${this.executable}`);
    await this.turn();
    try {
      if (this.closed) throw unavailable("the server is shutting down");
      return await this.render(html);
    } finally {
      this.release();
    }
  }

  private async render(html: string): Promise<Uint8Array<ArrayBuffer>> {
    const dir = await mkdtemp(join(tmpdir(), "cairn-pdf-"));
    try {
      const input = join(dir, "page.html");
      const output = join(dir, "page.pdf");
      await Bun.write(input, printable(html));
      const child = Bun.spawn(
        [this.executable, ...ARGS, `--user-data-dir=${join(dir, "profile")}`, `--print-to-pdf=${output}`, `file://${input}`],
        {
          stdin: "ignore",
          stdout: "ignore",
          stderr: "pipe",
          // Chromium keeps its caches and settings under HOME and XDG: here, inside the print's directory.
          env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, "config"), XDG_CACHE_HOME: join(dir, "cache") },
          timeout: PRINT_TIMEOUT_MS,
          killSignal: "SIGKILL",
        },
      );
      this.children.add(child);
      const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]).finally(() =>
        this.children.delete(child),
      );
      if (this.closed) throw unavailable("the server is shutting down");
      if (child.signalCode === "SIGKILL") throw tooSlow();
      const pdf = Bun.file(output);
      if (code !== 0 || !(await pdf.exists()) || pdf.size === 0) {
        const why = stderr.split("\n").find((l) => l.trim() && !/bytes written to file/.test(l)) ?? "no PDF written";
        throw unavailable(`${this.executable} did not print (exit ${code}: ${why.trim().slice(0, 200)})`);
      }
      return new Uint8Array(await pdf.arrayBuffer());
    } finally {
      await rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  }

  private async turn(): Promise<void> {
    if (this.running < MAX_PRINTS) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.maxWaiting) {
      throw new AppError("service_unavailable", {
        detail: "Too many PDFs are being printed right now; try again in a minute.",
        headers: { "retry-after": "30" },
      });
    }
    // release() hands its place straight to the next waiter.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) return next();
    this.running--;
  }

  /** At shutdown: prints in progress are stopped, and later prints are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const child of this.children) child.kill("SIGKILL");
    await Promise.all([...this.children].map((c) => c.exited));
  }
}

const printers = new WeakMap<Core, PdfPrinter>();

/** The instance's printer, closed with the instance. */
export function pdfPrinter(core: Core): PdfPrinter {
  let printer = printers.get(core);
  if (!printer) {
    const created = new PdfPrinter(core.config.chromium ?? DEFAULT_CHROMIUM);
    printer = created;
    printers.set(core, created);
    core.onClose(() => void created.close());
  }
  return printer;
}
