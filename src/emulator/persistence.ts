import * as fs from 'node:fs';
import * as path from 'node:path';
import { Package, State, STATE_VERSION } from './backend/model';
import { RECORD_TYPES, syncZones } from './backend/dns';
import { isPlainObject } from './util';

/**
 * The data file (`--data FILE`): the whole state as JSON, rewritten after every write.
 *
 * Crash safety: the new content goes to a temporary file in the same directory, which
 * is fsynced and then renamed over the data file (rename is atomic on POSIX), and the
 * directory is fsynced so the rename itself is durable. Killing the process at any
 * moment leaves either the old or the new file, never a torn one. A stale temporary
 * file from a killed process is harmless and is overwritten next time.
 *
 * Writes are synchronous on purpose: a write request's state change and its save
 * happen in one turn of the event loop, before the response, so no other request can
 * observe or interleave with a half-done write.
 *
 * A lock file (`FILE.lock`, holding the pid) stops two emulators from sharing a file.
 */

const FORMAT = 'cdktf-reseller-hosting/emulator-state';

/** A data file that cannot be used: startup stops with this message (no silent reset). */
export class EmulatorDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmulatorDataError';
  }
}

export class DataFile {
  readonly file: string;
  private readonly lockFile: string;
  private locked = false;

  constructor(file: string) {
    this.file = path.resolve(file);
    this.lockFile = `${this.file}.lock`;
  }

  /** The saved state, or undefined when the file does not exist yet. */
  load(): State | undefined {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new EmulatorDataError(`cannot read data file ${this.file}: ${(err as Error).message}`);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new EmulatorDataError(`data file ${this.file} is corrupt (not JSON: ${(err as Error).message}); fix or remove it`);
    }
    if (!isPlainObject(doc) || doc.format !== FORMAT) {
      throw new EmulatorDataError(`data file ${this.file} is not an emulator data file (format "${FORMAT}" expected)`);
    }
    const problem = checkState(upgradeState(doc.state));
    if (problem) throw new EmulatorDataError(`data file ${this.file} is corrupt: ${problem}; fix or remove it`);
    return doc.state as State;
  }

  /** Atomically replaces the file with `state` (see the module comment). */
  save(state: State): void {
    const dir = path.dirname(this.file);
    const tmp = path.join(dir, `.${path.basename(this.file)}.${process.pid}.tmp`);
    const text = `${JSON.stringify({ format: FORMAT, savedAt: new Date().toISOString(), state }, null, 2)}\n`;
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, this.file);
    fsyncDirectory(dir);
  }

  /** Takes the lock, or explains who holds it. A lock left by a dead process is taken over. */
  lock(): void {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = fs.openSync(this.lockFile, 'wx', 0o600);
        fs.writeFileSync(fd, `${process.pid}\n`);
        fs.closeSync(fd);
        this.locked = true;
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new EmulatorDataError(`cannot create lock file ${this.lockFile}: ${(err as Error).message}`);
        }
        const holder = Number(readQuietly(this.lockFile).trim());
        if (Number.isInteger(holder) && holder > 0 && processAlive(holder)) {
          throw new EmulatorDataError(`data file ${this.file} is in use by process ${holder} (lock file ${this.lockFile})`);
        }
        fs.rmSync(this.lockFile, { force: true });
      }
    }
    throw new EmulatorDataError(`cannot take lock file ${this.lockFile}`);
  }

  unlock(): void {
    if (!this.locked) return;
    this.locked = false;
    fs.rmSync(this.lockFile, { force: true });
  }
}

/** Makes a rename durable. Not possible on every platform (e.g. Windows): best effort there. */
function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EACCES') throw err;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function readQuietly(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// ---------------------------------------------------------------------------------
// Structural check of a loaded state: enough that the emulator never runs on a file
// whose shape it does not understand (which would surface later as 500s).

