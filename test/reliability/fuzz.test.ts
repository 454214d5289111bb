/**
 * Bad input to the emulator, property-based (fast-check): thousands of requests to
 * every route of docs/emulator.md (API and control, authenticated and not) with
 * malformed bodies, wrong types, huge strings, deep nesting, odd unicode, unknown
 * paths and wrong methods. Every answer must be a 4xx JSON error
 * `{"error": {"message": string}}` (401 for a bad key, 404 "No route handler" for an
 * unknown route), never a 5xx or a dropped connection, and the state
 * (GET /__emulator/state minus `now`, plus the fault rules) must be exactly as before.
 *
 * Every generated request is wrong BY CONSTRUCTION: a bad key, an unknown route, a bad
 * path parameter, or a body with at least one field that no valid request could carry
 * (often next to valid fields, and sometimes after valid writes in the same body, so
 * that a half-applied change would show). Documented no-op successes (a mail `delete`
 * of a nested shape, `delete-id` of unknown ids, empty grant/user maps) are valid
 * requests and are deliberately not generated.
 *
 * Values are generated as small "recipes" (e.g. `deepArray(40000)`) that are expanded
 * when sent, so a counterexample prints short. Reproduce with RELIABILITY_FUZZ_SEED.
 */
import http from 'node:http';
import fc from 'fast-check';
import { RunningEmulator, startEmulator } from '../../src/emulator';
import { bearer, rawRequest, RawResponse } from './support';

const SEED = Number(process.env.RELIABILITY_FUZZ_SEED ?? 20250607);
const API_RUNS = Number(process.env.RELIABILITY_FUZZ_API_RUNS ?? 6000);
const CONTROL_RUNS = Number(process.env.RELIABILITY_FUZZ_CONTROL_RUNS ?? 1500);

const KEY = 'fuzz-key-of-account-a';
const OTHER_KEY = 'fuzz-key-of-account-b';
const OTHER_ACCOUNT = 555000;

let emu: RunningEmulator;
let agent: http.Agent;
const internalErrors: string[] = [];
let baselineState: string;
let baselineFaults: string;
/** Ids of the seeded objects (filled in beforeAll; generators read them lazily). */
const ids = { pkg: 0, cloudPkg: 0, server: 0, mailbox: '', forwarder: '', otherPkg: 0, otherUser: '', dnsMx: 0, dnsNs: 0, dnsWww: 0 };

// ---------------------------------------------------------------------------------
// Sending

const send = (req: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer }) =>
  rawRequest(agent, emu.url, req);

async function api(method: string, path: string, body?: unknown, key = KEY) {
  const res = await send({
    method, path, headers: { authorization: bearer(key), 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return JSON.parse(res.text);
}

async function control(method: string, path: string, body?: unknown) {
  const res = await send({ method, path: `/__emulator/${path}`, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`control ${method} ${path}: ${res.status} ${res.text}`);
  return JSON.parse(res.text);
}

async function stateText(): Promise<string> {
  const dump = await control('GET', 'state');
  delete dump.now;
  return JSON.stringify(dump);
}

async function faultsText(): Promise<string> {
  return JSON.stringify(await control('GET', 'faults'));
}

// ---------------------------------------------------------------------------------
// Raw JSON pieces: expanded when sent, printed as their recipe

class Raw {
  /** `binary`: `make()` gives bytes as latin1 text (to send bytes that are not UTF-8). */
  constructor(readonly label: string, readonly make: () => string, readonly binary = false) {}
  [fc.toStringMethod](): string {
    return this.label;
  }
}
const deepArray = (n: number) => new Raw(`deepArray(${n})`, () => '['.repeat(n) + ']'.repeat(n));
const deepObject = (n: number) => new Raw(`deepObject(${n})`, () => '{"a":'.repeat(n) + '0' + '}'.repeat(n));
const hugeString = (n: number, unit: string) => new Raw(`hugeString(${n}, ${JSON.stringify(unit)})`, () => JSON.stringify(unit.repeat(n)));

/** JSON text of a value that may hold Raw pieces. */
function serialize(v: unknown): string {
  if (v instanceof Raw) return v.make();
  if (Array.isArray(v)) return `[${v.map(serialize).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const parts = Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => `${JSON.stringify(k)}:${serialize(x)}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

// ---------------------------------------------------------------------------------
// Building blocks

const ODD = [
  '\u202E', '\u200B', '\u200D', '\uFEFF', '\u0000', '\u0301', '\uD800', '\uDFFF', '💥', '👩‍👩‍👧', 'ﷺ', 'ß', 'İ', 'Ⅻ',
  '\u2028', '\u2029', 'е', '\t', '\n', '\r', ' ', '"', '\\', '/', '%', '{', '[', '<script>', "'", '`', '${x}', '%s', '..', '__proto__', 'constructor',
];
const oddString = fc
  .array(fc.oneof(fc.constantFrom(...ODD), fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 10 })
  .map((parts) => parts.join(''));
const smallJson = fc.jsonValue({ maxDepth: 2 });
const deep = fc.oneof(fc.integer({ min: 2000, max: 60000 }).map(deepArray), fc.integer({ min: 2000, max: 60000 }).map(deepObject));
const huge = fc.oneof(
  fc.integer({ min: 300, max: 4000 }).map((n) => hugeString(n, 'x')),
  fc.integer({ min: 50_000, max: 400_000 }).map((n) => hugeString(n, 'a')),
  fc.integer({ min: 1000, max: 50_000 }).map((n) => hugeString(n, '💥')),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => hugeString(n, '\u0000')),
);
/** Anything but a string (and not null, which some fields read as "absent"). */
const notString = fc.oneof(
  { arbitrary: fc.integer(), weight: 2 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.array(smallJson, { maxLength: 3 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), smallJson, { maxKeys: 3 }), weight: 1 },
  { arbitrary: deep, weight: 2 },
);
/** Anything but a plain object with the expected members. */
const notObject: fc.Arbitrary<unknown> = fc.oneof<fc.Arbitrary<unknown>[]>(fc.integer(), fc.boolean(), oddString, fc.array(smallJson, { maxLength: 3 }), fc.constant(null), deep);
const notArray: fc.Arbitrary<unknown> = fc.oneof<fc.Arbitrary<unknown>[]>(
  fc.integer(), fc.boolean(), oddString, fc.dictionary(fc.string({ maxLength: 6 }), smallJson, { maxKeys: 3 }), fc.constant(deepObject(3000)),
);
/** What a JSON body carries as null or a blank string (NaN and Infinity serialise to null). */
const blankInJson = (v: unknown) => v === null || (typeof v === 'string' && v.trim() === '') || (typeof v === 'number' && !Number.isFinite(v));
/** A string with whitespace inside after trimming: never a name, local part, address or user ref. */
const spaced = fc.tuple(oddString, oddString).map(([a, b]) => `q${a} ${b}q`);

const badDomain = fc.oneof(
  fc.constantFrom(
    '', ' ', 'localhost', 'example', '-x-.example', 'a..b.example', 'exa_mple.example', '1.2.3.4', `${'x'.repeat(64)}.example`,
    `${'a.'.repeat(127)}example`, 'exa\u0000mple.example', '.example', 'http://x.example', 'user@x.example', '*.example',
    // not names, whatever a URL parser makes of them
    'x.example/path', 'x.example?q=1', 'x.example#frag', 'x.example\\evil',
  ),
  spaced, notString, fc.constant(null), huge,
);
const badLocal = fc.oneof(
  fc.constantFrom('', ' ', '.info', 'info.', 'in..fo', 'x'.repeat(65), 'ïnfo', 'in@fo', 'info/x', '-'),
  spaced, notString, fc.constant(null), huge,
);
const badEmail = fc.oneof(
  fc.constantFrom('', 'nobody', '@example.org', 'a@', 'a@localhost', '"quoted"@example.org', `${'x'.repeat(65)}@example.org`, 'a@-x-.org'),
  spaced, notString, fc.constant(null), huge,
);
// JSON booleans are valid mailbox flags too (PHP clients send them; issue 15).
const badStringBoolean = fc.oneof(fc.constantFrom('TRUE', 'True', '1', '0', 'yes', '', ' true'), fc.integer(), fc.constant(null), notObject.filter((v) => typeof v !== 'boolean'));
const badBoolean = fc.oneof(fc.constantFrom('true', 'false', '1', 0, 1, 'yes', ''), fc.constant(null), fc.array(smallJson, { maxLength: 2 }), deep);
const badPassword = fc.oneof(
  fc.string({ maxLength: 7 }), fc.string({ minLength: 129, maxLength: 300 }), notString, fc.constant(null), huge, // huge: 300+ units
);
const badUserRef = fc.oneof(
  fc.constantFrom(
    'stack-user:', 'stack-user:abc', 'Stack-User:989901', 'stack-user:-1', 'stack-user:1.5', 'stack-user:9999999999999999',
    'stack-user:999999', 'user:989901', ' stack-user:989901', 'stack-user:989901 ',
  ),
  fc.constant(null).map(() => ids.otherUser), // a user of the other account
  spaced, notString, huge,
);
const TYPE_IDS = new Set([811, 812, 813, 820]);
const asId = (v: unknown) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : typeof v === 'string' && /^[0-9]{1,15}$/.test(v) ? Number(v) : undefined;
const badTypeId = fc
  .oneof(fc.constantFrom('Linux Unlimited', '', '8 11', '811.0', '-811', '0x32b', '999', 999, 0, -1, 811.5, '1e3', ' 811'), notString, fc.constant(null), huge)
  .filter((v) => !TYPE_IDS.has(asId(v) as number));
const badLabel = fc.oneof(notString, fc.constant('L'.repeat(256)), huge); // huge: 300+ units, over the 255 limit

/** A generated value as an object member name. */
function asKey(k: unknown): string {
  if (typeof k === 'string') return k;
  if (k instanceof Raw) return k.label;
  return JSON.stringify(k) ?? 'undefined';
}

type Fields = Record<string, { good: fc.Arbitrary<unknown>; bad: fc.Arbitrary<unknown>; optional?: boolean }>;

/**
 * An object whose fields are each good, bad or (when optional) absent, with at least
 * one field forced bad: a request no valid call could be.
 */
function nearMiss(fields: Fields): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(fields);
  const choice = (name: string) => {
    const f = fields[name];
    const options: Array<fc.Arbitrary<unknown>> = [f.good, f.bad];
    if (f.optional) options.push(fc.constant(undefined));
    return fc.oneof(...options);
  };
  return fc
    .tuple(
      fc.constantFrom(...names),
      fc.record(Object.fromEntries(names.map((n) => [n, choice(n)]))),
      // the forced field is sometimes nested thousands of levels deep: bad for any field
      fc.record(Object.fromEntries(names.map((n) => [n, fc.oneof({ weight: 4, arbitrary: fields[n].bad }, { weight: 1, arbitrary: deep })]))),
    )
    .map(([forced, values, bads]) => {
      const out: Record<string, unknown> = {};
      for (const n of names) if (values[n] !== undefined) out[n] = values[n];
      out[forced] = bads[forced];
      return out;
    });
}

/** Objects with member names no route knows (so required members are missing). */
const KNOWN_FIELDS = new Set([
  'type', 'domain_name', 'extra_domain_names', 'label', 'documentRoots', 'stackUser', 'delete-id', 'id', 'packageBundleTypes', 'labels',
  'add', 'rem', 'subservices', 'includeRepeated', 'new', 'update', 'delete', 'grant_map', 'newUser', 'users', 'configuration',
  'periodMonths', 'forUser', 'rules', 'seed', 'path', 'method', 'status', 'probability', 'times', 'latencyMs', 'retryAfterS',
  'dropAfterCommit', 'name', 'logoUrl', 'account', 'apiKey', 'balance', 'provisionDelayMs', 'conflictPolicy', 'insertPolicy',
  'package', 'zone', 'ref', 'record',
]);
const unknownMembers = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'toString', 'TYPE', 'Domain_Name')).filter((k) => !KNOWN_FIELDS.has(k)),
  fc.oneof(smallJson, deep, huge),
  { maxKeys: 4 },
);

