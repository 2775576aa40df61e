/**
 * Turns at something costly: at most `slots` holders at once, the others waiting in line in the
 * order they came, at most `maxWaiting` of them (then the caller is told at once rather than
 * queued for minutes).
 */
export class Turns {
  private running = 0;
  private line: Array<() => void> = [];
  /** The most holders seen at once (for tests: never above `slots`). */
  peak = 0;

  constructor(
    readonly slots: number,
    readonly maxWaiting: number,
  ) {}

  /** True when a new caller would have neither a turn nor a place in line. */
  get full(): boolean {
    return this.running >= this.slots && this.line.length >= this.maxWaiting;
  }

  get waiting(): number {
    return this.line.length;
  }

  /**
   * Waits for a turn (`onWait` is called first when it must wait); answers the release, to be
   * called once in a `finally`. Throws `whenFull()` when the line is full.
   */
  async take(whenFull: () => Error, onWait: () => void = () => {}): Promise<() => void> {
    if (this.running < this.slots) this.running++;
    else {
      if (this.line.length >= this.maxWaiting) throw whenFull();
      onWait();
      // release() hands its place straight to the next in line.
      await new Promise<void>((resolve) => this.line.push(resolve));
    }
    this.peak = Math.max(this.peak, this.running);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.line.shift();
      if (next) next();
      else this.running--;
    };
  }
}
