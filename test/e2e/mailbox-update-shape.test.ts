import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import type { Engine } from '../../src';
import type { RequestLogEntry } from '../../src/emulator';
import { mailOf } from '../helpers/emulator';
import { synthExample } from '../helpers/synth';
import { apiEnv, runBinary } from '../drift/helpers';
import { E2E_TIMEOUT_MS, E2EEmulator, requireTerraform, sha256, stackEnv, startE2EEmulator, tempDir, terraform } from './support';

/**
 * Every path of ours that updates a mailbox sends the keyed form the service's own
 * clients send (`{"update": {"m123": {…}}}`, api-notes "Mail"), never the list shape
 * the emulator only tolerates: the emulator's request log marks a request that relied
 * on a tolerance (`tolerated`), and no request of these runs is so marked. Each run
 * also proves that its updates happened (the password hash, the flags), so a clean log
 * is not a vacuous one. The paths: the native provider under real Terraform (rotation by
 * password_wo_version, and a send change), the terraform_data carriers (the same two),
 * and `reseller-hosting drift --fix` repairing send/receive changed in the control panel.
 */
jest.setTimeout(E2E_TIMEOUT_MS);

const API_KEY = 'e2e-update-shape-key';
const PASSWORD_1 = 'Update-Shape-Passw0rd-1';
const PASSWORD_2 = 'Update-Shape-Passw0rd-2';
const SHOP = 'example-shop.com';

let tf: string;
let emu: E2EEmulator;
let dir: string;

beforeAll(async () => {
  tf = requireTerraform();
  dir = tempDir('update-shape');
  emu = await startE2EEmulator({ dir, apiKey: API_KEY, provisionDelayMs: 100 });
});
afterAll(() => emu?.stop());

const mailbox = (local: string) => mailOf(emu.account(), SHOP).mailboxes.find((m) => m.local === local)!;

/** The mail writes of the log since it was last cleared, and those that relied on a tolerance. */
async function mailWrites(): Promise<{ writes: RequestLogEntry[]; tolerated: RequestLogEntry[] }> {
  const log = await emu.requests();
  const writes = log.filter((e) => e.method === 'POST' && /\/email\//.test(e.path));
  return { writes, tolerated: log.filter((e) => e.tolerated !== undefined) };
}

describe.each<Engine>(['provider', 'terraform_data'])('engine %s', (engine) => {
  const outdir = () => join(dir, `${engine}.out`);
  const env = (password: string) => stackEnv({ url: emu.url, apiKey: API_KEY, password, journalDir: join(dir, `${engine}.journal`) });
  const apply = (stackDir: string, password: string) => terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color'], stackDir, env(password));

  test('rotation by password version and a send change both send the keyed update', async () => {
    const { stackDir } = synthExample({ engine }, outdir());
    await terraform(tf, ['init', '-input=false', '-no-color'], stackDir, env(PASSWORD_1));
    await apply(stackDir, PASSWORD_1);
    expect(mailbox('info').passwordSha256).toBe(sha256(PASSWORD_1));
    expect(mailbox('orders').send).toBe(true);

    await emu.clearRequests();
    synthExample({ engine, infoPasswordVersion: 2, ordersSend: false }, outdir());
    await apply(stackDir, PASSWORD_2);
    expect(mailbox('info').passwordSha256).toBe(sha256(PASSWORD_2));
    expect(mailbox('orders')).toMatchObject({ send: false, receive: true, passwordSha256: sha256(PASSWORD_1) });
    const { writes, tolerated } = await mailWrites();
    expect(writes.length).toBeGreaterThanOrEqual(2);
    expect(writes.every((e) => e.status === 200)).toBe(true);
    expect(tolerated).toEqual([]);
  });

  test('drift --fix repairs send/receive changed in the control panel with the keyed update', async () => {
    if (engine !== 'terraform_data') {
      // drift reads the carriers' stacks (the provider's plan shows drift itself): this engine's stack is only destroyed.
      await terraform(tf, ['destroy', '-auto-approve', '-input=false', '-no-color'], join(outdir(), 'stacks', 'reseller-example'), env(PASSWORD_2));
      expect(emu.account().packages).toEqual([]);
      return;
    }
    const panel = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10 });
    try {
      await panel.mail.updateMailbox(SHOP, SHOP, { id: mailbox('orders').id, send: true, receive: false });
    } finally {
      panel.close();
    }
    expect(mailbox('orders')).toMatchObject({ send: true, receive: false });
    await emu.clearRequests();
    const fixed = await runBinary(['drift', '--stacks', outdir(), '--fix'], apiEnv(emu.url, join(dir, 'drift.journal'), { RESELLER_API_KEY: API_KEY }));
    // Progress goes to stderr, the report to stdout.
    expect(fixed.stderr).toMatch(/adopted mailbox orders@example-shop\.com; updated send true -> false, receive false -> true/);
    expect(fixed.stdout).toMatch(/fixed\s+terraform_data\.shop_orders/);
    expect(mailbox('orders')).toMatchObject({ send: false, receive: true });
    const { writes, tolerated } = await mailWrites();
    expect(writes.length).toBeGreaterThanOrEqual(1);
    expect(tolerated).toEqual([]);
  });
});