/** Body text that is not JSON (and not blank, which would be "no body"). */
const malformedJson = fc
  .oneof(
    oddString,
    fc.constantFrom('{', '[', '{"a":1,}', '{"a"}', "{'a':1}", 'nul', 'tru', 'NaN', '01', '{"a":1}{', '\uFEFF{"a":1}', '{"a":"\\x"}', ']', '"unterminated'),
    fc.jsonValue().map((v) => `${JSON.stringify(v)},`),
    fc.integer({ min: 2000, max: 60000 }).map((n) => new Raw(`unclosed(${n})`, () => '['.repeat(n))),
  )
  .filter((t) => {
    const text = t instanceof Raw ? '[' : t;
    if (text.trim() === '') return false;
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  });

/** JSON whose string holds bytes that are not UTF-8 (POST bodies: one member, always a bad request). */
const invalidUtf8 = fc
  .tuple(
    fc.constantFrom('type', 'domain_name', 'new', 'delete-id', 'grant_map', 'configuration', 'subservices', 'add'),
    fc.constantFrom('\xff', '\xfe\xff', '\xc3\x28', '\xe2\x28\xa1', '\xf0\x28\x8c\xbc', '\xed\xa0\x80', '\xc0\xaf', '\x80'),
  )
  .map(([field, bytes]) => new Raw(`invalidUtf8(${field}, ${JSON.stringify(bytes)})`, () => `{"${field}":"a${bytes}b"}`, true));

/** Form-encoded bodies (`application/x-www-form-urlencoded`), incl. very deep bracket keys. */
const formBody = (field: string) =>
  fc.oneof(
    fc.integer({ min: 1000, max: 100_000 }).map((n) => new Raw(`form ${field}[]×${n}`, () => `${field}${'[]'.repeat(n)}=1`)),
    fc.integer({ min: 1000, max: 100_000 }).map((n) => new Raw(`form ${field}[x]×${n}`, () => `${field}${'[x]'.repeat(n)}=1`)),
    fc.constantFrom(`${field}=1&${field}[a]=2`, `${field}[a]=1&${field}=2`, `[${field}]=1`, `${field}[=1`, `${field}]=1`, `__proto__[x]=1`, `${field}[__proto__]=1`),
    oddString.map((s) => `${encodeURIComponentSafe(s)}=${encodeURIComponentSafe(s)}`),
  );

// ---------------------------------------------------------------------------------
// Paths

/** Percent-encodes UTF-8 bytes (never throws, unlike encodeURIComponent on a lone surrogate). */
function encodeURIComponentSafe(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9._~*-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** A path segment: encoded text, or raw bytes sent as they are (malformed escapes). */
type Segment = { raw: string } | string;
const rawSegment = fc.constantFrom<Segment>({ raw: '%' }, { raw: '%zz' }, { raw: '%E0%A4%A' }, { raw: '%C3%28' }, { raw: '%00' }, { raw: '%2F' });
/** Methods with no route for this path (PUT, DELETE, ... and GET/POST when the other does not exist). */
function otherMethods(route: Route): string[] {
  const taken = new Set(ROUTES.filter((r) => r.template === route.template).map((r) => r.method));
  return ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'GET', 'POST'].filter((m) => !taken.has(m as Route['method']));
}
const segText = (s: Segment) => (typeof s === 'string' ? encodeURIComponentSafe(s) : s.raw);

