/**
 * Tailscale status for the admin area (GET /api/admin/tailscale, right dashboard.view): runs
 * `tailscale status --json` when the CLI is on PATH, for at most TIMEOUT_MS, and reads the few
 * fields an administrator needs (is this machine on its tailnet, at which address, until when
 * is its key valid). It never fails the page: a missing CLI, a daemon that is not running, a
 * command that hangs or prints something else all answer `configured: false` with the reason.
 *
 * The JSON is ipnstate.Status from the tailscale source: BackendState ("NoState", "NeedsLogin",
 * "NeedsMachineAuth", "Stopped", "Starting", "Running"), TailscaleIPs, Self (a PeerStatus:
 * HostName, DNSName, TailscaleIPs, Online, KeyExpiry), CurrentTailnet.Name, Version.
 */
import type { Core } from "../core";
import { requireUser, type Caller } from "../identity/caller";
import { requireRight } from "../identity/rights";
import { iso } from "../platform/clock";

export const TIMEOUT_MS = 2_000;
const MAX_OUTPUT = 4 * 1024 * 1024;

export interface TailscaleStatus {
  /** The machine is logged in to a tailnet (whether or not it is connected right now). */
  configured: boolean;
  online: boolean;
  /** This machine's first Tailscale IPv4 address (else the first address). */
  address: string | null;
  addresses: string[];
  hostName: string | null;
  /** The MagicDNS name, without the trailing dot. */
  dnsName: string | null;
  tailnet: string | null;
  /** When the machine's node key expires; null when it never does (or is unknown). */
  keyExpiry: string | null;
  backendState: string | null;
  version: string | null;
  /** Why configured is false (or the machine is offline), in plain words; null when all is well. */
  reason: string | null;
  checkedAt: string;
}

/** GET /api/admin/tailscale */
export async function getTailscale(core: Core, caller: Caller): Promise<TailscaleStatus> {
  requireRight(requireUser(caller), "dashboard.view");
  return readTailscaleStatus(iso(core.clock.now()));
}

const nothing = (checkedAt: string, reason: string): TailscaleStatus => ({
  configured: false,
  online: false,
  address: null,
  addresses: [],
  hostName: null,
  dnsName: null,
  tailnet: null,
  keyExpiry: null,
  backendState: null,
  version: null,
  reason,
  checkedAt,
});

/** Runs the CLI found on PATH (read at each call) and interprets what it printed. */
export async function readTailscaleStatus(checkedAt: string, timeoutMs = TIMEOUT_MS): Promise<TailscaleStatus> {
  const cli = Bun.which("tailscale", { PATH: process.env.PATH ?? "" });
  if (!cli) return nothing(checkedAt, "Tailscale is not installed on this server (no tailscale command on its PATH).");
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn([cli, "status", "--json"], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  } catch (err) {
    return nothing(checkedAt, `The tailscale command could not be started: ${(err as Error).message}`);
  }
  // The answer is whatever comes first: the command's output, or the time-out. A command that
  // hangs is killed; a grandchild holding its output open is left behind, not waited for.
  const stdout = proc.stdout as ReadableStream<Uint8Array>;
  const stderr = proc.stderr as ReadableStream<Uint8Array>;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
  const finished = Promise.all([readCapped(stdout), readCapped(stderr), proc.exited]).catch(() => "unreadable" as const);
  try {
    const outcome = await Promise.race([finished, timeout]);
    if (outcome === "timeout") {
      proc.kill("SIGKILL");
      stdout.cancel().catch(() => {});
      stderr.cancel().catch(() => {});
      return nothing(checkedAt, `tailscale status did not answer within ${timeoutMs / 1000} s.`);
    }
    if (outcome === "unreadable") return nothing(checkedAt, "tailscale status could not be read.");
    const [out, err, exitCode] = outcome;
    return interpret(out, err, exitCode, checkedAt);
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > MAX_OUTPUT) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** What `tailscale status --json` printed (stdout, stderr, exit code) → the status. Exported for tests. */
export function interpret(stdout: string, stderr: string, exitCode: number, checkedAt: string): TailscaleStatus {
  let status: any;
  try {
    status = JSON.parse(stdout);
  } catch {
    status = undefined;
  }
  if (!status || typeof status !== "object" || Array.isArray(status) || typeof status.BackendState !== "string") {
    const said = firstLine(stderr) ?? firstLine(stdout);
    if (exitCode !== 0 && said) return nothing(checkedAt, `tailscale status failed: ${said}`);
    return nothing(checkedAt, "tailscale status printed something other than its JSON status.");
  }
  const self = status.Self && typeof status.Self === "object" ? status.Self : {};
  const addresses = strings(self.TailscaleIPs).length ? strings(self.TailscaleIPs) : strings(status.TailscaleIPs);
  const state: string = status.BackendState;
  const configured = !["NoState", "NeedsLogin"].includes(state);
  const online = state === "Running" && self.Online !== false;
  const keyExpiry =
    typeof self.KeyExpiry === "string" && !Number.isNaN(Date.parse(self.KeyExpiry)) ? new Date(self.KeyExpiry).toISOString() : null;
  const reason = REASONS[state] ?? (online ? null : `Tailscale reports "${state}".`);
  return {
    configured,
    online,
    address: addresses.find((a) => !a.includes(":")) ?? addresses[0] ?? null,
    addresses,
    hostName: str(self.HostName),
    dnsName: str(self.DNSName)?.replace(/\.$/, "") ?? null,
    tailnet: str(status.CurrentTailnet?.Name),
    keyExpiry,
    backendState: state,
    version: str(status.Version),
    reason,
    checkedAt,
  };
}

const REASONS: Record<string, string | null> = {
  Running: null,
  NoState: "The Tailscale service (tailscaled) is not running.",
  NeedsLogin: "Tailscale is installed but this machine is not logged in to a tailnet (run tailscale up).",
  NeedsMachineAuth: "This machine waits for an administrator of the tailnet to approve it.",
  Stopped: "Tailscale is stopped on this machine (run tailscale up).",
  Starting: "Tailscale is starting.",
};

const str = (v: unknown) => (typeof v === "string" && v ? v : null);
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const firstLine = (text: string) => text.trim().split("\n")[0]?.trim().slice(0, 300) || null;
