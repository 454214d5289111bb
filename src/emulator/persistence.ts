import * as fs from 'node:fs';
import * as path from 'node:path';
import { Account, State } from './backend/model';
import { addAccountMembers, addPackageMembers, badMember, FIRST_STATE_VERSION, freshCounters, nounsNewerThan, stateVersion } from './nouns';
import { arrayOf, fields, hex64, int, nullable, str } from './shape';
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
// Structural check of a loaded state: enough that the emulator never runs on a file whose
// shape it does not understand (which would surface later as 500s). The core checks its
// own members here; each noun checks its members (`check` of its slices).

const brand = nullable((b) => fields(b, { name: str, logoUrl: str }));
const coreAccount = { id: int, keySha256: hex64, balanceCents: int, brand, packages: Array.isArray };
const corePackage = { id: int, names: (n: unknown) => arrayOf(str)(n) && (n as unknown[]).length > 0 };

/**
 * A state of an older version brought to the current one in place: every noun newer
 * than the file (`since`, e.g. DNS zones in version 2) gets its counters and its fresh
 * members on every account and package (zones with their default records, refs from a
 * fresh counter). Anything else, or a state whose core is not sound enough to upgrade,
 * is returned as it is, for checkState to judge.
 */
export function upgradeState(v: unknown): unknown {
  if (!isPlainObject(v) || !int(v.version) || (v.version as number) < FIRST_STATE_VERSION || (v.version as number) >= stateVersion()) return v;
  if (!isPlainObject(v.counters) || !arrayOf((a) => fields(a, coreAccount) && (a as Account).packages.every((p) => fields(p, corePackage)))(v.accounts)) return v;
  const state = v as unknown as State;
  const newer = nounsNewerThan(state.version);
  state.counters = { ...freshCounters(newer), ...state.counters };
  for (const account of state.accounts) {
    addAccountMembers({ state, account, first: false }, newer);
    for (const pkg of account.packages) addPackageMembers({ state, account, pkg }, newer);
  }
  state.version = stateVersion();
  return state;
}

/** undefined when `v` is a usable State, else what is wrong with it. */
export function checkState(v: unknown): string | undefined {
  if (!isPlainObject(v)) return 'no "state" object';
  if (v.version !== stateVersion()) return `state version ${String(v.version)} is not supported (expected ${stateVersion()})`;
  const counters = Object.keys(freshCounters());
  if (!isPlainObject(v.counters) || !counters.every((c) => int((v.counters as Record<string, unknown>)[c]))) return 'bad "counters"';
  if (!int(v.defaultAccountId)) return 'bad "defaultAccountId"';
  if (!Array.isArray(v.accounts)) return '"accounts" is not an array';
  for (const [i, account] of v.accounts.entries()) {
    const problem = accountProblem(account);
    if (problem) return `account #${i} ${problem}`;
  }
  if (!v.accounts.some((a) => (a as { id: number }).id === v.defaultAccountId)) return 'the default account is missing';
  return undefined;
}

function accountProblem(account: unknown): string | undefined {
  if (!fields(account, coreAccount)) return 'has a missing or malformed field';
  const bad = badMember('account', account as Record<string, unknown>);
  if (bad) return `has a missing or malformed "${bad}"`;
  for (const [i, pkg] of (account as Account).packages.entries()) {
    if (!fields(pkg, corePackage)) return `package #${i} has a missing or malformed field`;
    const badInPackage = badMember('package', pkg as unknown as Record<string, unknown>);
    if (badInPackage) return `package #${i} has a missing or malformed "${badInPackage}"`;
  }
  return undefined;
}
