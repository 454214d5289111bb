/**
 * What the emulator answers, as a choice between two profiles:
 *
 * - `default`: everything the emulator models, including the behaviours no public
 *   source shows (api-notes marks them `assumed`; each sits behind one function in
 *   `assumed.ts` or `nouns/<noun>/assumed.ts`). This is what a developer wants to build against.
 * - `documented`: only what a public source shows. Every response field and behaviour
 *   that api-notes marks `assumed` is left out, so a client can be tested for the
 *   tolerance DESIGN §3 asks of it (a field it cannot read back never makes it fail
 *   or loop).
 */
export type EmulatorProfile = 'default' | 'documented';

export const EMULATOR_PROFILES: readonly EmulatorProfile[] = ['default', 'documented'];

export function isEmulatorProfile(value: unknown): value is EmulatorProfile {
  return typeof value === 'string' && (EMULATOR_PROFILES as readonly string[]).includes(value);
}

/** True when the profile answers with the emulator's assumed fields and behaviours. */
export function withAssumed(profile: EmulatorProfile): boolean {
  return profile === 'default';
}
