// A bounded line for costly work (issue 32): at most `running` jobs at once and `waiting` in line;
// a job beyond that is refused at once, so the caller answers 503 with Retry-After before it reads
// a byte of the request's body. A place is taken before the body is read and given back when the
// work is done, so the memory a burst can hold is bounded by running + waiting bodies.

export type Slot = {
  /** Settles when this job may run. */
  ready: Promise<void>;
  /** Gives the place back (a waiting one leaves the line). Idempotent; a no-op once adopted. */
  release(): void;
  /**
   * Takes over the place: release() does nothing from then on, and the function returned gives it
   * back (for work that outlives its request, such as a worker thread still ending).
   */
  adopt(): () => void;
};

export type WorkSlots = {
  /** A place, or null when `waiting` jobs already wait. */
  reserve(): Slot | null;
  load(): { running: number; waiting: number };
};

export function createWorkSlots({
  running: maxRunning,
  waiting: maxWaiting,
}: {
  running: number;
  waiting: number;
}): WorkSlots {
  let running = 0;
  const line: { start(): void }[] = [];

  const next = () => {
    const entry = line.shift();
    if (entry) entry.start();
    else running--;
  };

  return {
    reserve() {
      let started = false;
      let given = false;
      let adopted = false;
      let ready: Promise<void>;
      const entry = {
        start() {
          started = true;
          resolveReady();
        },
      };
      let resolveReady: () => void = () => {};
      if (running < maxRunning) {
        running++;
        started = true;
        ready = Promise.resolve();
      } else if (line.length >= maxWaiting) {
        return null;
      } else {
        ready = new Promise<void>((resolve) => {
          resolveReady = resolve;
        });
        line.push(entry);
      }
      const giveBack = () => {
        if (given) return;
        given = true;
        if (started) next();
        else line.splice(line.indexOf(entry), 1);
      };
      return {
        ready,
        release() {
          if (!adopted) giveBack();
        },
        adopt() {
          adopted = true;
          return giveBack;
        },
      };
    },
    load: () => ({ running, waiting: line.length }),
  };
}
