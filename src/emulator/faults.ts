import { validationError } from './assumed';
import { isPlainObject } from './util';

/**
 * Fault injection (POST /__emulator/faults): make chosen requests fail the ways a real
 * network and a real service fail, so clients can be tested for retries, timeouts
 * and "did my write happen?" recovery.
 *
 * A rule matches by method (optional, any when absent) and a regular expression on the
 * path (without the query). Per request, the rules are tried in order and the first
 * one that matches, has firings left (`times`) and wins its draw (`probability`)
 * fires; at most one rule fires. Its effects:
 * - `latencyMs`: wait that long before handling the request;
 * - `status`: answer that status with an error body (and `Retry-After` when
 *   `retryAfterS` is set) WITHOUT performing the request;
 * - `dropAfterCommit`: perform the request (its write is committed and saved), then
 *   destroy the socket without any response: the client sees a connection error and
 *   cannot know the write happened.
 *
 * Draws use a seeded PRNG (mulberry32), so a seed makes a run reproducible. Rules with
 * probability 1 take no draw, so they do not shift the sequence of the others.
 */

export interface FaultRule {
  /** HTTP method, case-insensitive; any method when absent. */
  method?: string;
  /** Regular expression (JavaScript syntax) tested against the request path. */
  path: string;
  /** Answer this status (400..599) instead of performing the request. */
  status?: number;
  /** Chance that a matching request fires the rule, 0..1. Default 1. */
  probability?: number;
  /** Fire at most this many times; unlimited when absent. */
  times?: number;
  /** Delay before handling, milliseconds. */
  latencyMs?: number;
  /** With `status`: send `Retry-After: <seconds>`. */
  retryAfterS?: number;
  /** Perform the request, then drop the connection without a response. */
  dropAfterCommit?: boolean;
}

/** A rule as shown by GET /__emulator/faults: the rule plus how often it fired. */
export interface FaultRuleView extends FaultRule {
  fired: number;
}

interface ActiveRule {
  rule: FaultRule;
  regex: RegExp;
  fired: number;
}

/** Small, fast, seedable PRNG: enough for reproducible fault draws (not for secrets). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Faults {
  private rules: ActiveRule[] = [];
  private seed = 1;
  private random = mulberry32(1);

  /** Replaces the rules (and re-seeds: random when no seed is given). Returns the seed in use. */
  set(rules: FaultRule[], seed?: number): number {
    this.rules = rules.map((rule) => ({ rule, regex: new RegExp(rule.path), fired: 0 }));
    this.seed = seed ?? Math.floor(Math.random() * 2 ** 32);
    this.random = mulberry32(this.seed);
    return this.seed;
  }

  clear(): void {
    this.rules = [];
  }

  list(): { seed: number; rules: FaultRuleView[] } {
    return { seed: this.seed, rules: this.rules.map((r) => ({ ...r.rule, fired: r.fired })) };
  }

  /** The rule that fires for this request, if any (and counts the firing). */
  pick(method: string, path: string): FaultRule | undefined {
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.method !== undefined && rule.method.toUpperCase() !== method.toUpperCase()) continue;
      if (!active.regex.test(path)) continue;
      if (rule.times !== undefined && active.fired >= rule.times) continue;
      const probability = rule.probability ?? 1;
      if (probability < 1 && !(this.random() < probability)) continue;
      active.fired++;
      return rule;
    }
    return undefined;
  }
}

/** Body of POST /__emulator/faults: `{rules: [...], seed?}` or one rule. */
export function parseFaultRequest(body: unknown): { rules: FaultRule[]; seed?: number } {
  if (!isPlainObject(body)) throw validationError('request body must be a JSON object: {rules: [...], seed?} or one rule');
  if (body.rules === undefined) return { rules: [parseRule(body, 'rule')] };
  if (!Array.isArray(body.rules)) throw validationError('rules must be an array');
  let seed: number | undefined;
  if (body.seed !== undefined) {
    if (typeof body.seed !== 'number' || !Number.isInteger(body.seed)) throw validationError('seed must be an integer');
    seed = body.seed;
  }
  return { rules: body.rules.map((r, i) => parseRule(r, `rules[${i}]`)), seed };
}

function parseRule(value: unknown, at: string): FaultRule {
  if (!isPlainObject(value)) throw validationError(`${at} must be an object`);
  const known = ['method', 'path', 'status', 'probability', 'times', 'latencyMs', 'retryAfterS', 'dropAfterCommit'];
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw validationError(`${at} has unknown field(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  const rule: FaultRule = { path: '' };
  if (typeof value.path !== 'string') throw validationError(`${at}.path must be a regular expression string`);
  try {
    new RegExp(value.path);
  } catch (err) {
    throw validationError(`${at}.path is not a valid regular expression: ${(err as Error).message}`);
  }
  rule.path = value.path;
  if (value.method !== undefined) {
    if (typeof value.method !== 'string' || !/^[A-Za-z]+$/.test(value.method)) throw validationError(`${at}.method must be an HTTP method`);
    rule.method = value.method.toUpperCase();
  }
  const int = (key: string, min: number, max: number): number | undefined => {
    const v = value[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw validationError(`${at}.${key} must be an integer from ${min} to ${max}`);
    }
    return v;
  };
  rule.status = int('status', 400, 599);
  rule.times = int('times', 1, Number.MAX_SAFE_INTEGER);
  rule.latencyMs = int('latencyMs', 0, 600_000);
  rule.retryAfterS = int('retryAfterS', 0, 86_400);
  if (value.probability !== undefined) {
    if (typeof value.probability !== 'number' || !(value.probability >= 0 && value.probability <= 1)) {
      throw validationError(`${at}.probability must be a number from 0 to 1`);
    }
    rule.probability = value.probability;
  }
  if (value.dropAfterCommit !== undefined) {
    if (typeof value.dropAfterCommit !== 'boolean') throw validationError(`${at}.dropAfterCommit must be a boolean`);
    rule.dropAfterCommit = value.dropAfterCommit;
  }
  if (rule.status === undefined && rule.latencyMs === undefined && !rule.dropAfterCommit) {
    throw validationError(`${at} does nothing: give status, latencyMs or dropAfterCommit`);
  }
  if (rule.status !== undefined && rule.dropAfterCommit) {
    throw validationError(`${at}: status (answer without performing) and dropAfterCommit (perform, no answer) exclude each other`);
  }
  if (rule.retryAfterS !== undefined && rule.status === undefined) throw validationError(`${at}.retryAfterS needs status`);
  // Drop undefined members so the rule reads cleanly in GET /__emulator/faults.
  return JSON.parse(JSON.stringify(rule)) as FaultRule;
}
