// One Node timer for every request deadline of a peer. A `setTimeout` per request and its
// `clearTimeout` on the reply cost ~0.7 µs of host CPU per call when calls run one at a time
// (bench/README.md): each pair creates and drops a timer list, re-sorts the timer queue and
// toggles the loop's reference count. Here a reply costs nothing: the timer stays armed for the
// earliest deadline known when it was set, and when it fires the owner fails what has expired
// and names the next deadline. The timer is referenced only while some request has a deadline,
// so a peer with nothing pending never keeps the process alive.

/** setTimeout's largest delay (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Monotonic milliseconds: deadlines must not move when the wall clock is set. The global
 * `performance` (Node and browsers alike: this module is not Node-only).
 */
export function monotonicNow(): number {
  return performance.now();
}

export class DeadlineTimer {
  /** Called when the armed deadline passes; returns the next deadline to wait for, if any. */
  private readonly onExpire: (now: number) => number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The deadline the timer is armed for (monotonic ms); Infinity when not armed. */
  private armedAt = Number.POSITIVE_INFINITY;
  /** Deadlines still outstanding; the timer holds the process open only while this is > 0. */
  private outstanding = 0;
  private referenced = false;

  constructor(onExpire: (now: number) => number | undefined) {
    this.onExpire = onExpire;
    this.fire = this.fire.bind(this);
  }

  /** A deadline was set (monotonic ms). */
  add(deadline: number): void {
    this.outstanding++;
    if (deadline < this.armedAt) this.arm(deadline);
    if (!this.referenced && this.timer !== undefined) {
      this.timer.ref();
      this.referenced = true;
    }
  }

  /** A deadline no longer matters (answered, aborted, failed). The timer is left armed. */
  remove(): void {
    if (--this.outstanding > 0 || !this.referenced || this.timer === undefined) return;
    this.timer.unref();
    this.referenced = false;
  }

  /** Stops for good (the connection closed). */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    this.outstanding = 0;
    this.referenced = false;
  }

  private arm(deadline: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    const delay = Math.max(0, Math.ceil(deadline - monotonicNow()));
    this.timer = setTimeout(this.fire, Math.min(delay, MAX_TIMER_MS));
    this.armedAt = deadline;
    this.referenced = true;
    if (this.outstanding === 0) {
      this.timer.unref();
      this.referenced = false;
    }
  }

  private fire(): void {
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    this.referenced = false;
    const next = this.onExpire(monotonicNow());
    if (next !== undefined && next < this.armedAt) this.arm(next);
  }
}