const oddSegment: fc.Arbitrary<Segment> = fc.oneof(oddString.filter((s) => s !== ''), rawSegment, fc.string({ minLength: 200, maxLength: 2000 }));
const goodReseller = fc.constantFrom<Segment>('*', '989900');
const badReseller = fc.oneof(fc.constantFrom<Segment>('989901', String(OTHER_ACCOUNT), '0', 'x', '**', '-1', '989900.0', ' *'), oddSegment);
const goodPkg = fc.constantFrom<Segment>('PKG', 'fuzz-site.example', 'fuzz-extra.example', 'FUZZ-SITE.EXAMPLE').map((s) => (s === 'PKG' ? String(ids.pkg) : s));
const badPkg = fc.oneof(
  fc.constantFrom<Segment>('999999', 'OTHERPKG', 'other-site.example', 'nope.example', '-1', '1.0', '0', 'fuzz-site', 'xn--.example').map((s) =>
    s === 'OTHERPKG' ? String(ids.otherPkg) : s,
  ),
  oddSegment,
);
const goodMailDomain = fc.constantFrom<Segment>('fuzz-site.example', 'fuzz-extra.example');
const badMailDomain = fc.oneof(fc.constantFrom<Segment>('fuzz-cloud.example', 'nope.example', 'other-site.example', 'example'), oddSegment);
// Every name of a package is a zone apex; a subdomain, another package's name or the cloud package's is not one here.
const goodZone = fc.constantFrom<Segment>('fuzz-site.example', 'fuzz-extra.example', 'FUZZ-SITE.example');
const badZone = fc.oneof(fc.constantFrom<Segment>('www.fuzz-site.example', 'fuzz-cloud.example', 'other-site.example', 'example', 'nope.example', 'site.example'), oddSegment);
const goodServer = fc.constant<Segment>('SERVER').map(() => String(ids.server));
const badServer = fc.oneof(fc.constantFrom<Segment>('999999', 'fuzz-server.example', '-1', '300000'), oddSegment);

interface ParamKind {
  good: fc.Arbitrary<Segment>;
  bad: fc.Arbitrary<Segment>;
}
const PARAMS: Record<string, ParamKind> = {
  reseller: { good: goodReseller, bad: badReseller },
  pkg: { good: goodPkg, bad: badPkg },
  domain: { good: goodMailDomain, bad: badMailDomain },
  server: { good: goodServer, bad: badServer },
  zone: { good: goodZone, bad: badZone },
};

// ---------------------------------------------------------------------------------
// Routes of docs/emulator.md and their bodies

interface Route {
  method: 'GET' | 'POST';
  template: string;
  /** A body no valid request could have (POST routes only). */
  badBody?: () => fc.Arbitrary<unknown>;
  /** A valid body (used with a bad path parameter or a bad key: the request must still fail). */
  goodBody?: () => fc.Arbitrary<unknown>;
}

const freshMailbox = { local: 'fresh-box', send: 'true', receive: 'true', password: 'Fresh-Passw0rd' };
const mailboxFields = (): Fields => ({
  local: { good: fc.constant('fresh-box'), bad: fc.oneof(badLocal, fc.constant('info')) }, // info exists: 409
  send: { good: fc.constantFrom('true', 'false'), bad: badStringBoolean },
  receive: { good: fc.constantFrom('true', 'false'), bad: badStringBoolean },
  password: { good: fc.constant('Fresh-Passw0rd'), bad: badPassword },
});
/** Deletes of real objects that must NOT happen, because an earlier part of the body fails. */
const doomedDeletes = () => fc.option(fc.constant([ids.mailbox, ids.forwarder]), { nil: undefined });

const NO_RECORDS = { A: [], AAAA: [], CNAME: [], MX: [], TXT: [], SRV: [] };
const freshTxt = { ...NO_RECORDS, TXT: [{ host: 'fresh', txt: 'v=fresh' }] };
const badHost = fc.oneof(fc.constantFrom('www.fuzz-site.example.', 'bad host', '', '-x', 'a..b', '**', 'x.*', 'ä'.repeat(70), 'l'.repeat(64)), notString, fc.constant(null));
/** A `new` no valid write could carry (never null or absent: those mean "no adds"). */
const badNewRecords = fc.oneof(
  notObject.filter((v) => v !== null && v !== undefined),
  fc.constantFrom({ NS: [{ host: 'sub', target: 'ns.example.net' }] }, { PTR: [] }, { a: [] }, { SOA: [] }),
  fc.constantFrom('A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV').chain((type) => notArray.filter((v) => v !== null && v !== undefined).map((v) => ({ [type]: v }))),
  fc.oneof(
    fc.record({ host: badHost, ip: fc.constant('192.0.2.9') }).map((r) => ({ A: [r] })),
    fc.record({ host: fc.constant('x'), ip: fc.oneof(fc.constantFrom('2001:db8::1', '256.1.1.1', '1.2.3', '', ' 192.0.2.1'), notString, fc.constant(null)) }).map((r) => ({ A: [r] })),
    fc.record({ host: fc.constant('x'), ipv6: fc.oneof(fc.constantFrom('192.0.2.1', '2001:db8:::1', 'g::1', ''), notString) }).map((r) => ({ AAAA: [r] })),
    fc.record({ host: fc.constant('x'), target: fc.oneof(fc.constantFrom('localhost', '', 'a..b', 'bad name.example', '.'), notString, fc.constant(null)) }).map((r) => ({ CNAME: [r] })),
    fc.record({ host: fc.constant('@'), pri: fc.constantFrom(-1, 65536, 1.5, '10x', '', null, true, []), target: fc.constant('mx.example.net') }).map((r) => ({ MX: [r] })),
    fc.record({ host: fc.constant('@'), txt: fc.oneof(fc.constantFrom('', 'a\u0000b', 'line\nbreak', 'x'.repeat(4097)), notString, fc.constant(null)) }).map((r) => ({ TXT: [r] })),
    fc.record({ host: fc.constant('_x._tcp'), pri: fc.constant(1), weight: fc.constant(1), port: fc.constantFrom(70000, -1, 'http', null), target: fc.constant('a.example.net') }).map((r) => ({ SRV: [r] })),
    fc.array(notObject.filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)), { minLength: 1, maxLength: 2 }).map((list) => ({ TXT: list })),
  ).map((bad) => ({ ...freshTxt, ...bad })),
);
/** The apex MX of the seeded zone: deleting it must NOT happen when the rest of the body fails. */
const doomedDnsDeletes = () => fc.option(fc.constant([String(ids.dnsMx)]), { nil: undefined });

