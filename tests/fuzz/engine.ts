/**
 * Sends fuzz requests to the target a few at a time and keeps what went wrong: every answer of
 * 500 or more, every request left unanswered, every crash. A crash is not the end of the run:
 * the target is started again and the requests sent shortly before are replayed, halving the
 * group until the one that kills the process is found (a process may die a good half second
 * after the answer that doomed it, hundreds of requests later), and the run goes on, so one
 * crash hides no other finding.
 */
import { encode, send, type Answer, type Wire } from "./client";
import type { FuzzRequest } from "./generate";
import type { Target } from "./target";

export interface Findings {
  sent: number;
  /** Answers by status ("none" for no answer). */
  statuses: Record<string, number>;
  /** `METHOD path (variant) -> status body-prefix`, in the order found. */
  failures: string[];
  crashes: string[];
}

/** Who sent what, for the report: `op (auth; variant)`. */
export interface Label {
  op: string;
  auth: string;
  variant: string;
}

/** A replay that killed the process: the last answer and how the process ended. */
interface Killed {
  answer: Answer;
  how: string;
}

interface Sent {
  label: Label;
  bytes: () => Buffer;
  timeoutMs: number;
  at: number;
  generation: number;
}

const TIMEOUT_MS = 15_000;
/** Before asking whether the process lives: an exit right after an answer shows by then. */
const SETTLE_MS = 25;
/**
 * How far back a crash's cause is looked for, and how long a replay is watched for one (Bun took
 * 0.4-0.7 s to exit after an uncaught error in a request's logging).
 */
const CRASH_WINDOW_MS = 2_000;
const WATCH_MS = 1_000;
/** Finding each crash's request costs ~5-15 s; past this much in all, crashes are listed unsearched. */
const SEARCH_BUDGET_MS = 90_000;

export class Engine {
  readonly findings: Findings = { sent: 0, statuses: {}, failures: [], crashes: [] };
  private addressCounter = 0;
  private log: Sent[] = [];
  private recovering: Promise<void> | null = null;
  private searchSpentMs = 0;

  constructor(
    private readonly target: Target,
    private readonly concurrency = 8,
  ) {}

  /** Runs the requests phase by phase (a phase starts when the one before has finished). */
  async run(requests: FuzzRequest[]): Promise<void> {
    for (const phase of [...new Set(requests.map((r) => r.phase))].sort()) {
      const queue = requests.filter((r) => r.phase === phase);
      let next = 0;
      const worker = async () => {
        while (next < queue.length) await this.one(queue[next++]);
      };
      await Promise.all(Array.from({ length: this.concurrency }, worker));
    }
    await this.finish();
  }

  /** Sends one fuzz request and judges the answer. */
  one(request: FuzzRequest): Promise<void> {
    return this.judge({ label: request, bytes: () => encode(wireOf(request)), timeoutMs: TIMEOUT_MS, mustAnswer: true });
  }

  /**
   * Sends what only a raw socket can, alone, and judges the answer and the process after it.
   * No answer is no failure here (Bun drops what it cannot parse, a lying length gets none);
   * `allow` lists 5xx statuses that are the right answer (Bun's own 505).
   */
  async raw(label: Label, bytes: Buffer, opts: { timeoutMs?: number; allow?: number[] } = {}): Promise<void> {
    await this.judge({ label, bytes: () => bytes, timeoutMs: opts.timeoutMs ?? 5_000, allow: opts.allow, mustAnswer: false });
    if (!(await this.stillAlive())) await this.recover(this.target.generation);
  }

  private async judge(job: { label: Label; bytes: () => Buffer; timeoutMs: number; allow?: number[]; mustAnswer: boolean }): Promise<void> {
    await this.recovering;
    const generation = this.target.generation;
    const answer = await this.send({ label: job.label, bytes: job.bytes, timeoutMs: job.timeoutMs, at: performance.now(), generation });
    this.findings.sent++;
    const key = answer.status ? String(answer.status) : "none";
    this.findings.statuses[key] = (this.findings.statuses[key] ?? 0) + 1;
    if (answer.status >= 500 && !job.allow?.includes(answer.status)) this.findings.failures.push(describe(job.label, answer));
    if (answer.status !== 0) return;
    if (!(await this.stillAlive())) await this.recover(generation);
    else if (job.mustAnswer && generation === this.target.generation) this.findings.failures.push(describe(job.label, answer));
  }

  /** After the last request: a crash it caused may show only now. */
  async finish(): Promise<void> {
    await this.recovering;
    await Promise.race([this.target.proc.exited, Bun.sleep(WATCH_MS)]);
    if (!this.target.alive()) await this.recover(this.target.generation);
  }

  /** GET /api/health from an address of its own (the fuzz may have set the anonymous limit to 1 a minute). */
  health(): Promise<Answer> {
    return send(this.target.port, encode({ method: "GET", target: "/api/health", headers: [] }), {
      from: this.nextAddress(),
      timeoutMs: 5_000,
    });
  }

