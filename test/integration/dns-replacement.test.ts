import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, TerraformStack } from 'cdktf';
import { DnsRecord, HostingPackage, ResellerHosting } from '../../src';
import type { CarrierResourceType } from '../../src/constructs/reseller-hosting';
import { handlerEnv, requireBuiltHandler, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { MiniTerraform, summary } from '../helpers/mini-terraform';
import { tempDir } from './support';

/**
 * A DNS record whose value or zone changes, applied by the stand-in for Terraform with
 * both carriers: the object resource is replaced (its destroy-time `delete` runs first),
 * yet the zone never holds neither record. The `delete` leaves the old record to the
 * `ensure` of the new one (RESELLER_SUCCESSOR), which replaces it in one POST; a record
 * moved to another zone is added there, then deleted from the old; a record declared
 * absent is deleted at once.
 */
const DOMAIN = 'records-carrier.com';
const OTHER = 'records-other.net';

interface RecordOptions {
  readonly value?: string;
  readonly zone?: string;
  readonly absent?: boolean;
}

function recordStack(outdir: string, url: string, resourceType: CarrierResourceType, options: RecordOptions = {}) {
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'dns');
  new ResellerHosting(stack, 'reseller', { apiUrl: url, engine: resourceType });
  const site = new HostingPackage(stack, 'site', { domainName: DOMAIN, extraDomainNames: [OTHER], packageType: 'Linux Unlimited' });
  new DnsRecord(stack, 'api', { package: site, name: 'api', type: 'A', value: options.value ?? '192.0.2.10', zone: options.zone, absent: options.absent });
  app.synth();
  return JSON.parse(readFileSync(join(outdir, 'stacks', 'dns', 'cdk.tf.json'), 'utf8'));
}

beforeAll(() => requireBuiltHandler());

describe.each<CarrierResourceType>(['terraform_data', 'null_resource'])('a DNS record replaced by the carriers (%s)', (type) => {
  let emu: TestEmulator;
  let outdir: string;
  let tf: MiniTerraform;
  const config = (options: RecordOptions = {}) => recordStack(outdir, emu.url, type, options);
  /** The `api` A records of a zone: `host ip`. */
  const apiRecords = (zone: string) => (emu.account().packages.find((p) => p.name === DOMAIN)?.dns.find((d) => d.apex === zone)?.records ?? [])
    .filter((r) => r.type === 'A' && String(r.host).startsWith('api.')).map((r) => `${r.host} ${r.ip}`);
  const dnsWrites = async () => ((await emu.control('GET', 'requests')) as Array<{ method: string; path: string }>)
    .filter((r) => r.method === 'POST' && r.path.includes('/dns/')).map((r) => r.path);

  beforeAll(async () => {
    emu = await startTestEmulator({ provisionDelayMs: 50 });
    outdir = tempDir('reseller-dns-');
    tf = new MiniTerraform(join(outdir, 'stacks', 'dns'), handlerEnv(emu.url, tempDir('journal-')));
    await tf.apply(config());
    expect(apiRecords(DOMAIN)).toEqual([`api.${DOMAIN} 192.0.2.10`]);
  });
  afterAll(() => emu?.stop());

  test('a changed value: the delete is left to the ensure, which replaces the record in one POST', async () => {
    await emu.control('DELETE', 'requests');
    const runs = await tf.apply(config({ value: '192.0.2.20' }));
    expect(summary(runs)).toEqual([`${type}.api delete`, `${type}.api_settings ensure`]);
    expect(runs[0].stdout).toMatch(/192\.0\.2\.10: left for DNS record .*192\.0\.2\.20, which replaces it in one write/);
    expect(runs[1].stdout).toMatch(/replaced DNS record A api\.records-carrier\.com 192\.0\.2\.20/);
    expect(await dnsWrites()).toEqual([`/package/${DOMAIN}/dns/${DOMAIN}`]);
    expect(apiRecords(DOMAIN)).toEqual([`api.${DOMAIN} 192.0.2.20`]);
  });

  test('moved to another zone: added there, then deleted from the old one', async () => {
    await emu.control('DELETE', 'requests');
    await tf.apply(config({ value: '192.0.2.20', zone: OTHER }));
    expect(await dnsWrites()).toEqual([`/package/${DOMAIN}/dns/${OTHER}`, `/package/${DOMAIN}/dns/${DOMAIN}`]);
    expect(apiRecords(OTHER)).toEqual([`api.${OTHER} 192.0.2.20`]);
    expect(apiRecords(DOMAIN)).toEqual([]);
  });

  test('declared absent (with another value): deleted at once, nothing left for an ensure that never runs', async () => {
    const runs = await tf.apply(config({ value: '192.0.2.30', zone: OTHER, absent: true }));
    expect(summary(runs)).toEqual([`${type}.api delete`]);
    expect(runs[0].stdout).not.toMatch(/left for/);
    expect(apiRecords(OTHER)).toEqual([]);
  });
});