const ROUTES: Route[] = [
  { method: 'GET', template: '/reseller/:reseller/susers' },
  {
    method: 'POST',
    template: '/reseller/:reseller/susers',
    goodBody: () => fc.constant({ newUser: { email: 'fresh-user@example.org' } }),
    badBody: () =>
      fc.oneof(
        unknownMembers,
        fc.constant({ newUser: { email: 'x@example.org' }, users: {} }),
        fc.record({ grant_map: notObject }),
        fc.record({ grant_map: fc.tuple(badUserRef, smallJson).map(([k, v]) => ({ [asKey(k)]: v })) }),
        fc.constant(null).map(() => ({ grant_map: { 'stack-user:999999': { [`package:${ids.pkg}`]: true } } })),
        fc.record({ grant_map: notObject.map((v) => ({ 'stack-user:989901': v })) }),
        fc.constantFrom('domain:1', 'vps:1', 'package:abc', 'package:', 'PACKAGE:1', 'other').map((k) => ({ grant_map: { 'stack-user:989901': { [k]: true } } })),
        badBoolean.map((v) => ({ grant_map: { 'stack-user:989901': { [`package:${ids.pkg}`]: v } } })),
        fc.constant(null).map(() => ({ grant_map: { 'stack-user:989901': { [`package:${ids.otherPkg}`]: true } } })),
        // a valid grant, then a bad one: the first must be rolled back
        fc.constant(null).map(() => ({ grant_map: { 'stack-user:989902': { [`package:${ids.pkg}`]: true, 'package:999999': true } } })),
        fc.record({ newUser: notObject }),
        fc.record({ newUser: fc.record({ email: badEmail }) }),
        fc.record({ newUser: fc.record({ email: fc.constant('fresh-user@example.org'), person_name: fc.oneof(notString.filter((v) => typeof v !== 'number'), fc.constant('P'.repeat(256))) }) }), // numbers are text (PHP)
        fc.constant({ newUser: { email: 'OWNER@example.com' } }), // exists: 409
        fc.record({ users: notObject }),
        fc.record({ users: badUserRef.map((k) => ({ [asKey(k)]: { delete: true } })) }),
        fc.constant({ users: { 'stack-user:999999': { delete: true } } }),
        fc.record({ users: fc.oneof(notObject, badBoolean.map((v) => ({ delete: v })), fc.constant({ delete: false })).map((v) => ({ 'stack-user:989901': v })) }),
        // a valid delete, then a bad one: rolled back
        fc.constant({ users: { 'stack-user:989902': { delete: true }, 'stack-user:999999': { delete: true } } }),
      ),
  },
  { method: 'GET', template: '/reseller/:reseller/packageTypes' },
  {
    method: 'POST',
    template: '/reseller/:reseller/addWeb',
    goodBody: () => fc.constant({ type: '811', domain_name: 'fresh-site.example' }),
    badBody: () =>
      fc.oneof(
        unknownMembers,
        nearMiss({
          type: { good: fc.constantFrom('811', 812, '820'), bad: badTypeId },
          domain_name: { good: fc.constant('fresh-site.example'), bad: fc.oneof(badDomain, fc.constantFrom('fuzz-site.example', 'FUZZ-EXTRA.example')) },
          extra_domain_names: {
            good: fc.constantFrom([], ['fresh-extra.example']),
            bad: fc.oneof(notArray, fc.array(badDomain, { minLength: 1, maxLength: 3 }), fc.constantFrom(['dup.example', 'DUP.example'], ['fuzz-cloud.example'], ['fresh-site.example'])),
            optional: true,
          },
          label: { good: fc.constantFrom('Fresh', ''), bad: badLabel, optional: true },
          documentRoots: {
            good: fc.constant({}),
            // [] is PHP's empty map: valid
            bad: fc.oneof(notObject.filter((v) => v !== null && !(Array.isArray(v) && v.length === 0)), fc.constantFrom({ 'unrelated.example': 'www' }, { 'fresh-site.example': '../etc' }, { 'fresh-site.example': '/abs' }, { 'fresh-site.example': 'a\u0000b' }, { 'fresh-site.example': '' }, { 'fresh-site.example': 5 })),
            optional: true,
          },
          stackUser: { good: fc.constantFrom(null, 'stack-user:989901'), bad: badUserRef, optional: true },
        }),
      ),
  },
  { method: 'GET', template: '/package' },
  { method: 'GET', template: '/package/:pkg' },
  {
    method: 'POST',
    template: '/reseller/:reseller/deleteWeb',
    goodBody: () => fc.constant(null).map(() => ({ 'delete-id': [String(ids.pkg)] })),
    badBody: () =>
      fc.oneof(
        unknownMembers,
        fc.record({ 'delete-id': notArray }),
        // real ids, then an item that is no id at all: nothing may be deleted
        fc
          .tuple(fc.array(fc.constantFrom('PKG', 'CLOUDPKG', '999999', 'x'), { maxLength: 3 }), fc.oneof(fc.constant(null), fc.boolean(), fc.dictionary(fc.string(), smallJson, { maxKeys: 2 }), fc.array(smallJson, { maxLength: 2 }), deep))
          .map(([before, bad]) => ({ 'delete-id': [...before.map((x) => (x === 'PKG' ? ids.pkg : x === 'CLOUDPKG' ? String(ids.cloudPkg) : x)), bad] })),
      ),
  },
  {
    method: 'POST',
    template: '/reseller/:reseller/updatePackage',
    goodBody: () => fc.constant(null).map(() => ({ id: [ids.pkg], labels: { [ids.pkg]: 'Renamed' } })),
    badBody: () =>
      fc.oneof(
        unknownMembers,
        fc.record({ id: fc.oneof(notArray, fc.constant([]), fc.array(fc.oneof(notString.filter((v) => asId(v) === undefined), fc.constantFrom('x', '-1', '1.5')), { minLength: 1, maxLength: 2 })), labels: fc.constant({ 1: 'x' }) }),
        fc.constant(null).map(() => ({ id: [999999], labels: { 999999: 'x' } })),
        fc.constant(null).map(() => ({ id: [ids.otherPkg], labels: { [ids.otherPkg]: 'x' } })),
        fc.constant(null).map(() => ({ id: [ids.pkg] })), // nothing to update
        fc.tuple(fc.oneof(notObject.filter((v) => v !== null), badTypeId.map((t) => ({ PKG: t })), fc.constantFrom({ PKG: '813' }, { PKG: 813 }, { 999999: '811' })), fc.option(fc.constant({ PKG: 'Renamed' }), { nil: undefined }))
          .map(([pbt, labels]) => ({ id: [ids.pkg], packageBundleTypes: rekey(pbt), labels: rekey(labels) })),
        fc.tuple(fc.oneof(notObject.filter((v) => v !== null), badLabel.map((l) => ({ PKG: l })), fc.constant({ 999999: 'x' })), fc.option(fc.constant({ PKG: '812' }), { nil: undefined }))
          .map(([labels, pbt]) => ({ id: [ids.pkg], packageBundleTypes: rekey(pbt), labels: rekey(labels) })),
      ),
  },
  {
    method: 'POST',
    template: '/package/:pkg/names',
    goodBody: () => fc.constant({ add: ['fresh-name.example'] }),
    badBody: () =>
      fc.oneof(
        unknownMembers,
        fc.record({ add: notArray, rem: fc.constantFrom(undefined, [], ['fuzz-extra.example']) }),
        fc.record({ add: fc.array(badDomain, { minLength: 1, maxLength: 2 }) }),
        fc.constant({ add: ['fuzz-cloud.example'] }), // on another package: 409
        fc.record({ add: fc.constantFrom(undefined, null, ['fresh-name.example']), rem: fc.oneof(notArray, fc.array(badDomain, { minLength: 1, maxLength: 2 }), fc.constant(['fuzz-site.example'])) }),
      ),
  },
  {
    method: 'POST',
    template: '/package/:pkg/userStatus',
    goodBody: () => fc.constant({ subservices: { default: false } }),
    badBody: () =>
      fc.oneof(
        unknownMembers,
        fc.record({ subservices: notObject }),
        fc.record({ subservices: fc.record({ default: badBoolean }) }),
        fc.record({ subservices: fc.constant({ default: false }), includeRepeated: badBoolean }),
      ),
  },
  { method: 'GET', template: '/package/:pkg/email/:domain' },
  {
    method: 'POST',
    template: '/package/:pkg/email/:domain',
    goodBody: () => fc.constant({ new: { mailbox: freshMailbox } }),
    badBody: () =>
      fc.oneof(
        unknownMembers,
        fc.tuple(nearMiss(mailboxFields()), doomedDeletes()).map(([mailbox, del]) => ({ new: { mailbox }, delete: del })),
        fc.tuple(
          nearMiss({
            local: { good: fc.constant('fresh-fwd'), bad: badLocal },
            remote: { good: fc.constant('target@example.org'), bad: badEmail },
          }),
          doomedDeletes(),
        ).map(([forward, del]) => ({ new: { forward }, delete: del })),
        fc.constant({ new: { forward: { local: 'sales', remote: 'Team@example.org' } } }), // exists: 409
        fc.record({ new: fc.oneof(notObject, fc.constant({}), fc.constant({ mailbox: freshMailbox, forward: { local: 'x', remote: 'y@example.org' } }), fc.constant({ alias: { local: 'x' } })) }),
        // a valid create, then a bad update (and deletes): all rolled back
        fc
          .tuple(
            fc.option(fc.constant(freshMailbox), { nil: undefined }),
            fc.oneof(
              notObject,
              fc.record({ mailbox: notArray }),
              fc.record({ mailbox: fc.array(notObject.filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)), { minLength: 1, maxLength: 2 }) }),
              nearMiss({
                id: { good: fc.constant('MAILBOX'), bad: fc.oneof(fc.constantFrom('m999999', 'x', 'FORWARDER', 'm', ''), notString, fc.constant(null)) },
                send: { good: fc.constantFrom('true', 'false'), bad: badStringBoolean, optional: true },
                receive: { good: fc.constantFrom('true', 'false'), bad: badStringBoolean, optional: true },
                password: { good: fc.constant('Changed-Passw0rd'), bad: badPassword, optional: true },
              }).map((entry) => ({ mailbox: [{ ...entry, id: entry.id === 'MAILBOX' ? ids.mailbox : entry.id === 'FORWARDER' ? ids.forwarder : entry.id }] })),
            ),
            doomedDeletes(),
          )
          .map(([mailbox, update, del]) => ({ new: mailbox ? { mailbox } : undefined, update, delete: del })),
      ),
  },
  { method: 'GET', template: '/package/:pkg/dns' },
  { method: 'GET', template: '/package/:pkg/dns/:zone' },
  {
    method: 'POST',
    template: '/package/:pkg/dns/:zone',
    goodBody: () => fc.constant({ conflictPolicy: 'reject', insertPolicy: 'append', new: freshTxt, delete: [] }),
    badBody: () =>
      fc.oneof(
        unknownMembers,
        nearMiss({
          conflictPolicy: { good: fc.constantFrom('reject', 'replace', 'ignore'), bad: fc.oneof(fc.constantFrom('REJECT', '', 'overwrite', ' reject'), notString, fc.constant(null)) },
          insertPolicy: { good: fc.constantFrom('append', 'replace'), bad: fc.oneof(fc.constantFrom('APPEND', '', 'prepend'), notString, fc.constant(null)) },
          new: { good: fc.constant(freshTxt), bad: badNewRecords },
          delete: {
            good: fc.constant([String(ids.dnsMx)]).map(() => [String(ids.dnsMx)]),
            bad: fc.oneof(
              notArray.filter((v) => v !== null && v !== undefined),
              fc.constantFrom(['abc'], [-1], [1.5], [''], [' 1'], [null], [[1]], ['1e3']),
              fc.constant(null).map(() => [String(ids.dnsNs)]), // the apex NS: never deleted
            ),
          },
        }),
        // a CNAME beside the seeded A at www, under reject: 409 and nothing deleted
        doomedDnsDeletes().map((del) => ({ conflictPolicy: 'reject', insertPolicy: 'append', new: { ...NO_RECORDS, TXT: [{ host: 'fresh', txt: 'x' }], CNAME: [{ host: 'www', target: 'elsewhere.example.net' }] }, delete: del })),
        // a CNAME at the apex conflicts with the SOA and NS, which replace never removes
        doomedDnsDeletes().map((del) => ({ conflictPolicy: 'replace', insertPolicy: 'replace', new: { ...NO_RECORDS, CNAME: [{ host: '@', target: 'elsewhere.example.net' }] }, delete: del })),
      ),
  },
  { method: 'GET', template: '/cloud_server' },
  { method: 'GET', template: '/cloud_server/:server' },
  {
    method: 'POST',
    template: '/reseller/:reseller/addCloudServer',
    goodBody: () => fc.constant(cloudOrder({})),
    badBody: () =>
      fc.oneof(
        unknownMembers,
        fc.record({ configuration: notObject, type: fc.constant('cloud-20i'), periodMonths: fc.constant('1'), forUser: fc.constant('stack-user:989901') }),
        nearMiss({
          type: { good: fc.constant('cloud-20i'), bad: fc.oneof(fc.constantFrom('cloud-x', '', 'CLOUD-20I', 'cloud-aws'), notString, fc.constant(null)) },
          provider: { good: fc.constant('20icloud'), bad: fc.oneof(fc.constantFrom('aws', 'gcp', '', '20ICLOUD'), notString, fc.constant(null)) },
          spec: { good: fc.constant('micro'), bad: fc.oneof(fc.constantFrom('nano', 'Micro', '', '64x-large'), notString, fc.constant(null)) },
          zone: { good: fc.constant('dc_location-uk'), bad: fc.oneof(fc.constantFrom('us-east-1', 'mars-1', '', 'DC_LOCATION-UK'), notString, fc.constant(null)) },
          periodMonths: { good: fc.constantFrom('1', 12), bad: fc.constantFrom(0, 2, 5, 7, 48, -1, 1.5, '2', 'one', '', ' 1', '1m', null, true, [1], {}) },
          // A blank (or null) mvpsName gets a generated name, and forUser is optional (issue 15).
          mvpsName: { good: fc.constant('fresh-server.example'), bad: fc.oneof(badDomain, fc.constant('FUZZ-SERVER.example')).filter((v) => !blankInJson(v)) },
          forUser: { good: fc.constant('stack-user:989901'), bad: badUserRef.filter((v) => !blankInJson(v)) },
          bandwidth: { good: fc.constant(undefined), bad: fc.oneof(fc.constantFrom('1e3', '-1', '1234567890', '', ' 1', 'ten'), fc.integer(), fc.boolean(), deep), optional: true },
          disk: { good: fc.constant(undefined), bad: fc.oneof(fc.constantFrom('1e3', '-1', '1234567890', '', 'ten'), fc.integer(), deep), optional: true },
          resellerCloudBranded: { good: fc.constant(false), bad: fc.oneof(fc.constantFrom('true', 1, 0, 'yes'), fc.array(smallJson, { maxLength: 1 }), deep), optional: true },
        }).map(({ type, periodMonths, forUser, ...configuration }) => cloudOrder({ type, periodMonths, forUser, configuration })),
        // branded is for the native provider only
        fc.constant(cloudOrder({ type: 'cloud-aws', configuration: { provider: 'aws', zone: 'us-east-1', resellerCloudBranded: true } })),
      ),
  },
  {
    method: 'POST',
    template: '/cloud_server/:server/addWeb',
    goodBody: () => fc.constant({ domain_name: 'fresh-app.example' }),
    badBody: () =>
      fc.oneof(
        unknownMembers,
        nearMiss({
          domain_name: { good: fc.constant('fresh-app.example'), bad: fc.oneof(badDomain, fc.constant('fuzz-site.example')) },
          extra_domain_names: { good: fc.constant([]), bad: fc.oneof(notArray, fc.array(badDomain, { minLength: 1, maxLength: 2 })), optional: true },
        }),
      ),
  },
];