  /** Whether the target lives a moment after the last answer (a refused health check waits for the exit). */
  async stillAlive(): Promise<boolean> {
    await Bun.sleep(SETTLE_MS);
    if (!this.target.alive()) return false;
    const health = await this.health();
    if (health.status === 0) await Promise.race([this.target.proc.exited, Bun.sleep(1_000)]);
    return this.target.alive();
  }

  /**
   * Each request comes from its own loopback address: the anonymous and sign-in rate limits
   * count per address, and would otherwise answer most of the run with 429 before the request
   * reached the code it is aimed at.
   */
  private send(entry: Sent): Promise<Answer> {
    this.log.push(entry);
    while (this.log.length && this.log[0].at < entry.at - 2 * CRASH_WINDOW_MS) this.log.shift();
    return send(this.target.port, entry.bytes(), { from: this.nextAddress(), timeoutMs: entry.timeoutMs });
  }

  /** Once per crash: start the target again and find which request sent shortly before kills it. */
  private recover(generation: number): Promise<void> {
    if (generation !== this.target.generation) return this.recovering ?? Promise.resolve();
    this.recovering ??= (async () => {
      await Promise.race([this.target.proc.exited, Bun.sleep(1_000)]);
      const how = this.target.exitDescription();
      const diedAt = this.target.exitedAt || performance.now();
      let suspects = this.log.filter((s) => s.generation === generation && s.at >= diedAt - CRASH_WINDOW_MS && s.at <= diedAt);
      await this.target.start();
      const found: string[] = [];
      const started = performance.now();
      const searching = () => this.searchSpentMs + (performance.now() - started) < SEARCH_BUDGET_MS;
      let killed: Killed | null;
      while (suspects.length && searching() && (killed = await this.kills(suspects))) {
        const culprit = suspects.length === 1 ? { sent: suspects[0], ...killed } : await this.narrow(suspects);
        if (!culprit) {
          found.push(
            `the process died (${how}) after these ${suspects.length} requests together, and after none of them ` +
              `alone: ${suspects.map((s) => `${s.label.op} (${s.label.variant})`).join("; ")}`,
          );
          break;
        }
        found.push(`${describe(culprit.sent.label, culprit.answer)}, then the process died (${culprit.how})`);
        suspects = suspects.filter((s) => s !== culprit.sent);
      }
      if (!found.length && searching())
        found.push(
          `the process died (${how}); none of the ${suspects.length} requests sent in ` +
            `the ${CRASH_WINDOW_MS / 1000} s before kills it again`,
        );
      if (!found.length)
        found.push(
          `the process died (${how}) within ${CRASH_WINDOW_MS / 1000} s of one of these ${suspects.length} (no time left to find ` +
            `which): ${suspects.map((s) => `${s.label.op} (${s.label.auth}; ${s.label.variant})`).join("; ")}`,
        );
      this.searchSpentMs += performance.now() - started;
      this.findings.crashes.push(...found);
      this.findings.failures.push(...found.map((line) => `CRASH ${line}`));
      this.recovering = null;
    })();
    return this.recovering;
  }

  /** The one request of `group` (two or more) that kills the process alone, by halving; null if none does. */
  private async narrow(group: Sent[]): Promise<(Killed & { sent: Sent }) | null> {
    const half = Math.ceil(group.length / 2);
    for (const part of [group.slice(0, half), group.slice(half)]) {
      const killed = await this.kills(part);
      if (killed) return part.length === 1 ? { sent: part[0], ...killed } : this.narrow(part);
    }
    return null;
  }

  /** Replays `group` one after another and watches the process (started again if it died). */
  private async kills(group: Sent[]): Promise<Killed | null> {
    const answer = await this.replay(group);
    const how = await this.watch();
    return how ? { answer, how } : null;
  }

  /** Waits WATCH_MS for the process to die: how it ended (and it is started again), or null. */
  private async watch(): Promise<string | null> {
    await Promise.race([this.target.proc.exited, Bun.sleep(WATCH_MS)]);
    if (this.target.alive()) return null;
    const how = this.target.exitDescription();
    await this.target.start();
    return how;
  }

  /** Sends each of `group` in turn; answers the last answer (the culprit's, for one). */
  private async replay(group: Sent[]): Promise<Answer> {
    let answer: Answer = { status: 0, head: "", body: "", timedOut: false };
    for (const s of group) answer = await send(this.target.port, s.bytes(), { from: this.nextAddress(), timeoutMs: s.timeoutMs });
    return answer;
  }

  /** 127.1.x.y: 60,000 addresses before one is used again. */
  private nextAddress(): string {
    const n = this.addressCounter++ % 60_000;
    return `127.1.${Math.floor(n / 240) + 1}.${(n % 240) + 2}`;
  }
}

function wireOf(request: FuzzRequest): Wire {
  return { method: request.method, target: request.target, headers: request.headers, body: request.body?.() };
}

export function describe(label: Label, answer: Answer): string {
  const outcome = answer.status
    ? `${answer.status} ${oneLine(answer.body).slice(0, 160)}`
    : answer.timedOut
      ? `no answer within the time allowed`
      : `no answer (${answer.error ?? "connection closed"})`;
  return `${label.op} (${label.auth}; ${label.variant}) -> ${outcome}`;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
