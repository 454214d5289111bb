import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runReviewCli } from '../../src/commands/review';
import { capture } from '../drift/helpers';
import { E2E_TIMEOUT_MS, savedPlan, terraform } from '../e2e/support';
import { ProviderWorkspace, Resources, startProviderWorkspace } from './workspace';

/**
 * reseller_autoresponder under real Terraform against the emulator (issue 38): create on
 * an address with no mailbox, times given with an offset and read back in another form
 * (the next plan is empty), a change in the control panel shown and repaired, review's
 * words, plan-time errors for bad input and for the package type's limit, an apply-time
 * error naming the domain, data sources, an `import {}` block, delete.
 */

const SITE = 'reply-site.com';
const STARTER = 'reply-starter.com';
let ws: ProviderWorkspace;

const reply = (extra: Record<string, unknown> = {}) => ({
  package: '${reseller_package.site.domain_name}', local_part: 'away', subject: 'Out of office', content: 'Back on Monday.',
  start_time: '2026-12-24T10:00:00+01:00', end_time: '2027-01-02 08:00Z', forward_to: 'Desk@Example.org', ...extra,
});
const declared = (replies: Record<string, Record<string, unknown>> = { away: reply() }): Resources => ({
  reseller_package: {
    site: { domain_name: SITE, extra_domain_names: [`www.${SITE}`], package_type: 'Linux Unlimited' },
    starter: { domain_name: STARTER, package_type: 'Linux Starter' },
  },
  ...(Object.keys(replies).length ? { reseller_autoresponder: replies } : {}),
});
const onStarter = (local: string) => reply({ package: '${reseller_package.starter.domain_name}', local_part: local, start_time: null, end_time: null });
/** Two autoresponders on the Linux Starter package, whose type allows two. */
const STARTER_PAIR = { one: onStarter('one'), two: onStarter('two') };
const responders = () => ws.emu.account().packages.flatMap((p) => p.mail.flatMap((d) => d.responders));
const apply = () => ws.run(['apply', '-auto-approve']);
/** `terraform plan` that must fail: its output. */
const failingPlan = async () => {
  const plan = await ws.run(['plan'], [1]);
  return plan.stdout + plan.stderr;
};

beforeAll(async () => {
  ws = await startProviderWorkspace({ name: 'provider-autoresponder', provisionDelayMs: 0 }, declared());
}, E2E_TIMEOUT_MS);
afterAll(() => ws?.stop());