/** `{PKG: x}` -> `{<package id>: x}` (ids are known only after setup). */
function rekey(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Raw) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k === 'PKG' ? String(ids.pkg) : k, x]));
}

function cloudOrder(o: { type?: unknown; periodMonths?: unknown; forUser?: unknown; configuration?: Record<string, unknown> }) {
  const configuration: Record<string, unknown> = { spec: 'micro', zone: 'dc_location-uk', provider: '20icloud', mvpsName: 'fresh-server.example' };
  for (const [k, v] of Object.entries(o.configuration ?? {})) if (v === undefined) delete configuration[k]; else configuration[k] = v;
  return { configuration, periodMonths: 'periodMonths' in o ? o.periodMonths : '1', type: 'type' in o ? o.type : 'cloud-20i', forUser: 'forUser' in o ? o.forUser : 'stack-user:989901' };
}

// ---------------------------------------------------------------------------------
// Requests

interface Request {
  kind: string;
  method: string;
  segments: Segment[];
  headers: Record<string, string>;
  body?: unknown;
  /** Body sent as this text (not serialized JSON). */
  text?: string | Raw;
  /** The only status a correct emulator may answer. */
  expect?: number;
  expectMessage?: RegExp;
}

const pathOf = (segments: Segment[]) => `/${segments.map(segText).join('/')}`;

