import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { REPO_ROOT } from '../scripts/lib/terraform';
import { BenchEmulator } from './lib/emulator';
import { BENCH_PASSWORD, packageDomain } from './lib/stacks';
import { Comparison, interleave, timeProcess } from './lib/stats';

/**
 * Figure 1: what one provisioner costs when there is nothing to do: `handler ensure`
 * of an object that is already in sync, against bare `node -e 0` (the floor: every
 * provisioner is a node process). Both are timed as a provisioner runs them.
 */
export interface HandlerOverheadResult {
  package: Comparison;
  mailbox: Comparison;
  /** `handler retire-settings` (a replaced settings resource's destroy-time note: no request). */
  retire: Comparison;
}

export const HANDLER_GOAL_RATIO = 1.5;

const BIN = join(REPO_ROOT, 'bin', 'reseller-hosting.js');

export async function benchHandlerOverhead(emu: BenchEmulator, options: { runs: number }): Promise<HandlerOverheadResult> {
  const env = emu.handlerEnv();
  const pkg = {
    kind: 'package', path: 'bench/overhead', domainName: packageDomain(900001), extraDomainNames: [],
    packageType: 'Linux Unlimited', label: 'Overhead', documentRoots: {}, enabled: true, stackUser: { email: 'owner@example.com' },
  };
  const mailbox = {
    kind: 'mailbox', path: 'bench/overhead_mb', packageDomain: pkg.domainName, domain: pkg.domainName, localPart: 'info',
    send: true, receive: true, passwordVersion: 1,
  };
  const handler = async (command: string, spec: object, objectId: string = randomUUID(), expect?: RegExp) => {
    const run = await timeProcess(process.execPath, [BIN, 'handler', command], {
      env: { ...env, RESELLER_SPEC: JSON.stringify(spec), RESELLER_OBJECT_ID: objectId, RESELLER_MAILBOX_PASSWORD: BENCH_PASSWORD },
    });
    if (run.code !== 0 || (expect && !expect.test(run.stdout))) {
      throw new Error(`handler ${command} ${JSON.stringify(spec)}: exit ${run.code}: ${run.stdout}${run.stderr}`);
    }
    return run.ms;
  };
  const floor = async () => (await timeProcess(process.execPath, ['-e', '0'])).ms;
  // Create both once: later ensures find them in sync (as on a re-apply or an adoption).
  await handler('ensure', pkg, undefined, /created package/);
  await handler('ensure', mailbox, undefined, /created mailbox/);
  const packageCmp = await interleave(() => handler('ensure', pkg, undefined, /adopted package/), floor, options.runs);
  // A mailbox's settings resource replaced with nothing changed (same password version):
  // its destroy-time note is taken first (not timed), then ensure reads and writes nothing.
  const retire = (objectId: string) => handler('retire-settings', { object: objectId, passwordVersion: '1', send: 'true', receive: 'true' }, objectId);
  const mailboxCmp = await interleave(async () => {
    const id = randomUUID();
    await retire(id);
    return handler('ensure', mailbox, id, /mailbox info@\S+ is up to date/);
  }, floor, options.runs);
  const retireCmp = await interleave(() => retire(randomUUID()), floor, options.runs);
  return { package: packageCmp, mailbox: mailboxCmp, retire: retireCmp };
}
