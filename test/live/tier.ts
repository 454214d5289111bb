import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { findPrefixed, sweep } from '../../src/commands/sweep/sweep';
import { timingFromEnv } from '../../src/reconcile';
import { builtProviderInstaller, E2E_TIMEOUT_MS, planExitCode, requireTerraform, savedPlan, tempDir, terraform } from '../e2e/support';

/** The site's web settings: HTTPS forced or not, a PHP version (no free certificate: a test name's DNS never points at the service). */
const WEB_RESOURCE = 'reseller_web_settings.site';
import type { LiveSettings } from './settings';

/**
 * The live tier: the provider's lifecycle through the REAL Terraform against whatever
 * account the settings name (a real one, or the emulator standing in for it in
 * `npm test`): create, update of every mutable field, drift made through the API,
 * import, delete; DNS records (A, CNAME, TXT, MX) in the package's zone among them. Every name starts with the run's prefix `tfacc-<run id>-` and ends
 * in RESELLER_LIVE_DOMAIN. afterAll destroys what Terraform holds and then sweeps the
 * prefix, whether the cases passed or not, and fails when anything is left.
 *
 * What it asserts is what holds against any account: Terraform's plans and the objects
 * read back through the client, never emulator internals.
 */
export const LIVE_TIMEOUT_MS = E2E_TIMEOUT_MS * 2;

/** The mutable fields of the lifecycle's objects, one value per step. */
export interface Step {
  readonly extra: string;
  readonly type: string;
  readonly label: string;
  readonly user: 'owner' | 'admin';
  readonly enabled: boolean;
  readonly send: boolean;
  readonly receive: boolean;
  readonly passwordVersion: number;
  readonly remote: string;
  /** The A record's address (a change replaces the record in one write: the API has no update). */
  readonly address: string;
  /** The site's web settings: force HTTPS, and a PHP version the package is offered (absent: left as it is). */
  readonly forceHttps: boolean;
  readonly phpVersion?: string;
  /** The autoresponder's subject and end time (UTC, canonical form, or null). */
  readonly replySubject: string;
  readonly replyEnd: string | null;
}

export interface Run {
  s: LiveSettings;
  tf: string;
  dir: string;
  client: ResellerClient;
  password: string;
  /** Objects created so far (the budget guard counts them). */
  created: number;
  names: ReturnType<typeof namesOf>;
  types: [string, string];
}

const namesOf = (s: LiveSettings) => ({
  site: `${s.prefix}site.${s.domain}`,
  alt1: `${s.prefix}alt1.${s.domain}`,
  alt2: `${s.prefix}alt2.${s.domain}`,
  owner: `${s.prefix}owner@${s.domain}`,
  admin: `${s.prefix}admin@${s.domain}`,
  remote1: `${s.prefix}team@${s.domain}`,
  remote2: `${s.prefix}desk@${s.domain}`,
  server: `${s.prefix}web.${s.domain}`,
  /** Owner names of the DNS records, relative to the package's zone (its primary domain). */
  www: `${s.prefix}www`,
  cdn: `${s.prefix}cdn`,
  txt: `${s.prefix}txt`,
  mail: `${s.prefix}mail`,
  /** The MySQL database (a name of letters, digits and `_`: it is found by its package, which carries the prefix). */
  db: `tfacc_${s.runId}_shop`,
});

/** The DNS records the lifecycle declares (in the package's zone), by resource name. */
const RECORD_RESOURCES = ['reseller_dns_record.a', 'reseller_dns_record.cname', 'reseller_dns_record.mx', 'reseller_dns_record.txt'];
const MX_TARGET = 'mx.example.net';
const TXT_TEXT = 'tfacc live tier';