function segmentsOf(route: Route, badParams: boolean): fc.Arbitrary<Segment[]> {
  const parts = route.template.split('/').slice(1);
  const params = parts.filter((p) => p.startsWith(':')).map((p) => p.slice(1));
  if (!badParams || params.length === 0) {
    return fc.tuple(...parts.map((p) => (p.startsWith(':') ? PARAMS[p.slice(1)].good : fc.constant<Segment>(p))));
  }
  return fc.constantFrom(...params).chain((forced) =>
    fc.tuple(...parts.map((p) => {
      if (!p.startsWith(':')) return fc.constant<Segment>(p);
      const kind = PARAMS[p.slice(1)];
      return p.slice(1) === forced ? kind.bad : fc.oneof(kind.good, kind.bad);
    })),
  );
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const auth = { authorization: bearer(KEY) };

/** Bodies of any kind: valid, wrong, not JSON, form. */
function anyBody(route: Route): fc.Arbitrary<Pick<Request, 'body' | 'text' | 'headers'>> {
  const options: Array<fc.Arbitrary<Pick<Request, 'body' | 'text' | 'headers'>>> = [
    malformedJson.map((text) => ({ text, headers: JSON_HEADERS })),
    smallJson.map((body) => ({ body, headers: JSON_HEADERS })),
    fc.constant({ headers: {} }),
  ];
  if (route.badBody) options.push(route.badBody().map((body) => ({ body, headers: JSON_HEADERS })));
  if (route.goodBody) options.push(route.goodBody().map((body) => ({ body, headers: JSON_HEADERS })));
  return fc.oneof(...options);
}

const badAuthorization = fc.oneof(
  fc.constantFrom<string | undefined>(
    undefined, '', 'Bearer', 'Bearer ', `Bearer ${KEY}`, `Basic ${Buffer.from(KEY).toString('base64')}`, `Token ${Buffer.from(KEY).toString('base64')}`,
    bearer('wrong-key'), bearer(`${KEY}\n\n`), bearer(`${KEY} `), bearer(KEY.toUpperCase()), bearer(KEY).slice(0, -1), `${bearer(KEY)} extra`,
    `Bearer ${Buffer.from(KEY).toString('base64url')}x`, `Bearer ${OTHER_KEY}`, `Bearer ${Buffer.from(KEY).toString('hex')}`,
  ),
  fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,80}$/).filter((h) => !/^bearer[ \t]/i.test(h)),
);

const apiRequest: fc.Arbitrary<Request> = fc.oneof(
  // (a) a bad key: 401 whatever the route, path or body
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom(...ROUTES), fc.boolean(), badAuthorization)
      .chain(([route, badParams, authorization]) =>
        fc.tuple(segmentsOf(route, badParams), anyBody(route)).map(([segments, b]): Request => ({
          kind: 'bad key', method: route.method, segments, ...b,
          headers: { ...b.headers, ...(authorization === undefined ? {} : { authorization }) },
          expect: 401,
        })),
      ),
  },
  // (b) no such route: wrong method or a mangled path
  {
    weight: 2,
    arbitrary: fc.constantFrom(...ROUTES).chain((route) =>
      fc.tuple(
        segmentsOf(route, false),
        fc.constantFrom('wrong method', 'trailing slash', 'double slash', 'upper case', 'prefix', 'suffix', 'extra segment', 'junk'),
        fc.constantFrom(...otherMethods(route)),
        oddSegment,
        anyBody(route),
      ).map(([segments, how, otherMethod, junk, b]): Request => {
        let method: string = route.method;
        let segs: Segment[] = segments;
        const [first, ...rest] = segments;
        switch (how) {
          case 'wrong method': method = otherMethod; break;
          case 'trailing slash': segs = [...segments, '']; break;
          case 'double slash': segs = [first, '', ...rest]; break;
          case 'upper case': segs = [String(first).toUpperCase(), ...rest]; break;
          case 'prefix': segs = ['api', ...segments]; break;
          case 'suffix': segs = [`${String(first)}.json`, ...rest]; break;
          case 'extra segment': segs = [...segments, 'more', junk]; break;
          case 'junk': segs = [junk, ...segments]; break;
        }
        return { kind: `no route (${how})`, method, segments: segs, ...b, headers: { ...b.headers, ...auth }, expect: 404, expectMessage: /^No route handler for / };
      }),
    ),
  },
  // (c) a bad path parameter (unknown, another account's, garbage), any body, even a valid one
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(...ROUTES.filter((r) => r.template.includes(':')))
      .chain((route) =>
        fc.tuple(segmentsOf(route, true), anyBody(route)).map(([segments, b]): Request => ({
          kind: 'bad parameter', method: route.method, segments, ...b, headers: { ...b.headers, ...auth },
        })),
      ),
  },
  // (d) a known route with good parameters and a body no valid request could have
  {
    weight: 8,
    arbitrary: fc.constantFrom(...ROUTES).chain((route) => {
      const json = (a: fc.Arbitrary<unknown>) => a.map((body): Pick<Request, 'body' | 'text' | 'headers'> => ({ body, headers: JSON_HEADERS }));
      const malformed = malformedJson.map((text): Pick<Request, 'body' | 'text' | 'headers'> => ({ text, headers: JSON_HEADERS }));
      const body =
        route.method === 'GET'
          ? malformed // a GET ignores a well-formed body
          : fc.oneof(
              { weight: 1, arbitrary: malformed },
              { weight: 1, arbitrary: json(fc.oneof(smallJson.filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)), deep, huge)) },
              {
                weight: 1,
                arbitrary: fc
                  .constantFrom('type', 'domain_name', 'new', 'delete-id', 'grant_map', 'configuration', 'subservices', 'add')
                  .chain(formBody)
                  .map((text): Pick<Request, 'body' | 'text' | 'headers'> => ({ text, headers: { 'content-type': 'application/x-www-form-urlencoded' } })),
              },
              { weight: 1, arbitrary: invalidUtf8.map((text): Pick<Request, 'body' | 'text' | 'headers'> => ({ text, headers: JSON_HEADERS })) },
              { weight: 6, arbitrary: json(route.badBody!()) },
            );
      return fc.tuple(segmentsOf(route, false), body).map(([segments, b]): Request => ({
        kind: 'bad body', method: route.method, segments, ...b, headers: { ...b.headers, ...auth },
      }));
    }),
  },
);

// ---- control API

