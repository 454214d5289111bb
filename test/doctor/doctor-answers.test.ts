import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { runDoctor } from '../../src/commands/doctor/doctor';
import { runDoctorCli } from '../../src/commands/doctor';
import { RawReader, rawReader } from '../../src/commands/doctor/http';
import { startEmulator } from '../../src/emulator';
import type { RunningEmulator } from '../../src/emulator';
import { capture } from '../drift/helpers';

/**
 * Answers a live account may give and the emulator does not: the doctor reports the
 * facts they contradict as "not held", and those they hide as "not verifiable", and
 * never fails with an error of its own. Statuses come from the emulator's fault rules;
 * other shapes from a reader that passes the emulator's answers on with one member
 * changed, as another service would send them. Details name fields and counts, never
 * a value read.
 */
jest.setTimeout(60_000);

const KEY = 'doctor-answers-key';
const ZONE = 'answers-site.com';
const VALUES = ['answers-site', 'answers-txt-token', '198.51.100.91', 'mx.answers-mail.net', 'Answers Label', 'Another Label', 'unassigned-yet'];

let emulator: RunningEmulator;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reseller-doctor-answers-'));
  emulator = await startEmulator({ port: 0, apiKey: KEY, provisionDelayMs: 0, quiet: true });
  const client = new ResellerClient({ baseUrl: emulator.url, apiKey: KEY, retryBaseDelayMs: 10 });
  const id = await client.packages.create({ type: 812, domainName: ZONE, extraDomainNames: [], label: 'Answers Label' });
  await client.dns.changeZone(id, ZONE, { add: [
    { type: 'TXT', host: 'txt', value: VALUES[1] },
    { type: 'A', host: 'web', value: VALUES[2] },
    { type: 'MX', host: 'mail', value: VALUES[3], priority: 20 },
  ] });
  await client.web.requestFreeCertificate(id, ZONE);
  client.close();
});
afterAll(async () => {
  await emulator?.stop();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await fetch(`${emulator.url}/__emulator/faults`, { method: 'DELETE' });
});

const env = (): NodeJS.ProcessEnv => ({ ...process.env, RESELLER_ID: undefined, RESELLER_API_URL: emulator.url, RESELLER_API_KEY: KEY });
/** Makes the emulator answer `status` to the GETs of `path`, without doing them. */
const failing = (path: RegExp, status: number) => fetch(`${emulator.url}/__emulator/faults`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules: [{ method: 'GET', path: path.source, status }] }),
});
type Json = Record<string, any>;

/** The emulator's answers, with `change` applied to the (copied) body of each 2xx answer to a path it matches. */
function changing(match: RegExp, change: (body: any) => unknown): RawReader {
  const real = rawReader(emulator.url, KEY);
  return {
    async get(path, options) {
      const answer = await real.get(path, options);
      const ok = answer.status >= 200 && answer.status < 300;
      return ok && match.test(path) ? { ...answer, body: change(structuredClone(answer.body)) } : answer;
    },
  };
}

/** The doctor's verdict on each fact, run through `reader`; no value of the account may be in the report. */
async function verdicts(reader?: RawReader): Promise<Record<string, { status: string; detail: string }>> {
  const report = await runDoctor({ env: env(), cwd: dir, reader, terraformVersion: () => '1.11.4' });
  const text = JSON.stringify(report);
  for (const value of VALUES) expect([value, text.includes(value)]).toEqual([value, false]);
  return Object.fromEntries(report.assumptions.map((a) => [a.fact, { status: a.status, detail: a.detail }]));
}

const ALL_ZONES = /^\/package\/[0-9]+\/dns$/;
const ONE_ZONE = /^\/package\/[0-9]+\/dns\/[^/]+$/;
const DNS_FACTS = ['dns record entry', 'recordListOfZoneValue', 'dnsNameOfRead', 'dnsNumberOfRead'];
/** Applies `change` to each record of every zone of the read of every zone. */
const eachRecord = (change: (record: Json) => void) => (body: Record<string, { records: Json[] }>) => {
  for (const zone of Object.values(body)) zone.records.forEach(change);
  return body;
};