/** The package types the lifecycle switches between: the settings' two, else the account's first two Linux types (one if it has one). */
async function packageTypes(run: Pick<Run, 's' | 'client'>): Promise<[string, string]> {
  if (run.s.packageTypes) return [...run.s.packageTypes];
  const linux = (await run.client.packageTypes.list()).filter((t) => t.platform === 'linux');
  if (linux.length === 0) throw new Error('the account has no Linux package type: set RESELLER_LIVE_PACKAGE_TYPES="first,second"');
  return [linux[0].label, (linux[1] ?? linux[0]).label];
}

function env(run: Run): NodeJS.ProcessEnv {
  return {
    ...run.s.passEnv,
    RESELLER_API_URL: run.s.url,
    RESELLER_API_KEY: run.s.apiKey,
    RESELLER_ID: run.s.resellerId,
    TF_VAR_mailbox_password: run.password,
  };
}

/** A registration's nameservers and lock as the tier declares them (what the registry holds: adopted, never changed). */
export interface Registration {
  readonly domain: string;
  readonly nameservers: readonly string[];
  readonly locked: boolean;
}

export function writeConfig(
  run: Run, step: Step | undefined, options: { cloud?: boolean; imports?: Array<{ to: string; id: string }>; registration?: Registration } = {},
): void {
  const n = run.names;
  const resources: Record<string, Record<string, unknown>> = {};
  if (step) {
    resources.reseller_stack_user = { owner: { email: n.owner, person_name: 'Tfacc Owner' }, admin: { email: n.admin } };
    resources.reseller_package = {
      site: {
        domain_name: n.site, extra_domain_names: [step.extra], package_type: step.type, label: step.label,
        stack_user: `\${reseller_stack_user.${step.user}.user_ref}`, enabled: step.enabled,
      },
    };
    resources.reseller_mailbox = {
      info: {
        package: '${reseller_package.site.domain_name}', local_part: 'info', password_wo: '${var.mailbox_password}',
        password_wo_version: step.passwordVersion, send: step.send, receive: step.receive,
      },
    };
    resources.reseller_forwarder = { sales: { package: '${reseller_package.site.domain_name}', local_part: 'sales', remote: step.remote } };
    resources.reseller_autoresponder = {
      away: { package: '${reseller_package.site.domain_name}', local_part: 'away', subject: step.replySubject, content: 'tfacc live tier', end_time: step.replyEnd },
    };
    // A MySQL database whose password rotates with the mailbox's (the same variable and version).
    resources.reseller_mysql_database = {
      shop: { package: '${reseller_package.site.domain_name}', name: n.db, password_wo: '${var.mailbox_password}', password_wo_version: step.passwordVersion },
    };
    const record = (name: string, type: string, value: string, more: Record<string, unknown> = {}) =>
      ({ package: '${reseller_package.site.domain_name}', name, type, value, ...more });
    resources.reseller_dns_record = {
      a: record(n.www, 'A', step.address),
      cname: record(n.cdn, 'CNAME', `${n.www}.${n.site}`),
      txt: record(n.txt, 'TXT', TXT_TEXT),
      mx: record(n.mail, 'MX', MX_TARGET, { priority: 10 }),
    };
    resources.reseller_web_settings = {
      site: { package: '${reseller_package.site.domain_name}', force_https: step.forceHttps, ...(step.phpVersion ? { php_version: step.phpVersion } : {}) },
    };
  }
  if (options.registration) {
    const { domain, nameservers, locked } = options.registration;
    resources.reseller_domain_nameservers = { reg: { domain, nameservers } };
    resources.reseller_domain_transfer_lock = { reg: { domain, locked } };
  }
  if (options.cloud) {
    resources.reseller_cloud_server = {
      web: { host_name: n.server, cloud_provider: 'native', spec: run.s.cloudSpec, zone: 'dc_location-uk', period_months: 1 },
    };
  }
  const doc: Record<string, unknown> = {
    terraform: { required_providers: { reseller: { source: builtProviderInstaller().PROVIDER_SOURCE } } },
    variable: { mailbox_password: { type: 'string', sensitive: true, ephemeral: true } },
    provider: { reseller: {} },
    ...(Object.keys(resources).length ? { resource: resources } : {}),
    ...(options.imports ? { import: options.imports } : {}),
  };
  writeFileSync(join(run.dir, 'main.tf.json'), JSON.stringify(doc, null, 2));
}