const controlBodies: Record<string, () => fc.Arbitrary<unknown>> = {
  faults: () => {
    const rule = nearMiss({
      path: { good: fc.constant('^/never-matches$'), bad: fc.oneof(notString, fc.constant(null), fc.constantFrom('(', '[', '*', '(?<', '\\')) },
      method: { good: fc.constantFrom('GET', 'post'), bad: fc.oneof(fc.constantFrom('GE T', '', 'GET1', 'G-ET', 'ÄBC'), notString, fc.constant(null)), optional: true },
      status: { good: fc.constant(503), bad: fc.constantFrom(399, 600, 200, 503.5, '503', null, true, -1), optional: true },
      probability: { good: fc.constant(0.5), bad: fc.constantFrom(-0.1, 1.1, '0.5', null, [], 2), optional: true },
      times: { good: fc.constant(1), bad: fc.constantFrom(0, -1, 1.5, '1', null), optional: true },
      latencyMs: { good: fc.constant(5), bad: fc.constantFrom(-1, 600_001, 'x', 1.5, null), optional: true },
      retryAfterS: { good: fc.constant(1), bad: fc.constantFrom(-1, 86_401, '1', 0.5, null), optional: true },
      dropAfterCommit: { good: fc.constant(false), bad: fc.constantFrom('true', 1, null, []), optional: true },
    });
    const goodRule = fc.constant({ path: '^/never-matches$', latencyMs: 1 });
    return fc.oneof(
      rule,
      fc.record({ rules: fc.tuple(fc.array(goodRule, { maxLength: 2 }), rule).map(([good, bad]) => [...good, bad]), seed: fc.option(fc.constant(7), { nil: undefined }) }),
      fc.record({ rules: notArray.filter((v) => v !== undefined) }),
      fc.record({ rules: fc.constant([{ path: 'x', latencyMs: 1 }]), seed: fc.constantFrom(1.5, '7', null, [], true) }),
      fc.constantFrom({ path: 'x' }, { path: 'x', status: 503, dropAfterCommit: true }, { path: 'x', latencyMs: 1, retryAfterS: 1 }, { path: 'x', latencyMs: 1, colour: 'red' }),
      fc.constant({}),
    );
  },
  brand: () =>
    nearMiss({
      name: { good: fc.constant('Acme'), bad: fc.oneof(notString, fc.constant(''), fc.constant('N'.repeat(201)), fc.constant(null)) },
      logoUrl: { good: fc.constantFrom('', 'https://logo.example/x.png'), bad: fc.oneof(notString, fc.constantFrom('ftp://x', 'not a url', 'http:// space', 'javascript:alert(1)', 'https://'), fc.constant(null)) },
      account: { good: fc.constant(989900), bad: fc.oneof(fc.constantFrom(999999, 'x', -1, 0, 1.5, true, '989900x'), deep, fc.array(fc.integer(), { minLength: 2, maxLength: 3 })), optional: true },
    }),
  accounts: () =>
    fc.oneof(
      nearMiss({
        apiKey: { good: fc.constant('fresh-account-key'), bad: fc.oneof(notString, fc.constant(''), fc.constant('k'.repeat(1025)), fc.constant(null), fc.constantFrom(KEY, OTHER_KEY)) },
        id: { good: fc.constant(777000), bad: fc.oneof(fc.constantFrom(0, -1, 'abc', 1.5, [], {}, true, 989900, OTHER_ACCOUNT, String(OTHER_ACCOUNT)), deep), optional: true },
        balance: { good: fc.constant(10), bad: fc.constantFrom(-1, '1.234', 'abc', 1e13, [], null, true, '-5', 'NaN'), optional: true },
      }),
    ),
  balance: () =>
    nearMiss({
      balance: { good: fc.constant('10.50'), bad: fc.oneof(fc.constantFrom(-1, '1.234', 'abc', 1e13, [], null, true, '', ' 1'), deep) },
      account: { good: fc.constant(989900), bad: fc.oneof(fc.constantFrom(999999, 'x', -1, 1.5, true), deep, fc.array(fc.integer(), { minLength: 2, maxLength: 3 })), optional: true },
    }),
  dns: () =>
    nearMiss({
      package: { good: fc.constant('PKG').map(() => ids.pkg), bad: fc.oneof(fc.constantFrom(999999, 'nope.example', 'other-site.example', -1, 1.5, true, ''), fc.constant(0).map(() => ids.otherPkg), deep) },
      zone: { good: fc.constant('fuzz-site.example'), bad: fc.oneof(fc.constantFrom('www.fuzz-site.example', 'fuzz-cloud.example', ''), notString, fc.constant(null)) },
      ref: { good: fc.constant(0).map(() => ids.dnsWww), bad: fc.oneof(fc.constantFrom(1, -1, 'x', 1.5, null, true), fc.constant(0).map(() => ids.dnsNs)) },
      record: { good: fc.constant({ ip: '203.0.113.9' }), bad: fc.oneof(notObject, fc.constantFrom({}, { ip: 'x' }, { ip: 5 }, { host: 'bad host', ip: '203.0.113.9' }, { host: 'www.', ip: '203.0.113.9' })) },
      account: { good: fc.constant(989900), bad: fc.oneof(fc.constantFrom(999999, 'x', -1, 1.5, true), deep), optional: true },
    }),
  settings: () =>
    fc.record({ provisionDelayMs: fc.oneof(fc.constantFrom(-1, 1.5, '100', null, 86_400_001, [], {}, true), deep) }, { requiredKeys: ['provisionDelayMs'] }).chain((body) =>
      unknownMembers.map((extra) => ({ ...extra, ...body })),
    ),
};

const controlRequest: fc.Arbitrary<Request> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(...Object.keys(controlBodies)).chain((name) =>
      fc.oneof(
        { weight: 5, arbitrary: controlBodies[name]().map((body) => ({ body, text: undefined as string | Raw | undefined })) },
        { weight: 1, arbitrary: malformedJson.map((text) => ({ body: undefined as unknown, text })) },
        // not an object (settings ignores members it does not know, so an object could be a valid no-op there)
        { weight: 1, arbitrary: fc.oneof(smallJson.filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)), fc.integer({ min: 2000, max: 60000 }).map(deepArray)).map((body) => ({ body, text: undefined as string | Raw | undefined })) },
      ).map(({ body, text }): Request => ({ kind: `control ${name}`, method: 'POST', segments: ['__emulator', name], headers: JSON_HEADERS, body, text })),
    ),
  },
  // malformed JSON to routes that would otherwise act (reset, clear) or read: 400, nothing done
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(['POST', 'reset'], ['DELETE', 'faults'], ['DELETE', 'brand'], ['DELETE', 'requests'], ['GET', 'state'], ['GET', 'faults'], ['POST', 'settings']), malformedJson)
      .map(([[method, name], text]): Request => ({ kind: `control ${method} ${name} malformed`, method, segments: ['__emulator', name], headers: JSON_HEADERS, text, expect: 400 })),
  },
  // unknown control routes and wrong methods
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom<Segment[]>(['__emulator'], ['__emulator', ''], ['__emulator', 'nope'], ['__emulator', 'state', 'x'], ['__emulator', 'RESET'], ['__emulator', 'reset'], ['__emulator', 'accounts', '1']),
        fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE'),
        oddSegment,
        fc.boolean(),
      )
      .map(([segments, method, junk, addJunk]): Request => ({
        kind: 'control no route', method, segments: addJunk ? [...segments, junk] : segments, headers: JSON_HEADERS, expect: 404, expectMessage: /^No route handler for /,
      })),
  },
);

// ---------------------------------------------------------------------------------
// The oracle

function bodyBytes(req: Request): string | Buffer | undefined {
  if (req.text instanceof Raw) return req.text.binary ? Buffer.from(req.text.make(), 'latin1') : req.text.make();
  if (req.text !== undefined) return req.text;
  if (req.body === undefined) return undefined;
  return serialize(req.body);
}

