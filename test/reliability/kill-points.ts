/** Seeded kill points of the killed-apply tests (every engine), so that a run replays from its seed. */

/** A small deterministic generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Three kill points spread over an apply of `totalCreates` creates (early, middle,
 * late), each after a seeded number of acknowledged creates, with a seeded coin for
 * the carriers' handler host (on or off).
 */
export function killPoints(seed: number, totalCreates: number): Array<{ afterCreates: number; host: 'on' | 'off' }> {
  const next = random(seed);
  const third = totalCreates / 3;
  return [0, 1, 2].map((i) => ({
    afterCreates: 1 + Math.floor(i * third + next() * (third - 1)),
    host: next() < 0.5 ? ('on' as const) : ('off' as const),
  }));
}
