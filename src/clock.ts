// Time is a dependency (STYLE: deps object), so tests can pin it.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move by hand. */
export function manualClock(start: Date | string | number): Clock & { advance(ms: number): void; set(at: Date): void } {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
    set(at: Date) {
      t = at.getTime();
    },
  };
}