async function check(req: Request, compareFaults: boolean): Promise<void> {
  internalErrors.length = 0; // only this request's
  const path = pathOf(req.segments);
  const body = bodyBytes(req);
  // Over the 1 MiB limit, the emulator answers 413 before looking at the key or the route.
  const tooLarge = body !== undefined && Buffer.byteLength(body) > 1024 * 1024;
  const expected = tooLarge ? 413 : req.expect;
  let res: RawResponse;
  try {
    res = await send({ method: req.method, path, headers: req.headers, body });
  } catch (err) {
    throw new Error(`${req.method} ${path.slice(0, 200)}: no response (${(err as Error).message})`);
  }
  const where = `${req.kind}: ${req.method} ${path.slice(0, 200)} -> ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status < 400 || res.status > 499) throw new Error(`expected a 4xx, got ${where}`);
  if (expected !== undefined && res.status !== expected) throw new Error(`expected ${expected}, got ${where}`);
  if (!/^application\/json\b/.test(String(res.headers['content-type']))) throw new Error(`not JSON: ${where}`);
  let answer: unknown;
  try {
    answer = JSON.parse(res.text);
  } catch {
    throw new Error(`unparseable body: ${where}`);
  }
  const error = (answer as { error?: { message?: unknown } } | null)?.error;
  const shapeOk = answer !== null && typeof answer === 'object' && !Array.isArray(answer) && Object.keys(answer).join() === 'error'
    && error !== null && typeof error === 'object' && Object.keys(error).join() === 'message' && typeof error.message === 'string' && error.message !== '';
  if (!shapeOk) throw new Error(`not {"error": {"message": string}}: ${where}`);
  if (req.expectMessage && !tooLarge && !req.expectMessage.test(error!.message as string)) throw new Error(`message does not match ${req.expectMessage}: ${where}`);
  const now = await stateText();
  if (now !== baselineState) {
    let i = 0;
    while (i < now.length && now[i] === baselineState[i]) i++;
    throw new Error(`the state changed after ${where}: at ${i}: before …${baselineState.slice(i - 200, i + 200)}… after …${now.slice(i - 200, i + 200)}…`);
  }
  if (compareFaults && (await faultsText()) !== baselineFaults) throw new Error(`the fault rules changed after ${where}`);
  if (internalErrors.length) throw new Error(`internal error logged after ${where}: ${internalErrors[0].slice(0, 400)}`);
}

// ---------------------------------------------------------------------------------

/**
 * The account the fuzzing starts from. Also run after a failed request (which may have
 * changed something), so that fast-check's shrinking starts every run from this state.
 */
async function seedAccounts(): Promise<void> {
  await control('POST', 'reset');
  // Account A: a package with an extra name, mail on both names, a cloud server with a package.
  ids.pkg = (await api('POST', '/reseller/*/addWeb', { type: '811', domain_name: 'fuzz-site.example', extra_domain_names: ['fuzz-extra.example'], label: 'Fuzz' })).result;
  for (const domain of ['fuzz-site.example', 'fuzz-extra.example']) {
    await api('POST', `/package/fuzz-site.example/email/${domain}`, { new: { mailbox: { local: 'info', send: 'true', receive: 'true', password: 'Seed-Passw0rd' } } });
    await api('POST', `/package/fuzz-site.example/email/${domain}`, { new: { forward: { local: 'sales', remote: 'team@example.org' } } });
  }
  const mail = await api('GET', '/package/fuzz-site.example/email/fuzz-site.example');
  ids.mailbox = mail.mailbox[0].id;
  ids.forwarder = mail.forward[0].id;
  const zone = (await api('GET', '/package/fuzz-site.example/dns/fuzz-site.example')).records as Array<{ type: string; host: string; ref: number }>;
  const dnsRef = (type: string, host: string) => zone.find((r) => r.type === type && r.host === host)!.ref;
  ids.dnsMx = dnsRef('MX', 'fuzz-site.example');
  ids.dnsNs = dnsRef('NS', 'fuzz-site.example');
  ids.dnsWww = dnsRef('A', 'www.fuzz-site.example');
  ids.server = Number((await api('POST', '/reseller/*/addCloudServer', cloudOrder({ configuration: { mvpsName: 'fuzz-server.example' } }))).result);
  await new Promise((r) => setTimeout(r, 20)); // provisionDelayMs is 0: ready at once
  ids.cloudPkg = (await api('POST', `/cloud_server/${ids.server}/addWeb`, { domain_name: 'fuzz-cloud.example' })).result;
  // Account B, with its own package.
  await control('POST', 'accounts', { id: OTHER_ACCOUNT, apiKey: OTHER_KEY });
  ids.otherPkg = (await api('POST', '/reseller/*/addWeb', { type: '811', domain_name: 'other-site.example' }, OTHER_KEY)).result;
  ids.otherUser = Object.keys((await api('GET', '/reseller/*/susers', undefined, OTHER_KEY)).contact)[0];
  baselineState = await stateText();
  baselineFaults = await faultsText();
}

/** Runs one check; after a failure, puts the seeded state back (then rethrows). */
async function checked(req: Request, compareFaults: boolean): Promise<void> {
  try {
    await check(req, compareFaults);
  } catch (err) {
    await seedAccounts();
    throw err;
  }
}

beforeAll(async () => {
  agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  emu = await startEmulator({
    port: 0, apiKey: KEY, provisionDelayMs: 0, quiet: false,
    log: (line) => {
      if (/internal error/i.test(line)) internalErrors.push(line);
    },
  });
  await seedAccounts();
});

afterAll(async () => {
  agent?.destroy();
  await emu?.stop();
});

test('the seeded account is what the fuzzing starts from', () => {
  const state = JSON.parse(baselineState);
  expect(state.accounts.map((a: { packages: unknown[] }) => a.packages.length)).toEqual([2, 1]);
  expect(state.accounts[0].packages[0].mail.map((d: { mailboxes: unknown[]; forwarders: unknown[] }) => [d.mailboxes.length, d.forwarders.length])).toEqual([[1, 1], [1, 1]]);
  expect(ids.mailbox).toMatch(/^m\d+$/);
});

test(`every malformed API request is a 4xx JSON error and changes nothing (${API_RUNS} requests)`, async () => {
  await fc.assert(fc.asyncProperty(apiRequest, (req) => checked(req, false)), { numRuns: API_RUNS, seed: SEED });
}, 120_000);

test(`every malformed control request is a 4xx JSON error and changes nothing (${CONTROL_RUNS} requests)`, async () => {
  await fc.assert(fc.asyncProperty(controlRequest, (req) => checked(req, true)), { numRuns: CONTROL_RUNS, seed: SEED + 1 });
}, 60_000);

test('a body over 1 MiB is 413 JSON, and the emulator keeps serving', async () => {
  const big = JSON.stringify({ type: '811', domain_name: 'big.example', label: 'x'.repeat(1_200_000) });
  await check({ kind: '413', method: 'POST', segments: ['reseller', '*', 'addWeb'], headers: { ...JSON_HEADERS, ...auth }, text: big, expect: 413 }, true);
  await check({ kind: '413 no key', method: 'POST', segments: ['reseller', '*', 'addWeb'], headers: JSON_HEADERS, text: big, expect: 413 }, true);
});

/**
 * Requests the fuzzing found answered with a 5xx or a 200. Kept as named cases so that
 * each one reads as a plain regression test (same oracle as the properties).
 */
describe('cases found by the fuzzing', () => {
  const post = (segments: Segment[], body: unknown, kind: string, headers: Record<string, string> = { ...JSON_HEADERS, ...auth }): Request => ({
    kind, method: 'POST', segments, headers, body,
  });
  const cases: Array<[string, () => Request, boolean]> = [
    ['a form body with a bracket key 20000 levels deep', () => ({
      kind: 'form', method: 'POST', segments: ['reseller', '*', 'susers'], headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth },
      text: `grant_map${'[x]'.repeat(20000)}=1`,
    }), false],
    ['addWeb with a package type nested 20000 levels deep', () => post(['reseller', '*', 'addWeb'], { type: deepArray(20000), domain_name: 'fresh-site.example' }, 'deep type'), false],
    ['updatePackage with a new type nested 20000 levels deep', () => post(['reseller', '*', 'updatePackage'], { id: [ids.pkg], packageBundleTypes: { [ids.pkg]: deepArray(20000) } }, 'deep type'), false],
    ['addCloudServer with a size nested 20000 levels deep', () => post(['reseller', '*', 'addCloudServer'], cloudOrder({ configuration: { spec: deepArray(20000) } }), 'deep spec'), false],
    ['addCloudServer with a zone nested 20000 levels deep', () => post(['reseller', '*', 'addCloudServer'], cloudOrder({ configuration: { zone: deepArray(20000) } }), 'deep zone'), false],
    ['addCloudServer with a period nested 20000 levels deep', () => post(['reseller', '*', 'addCloudServer'], cloudOrder({ periodMonths: deepArray(20000) }), 'deep period'), false],
    ['control balance for an account id nested 20000 levels deep', () => post(['__emulator', 'balance'], { balance: '1', account: deepArray(20000) }, 'deep account', JSON_HEADERS), true],
    ['control brand for an account id nested 20000 levels deep', () => post(['__emulator', 'brand'], { name: 'Acme', logoUrl: '', account: deepArray(20000) }, 'deep account', JSON_HEADERS), true],
    ['addWeb of "x.example/path" (not a domain name; must not become x.example)', () => post(['reseller', '*', 'addWeb'], { type: '811', domain_name: 'x.example/path' }, 'url-ish domain'), false],
    ['names add "x.example?q=1"', () => post(['package', String(ids.pkg), 'names'], { add: ['x.example?q=1'] }, 'url-ish domain'), false],
    ['cloud addWeb of "x.example#frag"', () => post(['cloud_server', String(ids.server), 'addWeb'], { domain_name: 'x.example#frag' }, 'url-ish domain'), false],
    ['a forwarder to "team@x.example/path"', () => post(['package', 'fuzz-site.example', 'email', 'fuzz-site.example'], { new: { forward: { local: 'fresh-fwd', remote: 'team@x.example/path' } } }, 'url-ish address'), false],
  ];
  test.each(cases)('%s: a 4xx JSON error, nothing changed', async (_name, make, isControl) => {
    await checked(make(), isControl);
  });
});