/** Polls `done` until it holds, RESELLER_POLL_INTERVAL apart (default 2 s); the test's timeout bounds it. */
async function until(done: () => Promise<boolean>, s: LiveSettings): Promise<void> {
  const interval = timingFromEnv(s.passEnv).pollIntervalMs;
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, interval));
}

/** plan -out, the budget guard (objects the plan creates), apply the saved plan. -> the plan's changes. */
export async function applyWithinBudget(run: Run): Promise<Record<string, string[]>> {
  const plan = await savedPlan(run.tf, run.dir, env(run));
  const creates = Object.values(plan.changes).filter((actions) => actions.includes('create')).length;
  if (run.created + creates > run.s.maxCreates) {
    throw new Error(`budget guard: this apply would create ${creates} object(s) after ${run.created}, over RESELLER_LIVE_MAX_CREATES=${run.s.maxCreates}; nothing was applied`);
  }
  await terraform(run.tf, ['apply', '-input=false', '-no-color', 'p'], run.dir, env(run));
  run.created += creates;
  return plan.changes;
}

async function expectNoChanges(run: Run): Promise<void> {
  const plan = await planExitCode(run.tf, run.dir, env(run));
  if (plan.code !== 0) throw new Error(`expected an empty plan after apply (exit 0), got exit ${plan.code}:\n${plan.output}`);
}

/**
 * afterAll: destroy what Terraform holds, then sweep the run's prefix (what a failed
 * case left outside the state), then fail if anything with the prefix is left but a
 * cloud server (the API cannot cancel one; the sweep keeps it with a warning).
 */
export async function cleanUpRun(run: Pick<Run, 's' | 'client'> & Partial<Pick<Run, 'tf' | 'dir' | 'password'>>): Promise<{ swept: string[]; kept: string[] }> {
  const problems: string[] = [];
  if (run.tf && run.dir && existsSync(join(run.dir, 'terraform.tfstate'))) {
    try {
      await terraform(run.tf, ['destroy', '-auto-approve', '-input=false', '-no-color'], run.dir, env(run as Run));
    } catch (err) {
      problems.push(`terraform destroy failed (the sweep follows): ${(err as Error).message.split('\n')[0]}`);
    }
  }
  const result = await sweep(run.client, run.s.prefix, { yes: true, timing: { pollIntervalMs: timingFromEnv(run.s.passEnv).pollIntervalMs } });
  const swept = result.objects.filter((o) => o.action === 'deleted').map((o) => `${o.kind} ${o.name}`);
  const kept = result.objects.filter((o) => o.action === 'kept').map((o) => `${o.kind} ${o.name}`);
  const left = (await findPrefixed(run.client, run.s.prefix)).filter((c) => !kept.includes(`${c.kind} ${c.name}`));
  if (left.length) problems.push(`left behind with the prefix ${run.s.prefix}: ${left.map((c) => `${c.kind} ${c.name}`).join(', ')}`);
  if (kept.length) process.stderr.write(`live tier: kept (cancel in the control panel): ${kept.join(', ')}\n`);
  if (left.length) throw new Error(problems.join('\n'));
  if (problems.length) process.stderr.write(`live tier: ${problems.join('\n')}\n`);
  return { swept, kept };
}