describe('reseller_autoresponder with real Terraform', () => {
  it('creates one on an address with neither mailbox nor forwarder; times and address in their canonical forms; the next plan is empty', async () => {
    await apply();
    expect(responders()).toEqual([expect.objectContaining({
      local: 'away', address: `away@${SITE}`, subject: 'Out of office', type: 'text/plain', enabled: true,
      // The emulator reads times back with milliseconds: they compare equal to the declared instants.
      startTime: '2026-12-24T09:00:00.000Z', endTime: '2027-01-02T08:00:00.000Z', forwardTo: 'Desk@example.org',
    })]);
    const mail = ws.emu.account().packages.find((p) => p.name === SITE)!.mail[0];
    expect([mail.mailboxes, mail.forwarders]).toEqual([[], []]);
    expect(await ws.planCode()).toBe(0);
    const state = JSON.parse((await terraform(ws.tf, ['show', '-json', '-no-color'], ws.dir, ws.env)).stdout);
    const resource = state.values.root_module.resources.find((r: { address: string }) => r.address === 'reseller_autoresponder.away');
    expect(resource.values).toMatchObject({ id: `away@${SITE}`, autoresponder_id: expect.stringMatching(/^r[0-9]+$/), content_type: 'text/plain' });
  }, E2E_TIMEOUT_MS);

  it('a change made in the control panel shows in the plan; review says it in words; apply repairs it', async () => {
    const live = (await ws.api.mail.get(SITE, SITE)).responders[0];
    await ws.api.responders.update(SITE, SITE, live.id, { ...live, subject: 'Changed in the panel', enabled: false });
    const plan = await savedPlan(ws.tf, ws.dir, ws.env);
    expect(plan.changes).toEqual({ 'reseller_autoresponder.away': ['update'] });
    expect(plan.showText).toMatch(/~ subject\s+= "Changed in the panel" -> "Out of office"/);
    expect(plan.showText).toMatch(/~ enabled\s+= false -> true/);
    writeFileSync(join(ws.dir, 'plan.json'), plan.jsonText);
    const review = await capture(runReviewCli, [join(ws.dir, 'plan.json')], {});
    expect(review.stdout).toContain(
      `~ autoresponder away@${SITE} is updated in place: subject changed from "Changed in the panel" to "Out of office"; enabled changed from false to true  [reseller_autoresponder.away]`,
    );
    await ws.run(['apply', '-auto-approve', 'p']);
    expect(responders()[0]).toMatchObject({ subject: 'Out of office', enabled: true });
    expect(await ws.planCode()).toBe(0);
  }, E2E_TIMEOUT_MS);

  it('bad input is a plan-time error on the attribute: an end before its start, a body over 16384 characters, an unknown content type', async () => {
    ws.writeConfig(declared({ away: reply({ end_time: '2026-12-24T08:59:59Z' }) }));
    let out = await failingPlan();
    expect(out).toMatch(/end_time/);
    expect(out).toMatch(/\(2026-12-24T08:59:59Z\) must be after the start time \(2026-12-24T09:00:00Z\)/);
    ws.writeConfig(declared({ away: reply({ content: 'x'.repeat(16_385) }) }));
    out = await failingPlan();
    expect(out).toMatch(/content/);
    expect(out).toMatch(/is 16385 characters long; at most 16384 are allowed/);
    ws.writeConfig(declared({ away: reply({ content_type: 'text/markdown' }) }));
    out = await failingPlan();
    expect(out).toMatch(/must be "text\/plain" or "text\/html", not "text\/markdown"/);
    expect(responders()).toHaveLength(1);
  }, E2E_TIMEOUT_MS);

  it('the package type\'s mailAutoresponders limit is a plan-time error on package once the account holds as many', async () => {
    ws.writeConfig(declared({ away: reply(), ...STARTER_PAIR }));
    await apply();
    ws.writeConfig(declared({ away: reply(), ...STARTER_PAIR, three: onStarter('three') }));
    const out = await failingPlan();
    expect(out).toMatch(/reseller_autoresponder\.three/);
    expect(out).toMatch(/names package reply-starter\.com, which already has 2 autoresponder\(s\), the most its package type Linux Starter allows \(mailAutoresponders 2\)/);
    expect(responders().map((r) => r.local).sort()).toEqual(['away', 'one', 'two']);
  }, E2E_TIMEOUT_MS);

  it('a domain that is not the package\'s fails the apply naming it, and creates nothing', async () => {
    ws.writeConfig(declared({ away: reply(), ...STARTER_PAIR, stray: reply({ local_part: 'stray', domain: 'elsewhere.example' }) }));
    const out = await ws.run(['apply', '-auto-approve'], [1]);
    expect(out.stdout + out.stderr).toMatch(/elsewhere\.example is not a domain of package reply-site\.com/);
    expect(responders().map((r) => r.local)).not.toContain('stray');
  }, E2E_TIMEOUT_MS);

  it('data sources read one (by address) and list them (of one package)', async () => {
    ws.writeConfig(declared({ away: reply(), ...STARTER_PAIR }), {
      data: {
        reseller_autoresponder: { one: { package: STARTER, local_part: 'one' } },
        reseller_autoresponders: { site: { package: SITE } },
      },
      output: {
        subject: { value: '${data.reseller_autoresponder.one.subject}' },
        ids: { value: '${data.reseller_autoresponders.site.ids}' },
      },
    });
    await apply();
    const outputs = JSON.parse((await terraform(ws.tf, ['output', '-json', '-no-color'], ws.dir, ws.env)).stdout);
    expect(outputs.subject.value).toBe('Out of office');
    expect(outputs.ids.value).toEqual([`away@${SITE}`]);
  }, E2E_TIMEOUT_MS);

  it('an import {} block adopts an existing one with no change; leaving the configuration deletes them', async () => {
    await terraform(ws.tf, ['state', 'rm', '-no-color', 'reseller_autoresponder.away'], ws.dir, ws.env);
    // Declared in the canonical forms an import reads (another form of the same instant or address plans a one-time update, as for every kind).
    const canonical = reply({ start_time: '2026-12-24T09:00:00Z', end_time: '2027-01-02T08:00:00Z', forward_to: 'Desk@example.org' });
    ws.writeConfig(declared({ away: canonical, ...STARTER_PAIR }), { import: [{ to: 'reseller_autoresponder.away', id: `away@${SITE}` }] });
    const plan = await ws.run(['plan']);
    expect(plan.stdout).toMatch(/Plan: 1 to import, 0 to add, 0 to change, 0 to destroy/);
    await apply();
    ws.writeConfig(declared({}));
    await apply();
    expect(responders()).toEqual([]);
  }, E2E_TIMEOUT_MS);
});
