/** A place taken in `Slots`: `release` gives it back (once; later calls do nothing). */
export type Slot = { release(): void };

/**
 * At most `size` holders at a time; the others wait in the order they asked (first come, first served). A burst of
 * work then goes through a few at a time, each to its end, instead of every piece advancing a step in turn.
 */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`Slots needs a whole size of at least 1, got ${size}`);
    this.free = size;
  }

  /** The holders now. */
  get held(): number {
    return this.size - this.free;
  }

  /** How many wait for a place. */
  get queued(): number {
    return this.waiting.length;
  }

  async take(): Promise<Slot> {
    if (this.free > 0 && this.waiting.length === 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        // The place goes straight to the first in line; only with nobody waiting does it become free.
        const next = this.waiting.shift();
        if (next) next();
        else this.free++;
      },
    };
  }
}