/** A run's working directory (the provider installed, `terraform init` done), client and names. */
export async function startRun(s: LiveSettings): Promise<Run> {
  const run = { s, created: 0 } as Run;
  run.tf = requireTerraform();
  run.client = new ResellerClient({ baseUrl: s.url, apiKey: s.apiKey, resellerId: s.resellerId });
  run.password = `Live-${randomBytes(12).toString('base64url')}-9`;
  run.names = namesOf(s);
  run.dir = tempDir('live');
  try {
    run.types = await packageTypes(run);
    builtProviderInstaller().installProvider(join(run.dir, 'terraform.d', 'plugins'));
    writeConfig(run, undefined);
    await terraform(run.tf, ['init', '-input=false', '-no-color'], run.dir, env(run));
  } catch (err) {
    run.client.close();
    rmSync(run.dir, { recursive: true, force: true });
    throw err;
  }
  return run;
}

/** The lifecycle's two sets of mutable fields: every one differs between them. */
export function stepsOf(run: Run): [Step, Step] {
  return [
    {
      extra: run.names.alt1, type: run.types[0], label: 'tfacc first', user: 'owner', enabled: true,
      send: true, receive: true, passwordVersion: 1, remote: run.names.remote1, address: '192.0.2.10', forceHttps: true,
      replySubject: 'tfacc away', replyEnd: null,
    },
    {
      extra: run.names.alt2, type: run.types[1], label: 'tfacc second', user: 'admin', enabled: false,
      send: false, receive: false, passwordVersion: 2, remote: run.names.remote2, address: '192.0.2.20', forceHttps: false,
      replySubject: 'tfacc back soon', replyEnd: '2030-01-02T08:00:00Z',
    },
  ];
}