describe('DNS reads', () => {
  it('the read of every zone failing: the DNS facts are not verifiable, nothing fails (exit 0)', async () => {
    await failing(ALL_ZONES, 500);
    const run = await capture(runDoctorCli, ['--json'], env(), dir);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    for (const fact of DNS_FACTS) {
      expect(doc.assumptions.find((a: Json) => a.fact === fact)).toMatchObject({ status: 'not verifiable', detail: 'GET /package/{id}/dns answered HTTP 500' });
    }
    expect(doc.account['dns zones']).toEqual({ count: 0 });
  });

  it('a zone of the read of every zone that its own read does not find (404): recordListOfZoneValue is not held (exit 1)', async () => {
    await failing(ONE_ZONE, 404);
    const run = await capture(runDoctorCli, ['--json'], env(), dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).assumptions.find((a: Json) => a.fact === 'recordListOfZoneValue')).toMatchObject({
      status: 'not held', detail: 'GET /package/{id}/dns/{zone} answered HTTP 404 for a zone the read of every zone lists',
    });
  });

  it('hosts relative to the zone: dnsNameOfRead is not held', async () => {
    const v = await verdicts(changing(ALL_ZONES, eachRecord((r) => {
      r.host = r.host === ZONE ? '@' : r.host.replace(`.${ZONE}`, '');
    })));
    expect(v.dnsNameOfRead).toEqual({ status: 'not held', detail: expect.stringMatching(/^11 of 11 host\(s\) are not the zone's apex nor under it/) });
    expect(v['dns record entry'].status).toBe('held');
  });

  it('a priority that is not a number: dnsNumberOfRead is not held', async () => {
    const v = await verdicts(changing(ALL_ZONES, eachRecord((r) => {
      if (r.type === 'MX') r.pri = 'ten';
    })));
    expect(v.dnsNumberOfRead).toEqual({ status: 'not held', detail: '2 of 2 number(s) are missing or neither a JSON number nor a string of digits' });
  });

  it('records without a ref, a type or their fields: the record entry is not held, and nothing breaks', async () => {
    const v = await verdicts(changing(ALL_ZONES, eachRecord((r) => {
      if (r.type === 'A') delete r.ref;
      if (r.type === 'TXT') delete r.type;
      if (r.type === 'MX') delete r.target;
    })));
    expect(v['dns record entry']).toEqual({ status: 'not held', detail: 'missing or of another type: A ref (3 of 3), MX target (2 of 2), (no type) type (1 of 1)' });
    expect(v.dnsNameOfRead).toEqual({ status: 'not held', detail: '2 of 7 target name(s) are missing or not names' });
  });

  it('records that are not objects: the record entry is not held, the name and number facts not verifiable', async () => {
    const v = await verdicts(changing(ALL_ZONES, (body: Record<string, { records: Json[] }>) => Object.fromEntries(Object.entries(body)
      .map(([apex, zone]) => [apex, { records: zone.records.map((r) => `${r.type} record`) }]))));
    expect(v['dns record entry']).toEqual({ status: 'not held', detail: '11 of 11 record(s) are not objects' });
    expect([v.dnsNameOfRead.status, v.dnsNumberOfRead.status, v.recordListOfZoneValue.status]).toEqual(['not verifiable', 'not verifiable', 'held']);
  });

  it('zones as bare record lists (a form the client accepts): recordListOfZoneValue is held and says so', async () => {
    const v = await verdicts(changing(/\/dns(\/[^/]+)?$/, (body: Json) => (body.records ? body.records
      : Object.fromEntries(Object.entries(body).map(([apex, zone]) => [apex, zone.records])))));
    expect(v.recordListOfZoneValue).toEqual({ status: 'held', detail: '1 zone(s) read as bare lists; the read of one zone answers a bare list with the same 11 record(s)' });
    expect(v.dnsNumberOfRead.status).toBe('held');
  });

  it.each<[string, (body: any) => unknown, string]>([
    ['a list of zones', (body) => Object.values(body), 'the read of every zone is a list, not an object keyed by zone'],
    ['no JSON', () => undefined, 'the read of every zone is undefined, not an object keyed by zone'],
    ['zone values of another form', (body) => Object.fromEntries(Object.keys(body).map((apex) => [apex, 'zone'])),
      '1 of 1 zone value(s) in the read of every zone are neither {records: [...]} nor a list'],
  ])('the read of every zone as %s: recordListOfZoneValue is not held, the other DNS facts not verifiable', async (_what, change, detail) => {
    const v = await verdicts(changing(ALL_ZONES, change));
    expect(v.recordListOfZoneValue).toEqual({ status: 'not held', detail });
    for (const fact of ['dns record entry', 'dnsNameOfRead', 'dnsNumberOfRead']) expect([fact, v[fact].status]).toEqual([fact, 'not verifiable']);
  });
});

describe('package reads', () => {
  const PACKAGE = /^\/package\/[0-9]+$/;

  it('a limit that is neither a number nor "INF": limitsOfPackageType is not held and names the limit', async () => {
    const v = await verdicts(changing(/\/packageTypes$/, (types: Json[]) => types.map((t) => ({ ...t, limits: { ...t.limits, freeSsl: true } }))));
    expect(v.limitsOfPackageType).toEqual({ status: 'not held', detail: 'limits the client leaves out, being neither a number nor "INF": freeSsl (boolean)' });
  });

  it('package types without limits: not verifiable', async () => {
    const v = await verdicts(changing(/\/packageTypes$/, (types: Json[]) => types.map(({ limits: _, ...t }) => t)));
    expect(v.limitsOfPackageType).toEqual({ status: 'not verifiable', detail: 'none of 4 package type(s) lists limits: the client knows none' });
  });

  it('a web address that is not dotted IPv4: webIpv4FromPackageDetail is not held; none at all: not verifiable', async () => {
    const odd = await verdicts(changing(PACKAGE, (detail: Json) => ({ ...detail, web: { ...detail.web, info: { ip4Address: 'unassigned-yet' } } })));
    expect(odd.webIpv4FromPackageDetail).toEqual({ status: 'not held', detail: 'web.info.ip4Address is a string that is not a dotted IPv4 address' });
    const none = await verdicts(changing(PACKAGE, (detail: Json) => ({ ...detail, web: { ...detail.web, info: undefined } })));
    expect(none.webIpv4FromPackageDetail.status).toBe('not verifiable');
  });

  it('a list entry whose label differs from the package read\'s: verifiableLabelFromPackageLabels is not held; an empty list beside a label is held', async () => {
    const differs = await verdicts(changing(/^\/package$/, (list: Json[]) => list.map((p) => ({ ...p, packageLabels: ['Another Label'] }))));
    expect(differs.verifiableLabelFromPackageLabels).toEqual({ status: 'not held', detail: 'the list entry\'s first packageLabels element is not the label the package read gives' });
    const hidden = await verdicts(changing(/^\/package$/, (list: Json[]) => list.map((p) => ({ ...p, packageLabels: [] }))));
    expect(hidden.verifiableLabelFromPackageLabels).toMatchObject({ status: 'held', detail: expect.stringMatching(/an empty list does not mean "no label"/) });
  });
});

describe('web reads', () => {
  const WEB = (noun: string) => new RegExp(`^/package/[0-9]+/web/${noun}$`);

  it('as the emulator answers them: the web facts are held', async () => {
    const v = await verdicts();
    for (const fact of ['force-HTTPS read', 'certificate entry', 'isFreeCertificateProvider', 'phpVersionOnWire', 'phpVersionOfAvailable']) {
      expect([fact, v[fact].status]).toEqual([fact, 'held']);
    }
  });

  it('a PHP version read as "8.2": phpVersionOnWire is not held (the client reads it, but writes php<digits>)', async () => {
    const v = await verdicts(changing(WEB('phpVersion'), () => '8.2'));
    expect(v.phpVersionOnWire).toEqual({ status: 'not held', detail: '1 of 1 read(s) are not in the form php<digits> (the client reads them, but writes php<digits>)' });
  });

  it('available versions that name none: phpVersionOfAvailable is not held', async () => {
    const v = await verdicts(changing(WEB('availablePhpVersions'), (list: Json[]) => list.map(({ FullVersion: _f, Handler: _h, ...rest }) => rest)));
    expect(v.phpVersionOfAvailable).toEqual({ status: 'not held', detail: '5 of 5 entr(ies) name no version the client can read' });
  });

  it('force-HTTPS as a string, certificates of another provider: the one not held, the other not verifiable', async () => {
    const force = await verdicts(changing(WEB('forceSSL'), () => 'false'));
    expect(force['force-HTTPS read']).toEqual({ status: 'not held', detail: '1 of 1 read(s) are not a bare boolean' });
    const bought = await verdicts(changing(WEB('certificates'), (list: Json[]) => list.map((c) => ({ ...c, provider: 'sectigo/dv' }))));
    expect(bought.isFreeCertificateProvider).toEqual({ status: 'not verifiable', detail: 'none of 1 certificate(s) has a Let\'s Encrypt provider (they may all be bought ones)' });
  });
});
