import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import { API_KEY, mailOf, TestEmulator } from '../helpers/emulator';

/** What the emulator shows of a password: its sha256 (hex). */
export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** A mailbox as the emulator holds it (undefined when it does not exist). */
export function mailbox(emu: TestEmulator, domain: string, local: string) {
  return mailOf(emu.account(), domain).mailboxes.find((m) => m.local === local);
}

/** sha256 of the mailbox's current password, as the emulator holds it. */
export function passwordHash(emu: TestEmulator, domain: string, local: string): string {
  const m = mailbox(emu, domain, local);
  if (!m) throw new Error(`mailbox ${local}@${domain} does not exist`);
  return m.passwordSha256;
}

/** The customer changes a mailbox password in the control panel (through the API, outside Terraform). */
export async function customerSetsPassword(emu: TestEmulator, domain: string, local: string, password: string): Promise<void> {
  const pkg = emu.account().packages.find((p) => p.names.includes(domain));
  const m = mailbox(emu, domain, local);
  if (!pkg || !m) throw new Error(`mailbox ${local}@${domain} does not exist`);
  const client = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10 });
  try {
    await client.mail.updateMailbox(pkg.id, domain, { id: m.id, password });
  } finally {
    client.close();
  }
  if (passwordHash(emu, domain, local) !== sha256(password)) throw new Error('the customer password change did not take');
}

export interface LoggedRequest {
  method: string;
  path: string;
  status: number;
}

/** The emulator's request log. */
export const requestLog = async (emu: TestEmulator) => (await emu.control('GET', 'requests')) as LoggedRequest[];

/** Which of the `candidates` the mailbox's password is (for readable failures), or `(another password)`. */
export function passwordAmong(emu: TestEmulator, domain: string, local: string, candidates: string[]): string {
  const hash = passwordHash(emu, domain, local);
  return candidates.find((c) => sha256(c) === hash) ?? '(another password)';
}
