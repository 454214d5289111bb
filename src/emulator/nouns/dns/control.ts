import { Account } from '../../backend/model';
import { targetAccount } from '../../backend/accounts';
import { validationError } from '../../assumed';
import type { ControlContext } from '../../context';
import { notFound } from '../../errors';
import { bare, Router } from '../../router';
import { expectBody, expectId, expectString } from '../../validate';
import { requirePackage } from '../packages/backend';
import { editRecord, recordView, requireZone } from './backend';
import { WRITABLE_TYPES, WritableType } from './model';
import { readRecordEntry } from './routes';

/**
 * `POST /__emulator/dns`: changes a DNS record in place, keeping its ref, as an edit in
 * the control panel does (the API has no update). For drift tests.
 */
export function addDnsControlRoutes(router: Router<ControlContext>): void {
  router.add('POST', '/__emulator/dns', ({ emu, body }) => {
    const input = expectBody(body);
    const record = emu.store.transact((state) => editDnsRecord(targetAccount(state, input.account), input));
    return bare({ ok: true, record });
  });
}

/**
 * `{account?, package (id or domain), zone, ref, record: {host?, <the type's fields>}}`: changes a record
 * in place, keeping its ref, as an edit in the control panel does (the API has no
 * update). `host` is relative like in a write; absent, the host stays.
 */
function editDnsRecord(account: Account, input: Record<string, unknown>): Record<string, unknown> {
  const pkgRef = typeof input.package === 'string' ? expectString(input.package, 'package', { min: 1 }) : String(expectId(input.package, 'package'));
  const pkg = requirePackage(account, pkgRef);
  const zone = requireZone(pkg, expectString(input.zone, 'zone', { min: 1 }));
  const ref = expectId(input.ref, 'ref');
  const current = zone.records.find((r) => r.ref === ref);
  if (!current) throw notFound(`record ${ref} is not in zone ${zone.apex}`);
  if (!(WRITABLE_TYPES as readonly string[]).includes(current.type)) {
    throw validationError(`record ${ref} is a ${current.type} record, which the control panel does not edit`);
  }
  const next = readRecordEntry(current.type as WritableType, input.record, zone.apex, 'record', current.host);
  return recordView(editRecord(zone, ref, next), { numbersAsText: false, trailingDot: false });
}
