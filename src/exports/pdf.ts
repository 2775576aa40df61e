/**
 * PDFs printed by Chromium through playwright-core (STACK.md). One browser per instance,
 * launched on the first print and closed when idle (5 minutes) or at shutdown; at most two
 * prints at once (up to 20 more wait their turn; beyond that 503); each print has 30 seconds.
 * A print loads nothing: JavaScript is off and every request is refused (the HTML carries its
 * images as data: URLs, and the server must never fetch a URL a page's author chose). No Chromium: 503
 * `export_unavailable` naming what to install. playwright-core is loaded on first use, so a
 * server that never prints never loads it; the build marks its optional chromium-bidi as
 * external (scripts/build.ts), which a Chromium launch never needs.
 */
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";
import type { Core } from "../core";
import { AppError } from "../platform/errors";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";
const MAX_PRINTS = 2;
/** Prints waiting for a turn; past this a print is refused at once (503) rather than queued for minutes. */
const MAX_WAITING = 20;
const PRINT_TIMEOUT_MS = 30_000;
const IDLE_CLOSE_MS = 5 * 60_000;
/** STACK.md's flags: nothing of Chromium's own background traffic. */
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"];

const unavailable = (why: string) =>
  new AppError("export_unavailable", {
    detail: `PDF export needs Chromium on the server: ${why}. Install it (Debian and Ubuntu: apt-get install -y chromium) or point CAIRN_CHROMIUM at a Chromium or Chrome executable, then try again.`,
  });

/** The one browser of an instance and its queue of prints. */
export class PdfPrinter {
  private browser: Promise<Browser> | null = null;
  private running = 0;
  private waiting: Array<() => void> = [];
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
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
      // A print that hangs means a stuck browser: it is closed, and the next print starts a new one.
      return await withTimeout(this.render(html), PRINT_TIMEOUT_MS, () => void this.closeBrowser());
    } finally {
      this.release();
    }
  }

  private async render(html: string): Promise<Uint8Array<ArrayBuffer>> {
    const browser = await this.open();
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true, colorScheme: "light" });
    try {
      // data: URLs are not requests; everything else (http, file, ws) is refused.
      await context.route("**/*", (route) => route.abort());
      const page = await context.newPage();
      await page.setContent(html, { waitUntil: "load", timeout: PRINT_TIMEOUT_MS });
      const pdf = await page.pdf({ format: "A4", printBackground: true, margin: { top: "16mm", bottom: "16mm", left: "14mm", right: "14mm" } });
      return new Uint8Array(pdf);
    } finally {
      await context.close().catch(() => {});
    }
  }

  private open(): Promise<Browser> {
    if (!this.browser) {
      const launching = (async () => {
        const { chromium } = await import("playwright-core");
        try {
          const browser = await chromium.launch({ executablePath: this.executable, args: ARGS, timeout: PRINT_TIMEOUT_MS });
          // A crashed or killed browser is launched again on the next print.
          browser.on("disconnected", () => {
            if (this.browser === launching) this.browser = null;
          });
          return browser;
        } catch (error) {
          throw unavailable(`${this.executable} did not start (${String((error as Error).message ?? error).split("\n")[0].slice(0, 200)})`);
        }
      })();
      this.browser = launching;
      launching.catch(() => {
        if (this.browser === launching) this.browser = null;
      });
    }
    return this.browser;
  }

  private async turn(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer), (this.idleTimer = null);
    if (this.running < MAX_PRINTS) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.maxWaiting) {
      throw new AppError("service_unavailable", { detail: "Too many PDFs are being printed right now; try again in a minute.", headers: { "retry-after": "30" } });
    }
    // release() hands its place straight to the next waiter.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) return next();
    this.running--;
    if (this.running === 0 && !this.closed) {
      this.idleTimer = setTimeout(() => void this.closeBrowser(), IDLE_CLOSE_MS);
      this.idleTimer.unref?.();
    }
  }

  private async closeBrowser(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close().catch(() => {});
  }

  /** At shutdown: the browser goes, and later prints are refused. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    await this.closeBrowser();
  }
}

function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => (onTimeout(), reject(new AppError("service_unavailable", { detail: `The PDF took longer than ${ms / 1000} s to print; try again, or export as HTML.` }))), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
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