/** Registers the tier's cases; `settingsOf` is called in beforeAll (an emulator's URL is known only then). */
export function defineLiveTier(title: string, settingsOf: () => LiveSettings): void {
  describe(title, () => {
    const run = {} as Run;
    let first: Step;
    let second: Step;

    beforeAll(async () => {
      Object.assign(run, await startRun(settingsOf()));
      [first, second] = stepsOf(run);
      writeConfig(run, first);
    }, LIVE_TIMEOUT_MS);

    afterAll(async () => {
      try {
        if (run.client) await cleanUpRun(run);
      } finally {
        run.client?.close();
        if (run.dir) rmSync(run.dir, { recursive: true, force: true });
      }
    }, LIVE_TIMEOUT_MS);

    const pkg = () => run.client.packages.get(run.names.site);
    const mail = async () => run.client.mail.get(run.names.site, run.names.site);
    /** The run's records in the package's zone, read through the API: `TYPE owner value`, sorted. */
    const records = async () => ((await run.client.dns.getZone(run.names.site, run.names.site))?.records ?? [])
      .filter((r) => r.host.startsWith(run.s.prefix) && r.host !== run.names.site) // not the zone's own records at its apex
      .map((r) => `${r.type} ${r.host} ${r.priority === undefined ? '' : `${r.priority} `}${r.value}`).sort();
    const declaredRecords = (step: Step) => {
      const fq = (name: string) => `${name}.${run.names.site}`;
      return [
        `A ${fq(run.names.www)} ${step.address}`, `CNAME ${fq(run.names.cdn)} ${fq(run.names.www)}`,
        `MX ${fq(run.names.mail)} 10 ${MX_TARGET}`, `TXT ${fq(run.names.txt)} ${TXT_TEXT}`,
      ].sort();
    };

    const databases = async () => (await run.client.databases.list(run.names.site)).map((d) => d.name);

    it('creates two users, a package, a mailbox, a forwarder, an autoresponder, DNS records (A, CNAME, TXT, MX), web settings and a MySQL database; the next plan is empty', async () => {
      const changes = await applyWithinBudget(run);
      expect(Object.values(changes).every((a) => a.join() === 'create')).toBe(true);
      expect(Object.keys(changes).sort()).toEqual([
        'reseller_autoresponder.away', ...RECORD_RESOURCES,
        'reseller_forwarder.sales', 'reseller_mailbox.info', 'reseller_mysql_database.shop', 'reseller_package.site', 'reseller_stack_user.admin', 'reseller_stack_user.owner', WEB_RESOURCE,
      ]);
      expect(await run.client.web.forceHttps(run.names.site)).toBe(true);
      expect(await records()).toEqual(declaredRecords(first));
      expect(await databases()).toEqual([run.names.db]);
      await expectNoChanges(run);
      const site = await pkg();
      expect(site).toMatchObject({ name: run.names.site, enabled: true });
      expect([...site!.names].sort()).toEqual([run.names.alt1, run.names.site].sort());
      if (site!.label !== undefined) expect(site!.label).toBe('tfacc first');
      const m = await mail();
      expect(m.mailboxes.map((b) => [b.local, b.send, b.receive])).toEqual([['info', true, true]]);
      expect(m.forwarders.map((f) => [f.local, f.remote])).toEqual([['sales', run.names.remote1]]);
      expect(m.responders.map((r) => [r.local, r.subject, r.endTime])).toEqual([['away', 'tfacc away', null]]);
    }, LIVE_TIMEOUT_MS);

    it('updates every mutable field in place (no replacement) and replaces a record whose value changed in one write (an update in the plan); the next plan is empty', async () => {
      // A PHP version the package is offered, other than the one it runs (none when it may not switch).
      const [offered, running] = await Promise.all([run.client.web.availablePhpVersions(run.names.site), run.client.web.phpVersion(run.names.site)]);
      const php = offered.map((v) => v.version).find((v) => v !== running);
      second = { ...second, ...(php ? { phpVersion: php } : {}) };
      writeConfig(run, second);
      const changes = await applyWithinBudget(run);
      expect(changes).toEqual({
        'reseller_package.site': ['update'], 'reseller_mailbox.info': ['update'], 'reseller_forwarder.sales': ['update'],
        'reseller_dns_record.a': ['update'], [WEB_RESOURCE]: ['update'], 'reseller_autoresponder.away': ['update'], 'reseller_mysql_database.shop': ['update'], // its password rotated
      });
      expect(await run.client.web.forceHttps(run.names.site)).toBe(false);
      if (php) expect(await run.client.web.phpVersion(run.names.site)).toBe(php);
      expect(await records()).toEqual(declaredRecords(second));
      await expectNoChanges(run);
      const site = await pkg();
      expect(site).toMatchObject({ enabled: false });
      expect([...site!.names].sort()).toEqual([run.names.alt2, run.names.site].sort());
      const types = await run.client.packageTypes.list();
      expect(types.find((t) => t.id === site!.typeRef)?.label).toBe(run.types[1]);
      if (site!.label !== undefined) expect(site!.label).toBe('tfacc second');
      const m = await mail();
      expect(m.mailboxes.map((b) => [b.local, b.send, b.receive])).toEqual([['info', false, false]]);
      expect(m.forwarders.map((f) => [f.local, f.remote])).toEqual([['sales', run.names.remote2]]);
      // Read back in whatever form the API gives, the end time compares equal to the declared one.
      expect(m.responders.map((r) => [r.local, r.subject, r.endTime])).toEqual([['away', 'tfacc back soon', '2030-01-02T08:00:00Z']]);
    }, LIVE_TIMEOUT_MS);

    it('shows changes made through the API in the plan (exit 2), and apply repairs them', async () => {
      const site = (await pkg())!;
      const before = await mail();
      await run.client.mail.delete(site.id, run.names.site, [before.forwarders[0].id]);
      await run.client.mail.createForwarder(site.id, run.names.site, { local: 'sales', remote: run.names.remote1 });
      await run.client.packages.setEnabled(site.id, true);
      await run.client.web.setForceHttps(site.id, true);
      const reply = before.responders[0];
      await run.client.responders.update(site.id, run.names.site, reply.id, { ...reply, subject: 'changed in the panel' });
      // DNS: the TXT record deleted, the CNAME pointed elsewhere (the API has no update: one POST deletes and adds).
      const zone = (await run.client.dns.getZone(site.id, run.names.site))!;
      const ref = (owner: string) => zone.records.find((r) => r.host === `${owner}.${run.names.site}`)!.ref!;
      await run.client.dns.changeZone(site.id, run.names.site, {
        delete: [ref(run.names.txt), ref(run.names.cdn)], add: [{ type: 'CNAME', host: run.names.cdn, value: `elsewhere.${run.s.domain}` }],
      });
      // The database deleted in the control panel (with its data).
      const db = (await run.client.databases.list(site.id)).find((d) => d.name === run.names.db)!;
      await run.client.databases.delete(site.id, db.id);
      // As the core does after every write: read back until the changes are visible (a real API may lag).
      await until(async () => (await pkg())!.enabled && (await run.client.web.forceHttps(site.id)) && (await mail()).forwarders.some((f) => f.remote === run.names.remote1)
        && (await mail()).responders.some((r) => r.subject === 'changed in the panel')
        && (await records()).some((r) => r.endsWith(`elsewhere.${run.s.domain}`)) && (await databases()).length === 0, run.s);
      const plan = await planExitCode(run.tf, run.dir, env(run));
      expect(plan.code).toBe(2);
      const changes = await applyWithinBudget(run);
      expect(changes).toEqual({
        'reseller_package.site': ['update'], 'reseller_forwarder.sales': ['update'], 'reseller_autoresponder.away': ['update'],
        'reseller_dns_record.txt': ['create'], 'reseller_dns_record.cname': ['update'], [WEB_RESOURCE]: ['update'], 'reseller_mysql_database.shop': ['create'],
      });
      await expectNoChanges(run);
      expect(await databases()).toEqual([run.names.db]);
      expect((await pkg())!.enabled).toBe(false);
      expect(await run.client.web.forceHttps(run.names.site)).toBe(false);
      expect((await mail()).forwarders.map((f) => f.remote)).toEqual([run.names.remote2]);
      expect((await mail()).responders.map((r) => r.subject)).toEqual(['tfacc back soon']);
      expect(await records()).toEqual(declaredRecords(second));
    }, LIVE_TIMEOUT_MS);

    it('imports the objects by natural key (terraform import and import blocks); the plan is then empty', async () => {
      for (const address of ['reseller_forwarder.sales', 'reseller_package.site', 'reseller_stack_user.admin', 'reseller_dns_record.mx', WEB_RESOURCE, 'reseller_autoresponder.away', 'reseller_mysql_database.shop']) {
        await terraform(run.tf, ['state', 'rm', '-no-color', address], run.dir, env(run));
      }
      const imported = await terraform(run.tf, ['import', '-input=false', '-no-color', 'reseller_package.site', run.names.site], run.dir, env(run));
      expect(imported.stdout).toContain('Import successful!');
      writeConfig(run, second, { imports: [
        { to: 'reseller_forwarder.sales', id: `sales@${run.names.site}` },
        { to: 'reseller_stack_user.admin', id: run.names.admin },
        { to: 'reseller_dns_record.mx', id: `${run.names.site}/${run.names.mail}/MX/10 ${MX_TARGET}` },
        { to: WEB_RESOURCE, id: run.names.site },
        { to: 'reseller_autoresponder.away', id: `away@${run.names.site}` },
        { to: 'reseller_mysql_database.shop', id: `${run.names.site}/${run.names.db}` },
      ] });
      const plan = await savedPlan(run.tf, run.dir, env(run));
      // An account that does not show a package's label (api-notes: assumed; the documented
      // profile) cannot import it: the plan then writes it once, and is empty afterwards.
      const labelShown = (await pkg())!.label !== undefined;
      // The imported database's state records no password version: the declared one sets its password once.
      expect(plan.planText).toMatch(new RegExp(`Plan: 6 to import, 0 to add, ${labelShown ? 1 : 2} to change, 0 to destroy`));
      expect(plan.changes).toEqual({ 'reseller_mysql_database.shop': ['update'], ...(labelShown ? {} : { 'reseller_package.site': ['update'] }) });
      await terraform(run.tf, ['apply', '-input=false', '-no-color', 'p'], run.dir, env(run));
      writeConfig(run, second);
      await expectNoChanges(run);
    }, LIVE_TIMEOUT_MS);

    it('deletes every object when its resource leaves the configuration (the web settings first go back to the defaults)', async () => {
      writeConfig(run, undefined);
      const changes = await applyWithinBudget(run);
      expect(Object.values(changes).every((a) => a.join() === 'delete')).toBe(true);
      expect(Object.keys(changes)).toHaveLength(8 + RECORD_RESOURCES.length);
      expect(await pkg()).toBeUndefined();
      expect(await run.client.users.findByEmail(run.names.owner)).toBeUndefined();
      expect((await findPrefixed(run.client, run.s.prefix)).map((c) => `${c.kind} ${c.name}`)).toEqual([]);
    }, LIVE_TIMEOUT_MS);

    // A registration's nameservers carry its DNS: the tier adopts them as they are and never writes them.
    it('adopts a registration\'s nameservers and transfer lock as they are (RESELLER_LIVE_REGISTRATION): import, an empty plan, no write; removing them forgets', async () => {
      const domain = run.s.registration;
      if (!domain) {
        process.stderr.write('live tier: no registration adopted (RESELLER_LIVE_REGISTRATION is not set)\n');
        return;
      }
      const nameservers = await run.client.domains.nameservers(domain);
      const allowed = await run.client.domains.transferAllowed(domain);
      if (!nameservers || allowed === undefined) throw new Error(`RESELLER_LIVE_REGISTRATION: the account does not hold ${domain}`);
      const registration = { domain, nameservers, locked: !allowed };
      writeConfig(run, undefined, { registration, imports: [
        { to: 'reseller_domain_nameservers.reg', id: domain }, { to: 'reseller_domain_transfer_lock.reg', id: domain },
      ] });
      const plan = await savedPlan(run.tf, run.dir, env(run));
      expect(plan.planText).toMatch(/Plan: 2 to import, 0 to add, 0 to change, 0 to destroy/);
      await terraform(run.tf, ['apply', '-input=false', '-no-color', 'p'], run.dir, env(run));
      writeConfig(run, undefined, { registration });
      await expectNoChanges(run);
      writeConfig(run, undefined);
      const forgotten = await terraform(run.tf, ['apply', '-auto-approve', '-input=false', '-no-color'], run.dir, env(run));
      expect((forgotten.stdout + forgotten.stderr).replace(/\s+/g, ' ')).toMatch(/only removes it from the state/);
      expect(await run.client.domains.nameservers(domain)).toEqual(nameservers);
      expect(await run.client.domains.transferAllowed(domain)).toBe(allowed);
    }, LIVE_TIMEOUT_MS);

    // Cloud servers cost money and cannot be cancelled through the API: only with RESELLER_LIVE_CLOUD=1.
    it('orders one cloud server only with RESELLER_LIVE_CLOUD=1; deleting it keeps it running, with a warning', async () => {
      if (!run.s.cloud) {
        process.stderr.write('live tier: no cloud server ordered (RESELLER_LIVE_CLOUD is not 1)\n');
        return;
      }
      writeConfig(run, undefined, { cloud: true });
      const changes = await applyWithinBudget(run);
      expect(changes).toEqual({ 'reseller_cloud_server.web': ['create'] });
      await expectNoChanges(run);
      expect((await run.client.cloudServers.list()).map((s) => s.name)).toContain(run.names.server);
      writeConfig(run, undefined);
      const removed = await terraform(run.tf, ['apply', '-auto-approve', '-input=false', '-no-color'], run.dir, env(run));
      expect(removed.stdout + removed.stderr).toMatch(/was NOT cancelled/);
      expect((await run.client.cloudServers.list()).map((s) => s.name)).toContain(run.names.server);
    }, LIVE_TIMEOUT_MS);
  });
}