type Check = (v: unknown) => boolean;
const int: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v);
const str: Check = (v) => typeof v === 'string';
const bool: Check = (v) => typeof v === 'boolean';
const nullable = (c: Check): Check => (v) => v === null || c(v);
const arrayOf = (c: Check): Check => (v) => Array.isArray(v) && v.every(c);
const hex64: Check = (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

function fields(v: unknown, spec: Record<string, Check>): boolean {
  return isPlainObject(v) && Object.entries(spec).every(([k, c]) => c(v[k]));
}

const contactFields: Record<string, Check> = {
  address: str, avatarUrl: str, cc: str, ccAlpha2: str, ccAlpha3: str, city: str, company_name: str,
  company_number: str, createdAt: str, email: str, ext_billing_ref: nullable(str), nominet_contact_type: str,
  notes: str, pc: str, person_name: str, sp: str, trading_name: str, voice: str, firstName: str, lastName: str,
};
const user: Check = (v) => fields(v, { id: int, packageGrants: arrayOf(int) }) && fields((v as { contact: unknown }).contact, contactFields);
const mailbox: Check = (v) => fields(v, {
  id: int, domain: str, local: str, send: bool, receive: bool, enabled: bool, quotaMB: int, usageMB: int, passwordSha256: hex64,
});
const forwarder: Check = (v) => fields(v, { id: int, domain: str, local: str, remote: str });
const stringMap: Check = (v) => isPlainObject(v) && Object.values(v).every(str);
const recordData: Check = (v) => isPlainObject(v) && Object.values(v).every((x) => str(x) || int(x));
const dnsRecord: Check = (v) => fields(v, {
  ref: nullable(int), type: (t) => typeof t === 'string' && (RECORD_TYPES as readonly string[]).includes(t), host: str, data: recordData,
});
const zone: Check = (v) => fields(v, { apex: str, records: arrayOf(dnsRecord) });
const pkg: Check = (v) => fields(v, {
  id: int, typeId: int, names: (n) => arrayOf(str)(n) && (n as unknown[]).length > 0, label: nullable(str), enabled: bool,
  created: str, documentRoots: stringMap, cloudServerId: nullable(int), mailboxes: arrayOf(mailbox), forwarders: arrayOf(forwarder),
  zones: arrayOf(zone),
});
const server: Check = (v) => fields(v, {
  id: int, externalId: int, name: str, type: str, provider: str, spec: str, zone: str, periodMonths: int,
  bandwidth: nullable(str), disk: nullable(str), branded: bool, forUser: str, chargedCents: int, orderedAtMs: int,
  provisionDelayMs: int, packageIds: arrayOf(int),
});
const account: Check = (v) => fields(v, {
  id: int, keySha256: hex64, balanceCents: int, brand: nullable((b) => fields(b, { name: str, logoUrl: str })),
  packageTypes: arrayOf((t) => fields(t, { id: int, label: str, platform: (p) => p === 'linux' || p === 'windows' })),
  users: arrayOf(user), packages: arrayOf(pkg), cloudServers: arrayOf(server),
});

/**
 * A state of version 1 (before DNS zones) brought to the current version in place: each
 * package gets the zones a new package gets, refs from a fresh counter. Anything else
 * is returned as it is, for checkState to judge.
 */
export function upgradeState(v: unknown): unknown {
  if (!isPlainObject(v) || v.version !== 1 || !isPlainObject(v.counters) || !Array.isArray(v.accounts)) return v;
  const state = v as unknown as State;
  state.counters.dnsRef = 7_000_001;
  for (const account of state.accounts) {
    if (!isPlainObject(account) || !Array.isArray(account.packages)) return v;
    for (const p of account.packages) {
      if (!isPlainObject(p) || !Array.isArray(p.names) || !p.names.every(str)) return v;
      p.zones = [];
      syncZones(state, p as unknown as Package);
    }
  }
  state.version = STATE_VERSION;
  return state;
}

/** undefined when `v` is a usable State, else what is wrong with it. */
export function checkState(v: unknown): string | undefined {
  if (!isPlainObject(v)) return 'no "state" object';
  if (v.version !== STATE_VERSION) return `state version ${String(v.version)} is not supported (expected ${STATE_VERSION})`;
  if (!fields(v.counters, { packageId: int, userId: int, mailId: int, serverId: int, dnsRef: int })) return 'bad "counters"';
  if (!int(v.defaultAccountId)) return 'bad "defaultAccountId"';
  if (!Array.isArray(v.accounts)) return '"accounts" is not an array';
  const bad = v.accounts.findIndex((a) => !account(a));
  if (bad >= 0) return `account #${bad} has a missing or malformed field`;
  if (!v.accounts.some((a) => (a as { id: number }).id === v.defaultAccountId)) return 'the default account is missing';
  return undefined;
}
