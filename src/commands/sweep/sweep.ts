import type { ResellerClient } from '../../client';
import { definitionOf, Kind } from '../../protocol';
import { createContext, remove, Timing } from '../../reconcile';
import { byText } from '../../stacks';
import { listSweepCandidates, SweepCandidate } from './list';

/**
 * `reseller-hosting sweep`: finds what a test run left in an account by the prefix of
 * its names, and deletes it. The rule, precisely (docs/live-testing.md):
 *
 * - A domain name or host name carries the prefix when its first (leftmost) label
 *   starts with it: `tfacc-1a2b-site.example.com` does, `www.tfacc-1a2b.example.com`
 *   and `tfaccsite.example.com` (for `tfacc-`) do not.
 * - An address `local@domain` (mailbox, forwarder, user e-mail) carries it when its
 *   local part starts with it or its domain carries it.
 * - A DNS record carries it when its owner name does (the leftmost label of its fully
 *   qualified owner, as for any host name): `tfacc-1a2b-www.example.com` in zone
 *   `example.com`, or the apex records of zone `tfacc-1a2b-site.example.com`. A record
 *   in a prefixed zone whose own owner does not carry it (`www.tfacc-1a2b-site.example.com`)
 *   is not swept on its own; it goes only with its package when the package is swept.
 *   The service's records (SOA, NS) are never listed. Records are looked for in every
 *   zone of every package, swept or not.
 * - A package is swept only when EVERY one of its domain names carries it (deleting a
 *   package deletes the mail and zones of all its names); other objects when their name does.
 * - Case-insensitive (names are lowercase in the account). The prefix is at least
 *   MIN_PREFIX characters of letters, digits and "-", so that it cannot be "" or "a".
 */
export const MIN_PREFIX = 5;

/** The problem with a prefix, or undefined when it may be swept. */
export function checkPrefix(prefix: string): string | undefined {
  if (prefix.length < MIN_PREFIX) return `"${prefix}" is shorter than ${MIN_PREFIX} characters: too likely to match objects of real use`;
  if (!/^[a-z0-9][a-z0-9-]*$/i.test(prefix)) return `"${prefix}" must be letters, digits and "-", starting with a letter or digit (it is matched against the start of a name label)`;
  return undefined;
}

/** Whether one name (domain, host name or address) carries the prefix, by the rule above. */
export function nameCarries(name: string, prefix: string): boolean {
  const p = prefix.toLowerCase();
  const text = name.toLowerCase();
  const at = text.lastIndexOf('@');
  const domainCarries = (domain: string) => domain.split('.')[0].startsWith(p);
  if (at < 0) return domainCarries(text);
  return text.slice(0, at).startsWith(p) || domainCarries(text.slice(at + 1));
}

export function carries(candidate: Pick<SweepCandidate, 'names'>, prefix: string): boolean {
  return candidate.names.length > 0 && candidate.names.every((n) => nameCarries(n, prefix));
}

export type SweepAction = 'found' | 'deleted' | 'kept' | 'failed';

export interface SweptObject {
  readonly kind: Kind;
  readonly name: string;
  readonly action: SweepAction;
  /** Why it was kept or failed (the core's words). */
  readonly detail?: string;
}

export interface SweepResult {
  readonly prefix: string;
  readonly objects: SweptObject[];
  /** True when a delete failed, or an object is still there without the core saying why. */
  readonly failed: boolean;
}

export interface SweepOptions {
  /** Delete (without it, only list). */
  readonly yes?: boolean;
  /** Receives the core's progress lines ("deleted mailbox ..."). */
  readonly log?: (line: string) => void;
  /** Read-back polling of the deletes (RESELLER_POLL_INTERVAL and friends). */
  readonly timing?: Partial<Timing>;
}

/** Children before parents (mail before its package), then by name: a stable order. */
function deleteOrder(a: SweepCandidate, b: SweepCandidate): number {
  return definitionOf(b.kind).order - definitionOf(a.kind).order || byText(a.kind, b.kind) || byText(a.name, b.name);
}

/** The objects that carry `prefix`, in the order they would be deleted. */
export async function findPrefixed(client: ResellerClient, prefix: string): Promise<SweepCandidate[]> {
  const problem = checkPrefix(prefix);
  if (problem) throw new Error(`sweep: prefix ${problem}`);
  return (await listSweepCandidates(client)).filter((c) => carries(c, prefix)).sort(deleteOrder);
}

/**
 * Lists the prefixed objects and, with `yes`, deletes each through the core (reconcile
 * `remove`: idempotent, read back until gone; what the API cannot delete, such as a
 * cloud server, is kept with the core's warning). Never touches anything else.
 */
export async function sweep(client: ResellerClient, prefix: string, options: SweepOptions = {}): Promise<SweepResult> {
  const found = await findPrefixed(client, prefix);
  if (!options.yes) return { prefix, objects: found.map((c) => ({ kind: c.kind, name: c.name, action: 'found' })), failed: false };

  const warnings = new Map<SweepCandidate, string[]>();
  const errors = new Map<SweepCandidate, string>();
  // What a swept package holds goes with it: deleting it first would be requests for nothing.
  const swept = new Set(found.map((c) => `${c.kind} ${c.identity.key}`));
  const holderSwept = (c: SweepCandidate) => c.package !== undefined && swept.has(`${definitionOf(c.kind).parent?.kind} ${c.package}`);
  for (const candidate of found) {
    if (holderSwept(candidate)) continue;
    const said: string[] = [];
    warnings.set(candidate, said);
    const ctx = createContext({ client, info: options.log, warn: (line) => said.push(line), timing: options.timing });
    try {
      await remove(ctx, candidate.identity);
    } catch (err) {
      errors.set(candidate, err instanceof Error ? err.message : String(err));
    }
  }
  const still = new Set((await findPrefixed(client, prefix)).map((c) => `${c.kind} ${c.name}`));
  const objects = found.map((c): SweptObject => {
    const error = errors.get(c);
    if (error) return { kind: c.kind, name: c.name, action: 'failed', detail: error };
    if (!still.has(`${c.kind} ${c.name}`)) return { kind: c.kind, name: c.name, action: 'deleted' };
    const said = warnings.get(c) ?? [];
    return { kind: c.kind, name: c.name, action: said.length ? 'kept' : 'failed', detail: said.join('; ') || 'still listed after its delete' };
  });
  return { prefix, objects, failed: objects.some((o) => o.action === 'failed') };
}
