import {
  enabledFromPackageDetail,
  forwardListOfMailRead,
  labelFromPackageDetail,
  responderListOfMailRead,
  responderTimeOfRead,
  labelFromPackageLabels,
  typeRefFromPackageDetail,
  verifiableLabelFromPackageLabels,
} from '../../src/client/assumptions';
import { parsePackageDetail, parsePackageSummary } from '../../src/client/packages';
import { parseMailDomain } from '../../src/client/mail';
import { parseUserList } from '../../src/client/users';
import { parseCloudServer } from '../../src/client/cloud-servers';
import { ShapeMismatch } from '../../src/client/shape';

/**
 * DESIGN §3, tolerant reader: ids as strings or numbers, booleans as true/1/"1", missing
 * optional members accepted, unknown members kept out of the way; every assumption
 * behind one function of client/assumptions.ts.
 */

const web = { name: 'a.com', platform: 'linux' };

describe('package detail', () => {
  it('reads the documented-profile shape: status, web.typeRef, no label', () => {
    const detail = parsePackageDetail(
      { id: '7', status: 1, names: ['a.com'], stackUsers: ['stack-user:1'], web: { ...web, typeRef: '812', info: { ip4Address: '192.0.2.8' } }, limits: { domains: 'INF' } },
      '',
    );
    expect(detail).toEqual({ id: 7, enabled: true, name: 'a.com', names: ['a.com'], stackUsers: ['stack-user:1'], typeRef: 812, platform: 'linux', webIpv4: '192.0.2.8' });
    expect(detail).not.toHaveProperty('label');
    // No web.info, or no address in it: none (the data source shows null), never an error.
    expect(parsePackageDetail({ id: 7, status: 1, names: ['a.com'], web: { ...web, typeRef: 812 } }, '')).not.toHaveProperty('webIpv4');
    expect(parsePackageDetail({ id: 7, status: 1, names: ['a.com'], web: { ...web, typeRef: 812, info: { ip4Address: 'n/a' } } }, '')).not.toHaveProperty('webIpv4');
    expect(detail).not.toHaveProperty('limits'); // unknown members stay out of the typed value
  });

  it.each([
    [true, true], [1, true], ['1', true], ['true', true], [false, false], [0, false], ['0', false], ['false', false],
  ])('status %p -> enabled %p', (status, enabled) => {
    expect(enabledFromPackageDetail({ status }, '')).toBe(enabled);
  });

  it('status wins over enabled; enabled is the fallback; neither is a shape error', () => {
    expect(enabledFromPackageDetail({ status: false, enabled: true }, '')).toBe(false);
    expect(enabledFromPackageDetail({ enabled: '1' }, '')).toBe(true);
    expect(() => enabledFromPackageDetail({}, '')).toThrow(ShapeMismatch);
    expect(() => enabledFromPackageDetail({ status: 'maybe' }, '')).toThrow(/status/);
  });

  it('typeRef: top level first, else web.typeRef; a number or a digit string', () => {
    expect(typeRefFromPackageDetail({ typeRef: 811 }, { typeRef: 812 }, '')).toBe(811);
    expect(typeRefFromPackageDetail({}, { typeRef: '812' }, '')).toBe(812);
    expect(() => typeRefFromPackageDetail({}, {}, '')).toThrow(/web\.typeRef/);
  });

  it('label: the string (null = none); else a non-empty packageLabels; else undefined (not verifiable)', () => {
    expect(labelFromPackageDetail({ label: 'Shop' }, '')).toBe('Shop');
    expect(labelFromPackageDetail({ label: null }, '')).toBe('');
    expect(labelFromPackageDetail({ label: '' }, '')).toBe('');
    expect(labelFromPackageDetail({ packageLabels: [{ label: 'L' }] }, '')).toBe('L');
    expect(labelFromPackageDetail({ packageLabels: [] }, '')).toBeUndefined();
    expect(labelFromPackageDetail({}, '')).toBeUndefined();
    expect(() => labelFromPackageDetail({ label: 5 }, '')).toThrow(/label/);
  });
});

describe('package list entry', () => {
  const entry = { id: 9, enabled: '0', name: 'b.com', names: ['b.com'], typeRef: '811', surprise: { x: 1 } };

  it('accepts missing optional members and string ids/booleans; ignores unknown members', () => {
    expect(parsePackageSummary(entry, '[0]')).toEqual({
      id: 9, created: '', enabled: false, name: 'b.com', names: ['b.com'], packageTypeName: '', productSpec: null, stackUsers: [], typeRef: 811, packageLabels: [],
    });
  });

  it('an empty packageLabels reads as "" for display, and as not verifiable for comparing', () => {
    expect(labelFromPackageLabels([])).toBe('');
    expect(verifiableLabelFromPackageLabels([])).toBeUndefined();
    expect(verifiableLabelFromPackageLabels(['Shop'])).toBe('Shop');
    expect(verifiableLabelFromPackageLabels([{ name: 'N' }])).toBe('N');
  });
});

describe('mail read', () => {
  it('no forward member: no forwarders; an unknown domain member is ignored', () => {
    const mail = parseMailDomain({ name: 'a.com', domain: 'a.com', mailbox: [{ id: 'm1', local: 'info', send: 'true', receive: 0 }] });
    expect(mail).toEqual({ name: 'a.com', mailboxes: [{ id: 'm1', local: 'info', send: true, receive: false, enabled: true }], forwarders: [], responders: [] });
    expect(forwardListOfMailRead({ forward: null })).toEqual([]);
    expect(() => forwardListOfMailRead({ forward: 'x' })).toThrow(/forward/);
  });

  it('no responder member: no autoresponders; times in any ISO 8601 form, seconds or none read as canonical UTC; flags and type tolerant', () => {
    expect(responderListOfMailRead({ responder: null })).toEqual([]);
    const mail = parseMailDomain({
      name: 'a.com', mailbox: [],
      responder: [
        { id: 'r1', local: 'Away', subject: 'Out', content: 'Soon', forwardTo: '', enabled: '1', startTime: '2026-12-24T09:00:00.000Z', endTime: '2027-01-02 09:00:00+01:00' },
        { id: 'r2', local: 'gone', subject: 7, content: null, type: 'text/html', startTime: 1798102800, endTime: '2026-12-24 09:00' },
        { id: 'r3', local: 'odd', startTime: 'next week', endTime: 0 },
      ],
    });
    expect(mail.responders).toEqual([
      { id: 'r1', local: 'Away', subject: 'Out', content: 'Soon', type: 'text/plain', enabled: true, startTime: '2026-12-24T09:00:00Z', endTime: '2027-01-02T08:00:00Z', forwardTo: null },
      { id: 'r2', local: 'gone', subject: '7', content: '', type: 'text/html', enabled: true, startTime: '2026-12-24T09:00:00Z', endTime: '2026-12-24T09:00:00Z', forwardTo: null },
      // A form it cannot read is kept as read (the difference shows; nothing loops on it).
      { id: 'r3', local: 'odd', subject: '', content: '', type: 'text/plain', enabled: true, startTime: 'next week', endTime: null, forwardTo: null },
    ]);
    expect(responderTimeOfRead('2026-12-24T10:00:00+0100', 'startTime')).toBe('2026-12-24T09:00:00Z');
  });

  it('mailbox stays required: a changed shape is an error, not "no mail"', () => {
    expect(() => parseMailDomain({ name: 'a.com', forward: [] })).toThrow(/mailbox/);
  });
});

describe('users', () => {
  it('contact text sent as numbers (PHP) is read as text; a missing field is ""; [] maps are empty maps', () => {
    const list = parseUserList({
      contact: { 'stack-user:5': { email: 'a@b.c', person_name: 12345, pc: 78701, ext_billing_ref: 42 } },
      grant_map: [],
      users: { 'stack-user:5': { name: 'a@b.c' } },
      ftpLock: {},
    });
    expect(list.contact['stack-user:5']).toMatchObject({ email: 'a@b.c', person_name: '12345', pc: '78701', ext_billing_ref: '42', city: '' });
    expect(list.grantMap).toEqual({});
  });
});

describe('cloud server', () => {
  it('ids as strings, flags as 1/0 or strings, missing optional members', () => {
    const server = parseCloudServer({ id: '300001', name: 'web1.example.com', isCloud: 1, isManaged: '1', packageIds: ['7', 8], configuration: { Provider: '20icloud', Zone: 'dc_location-uk', spec: 'micro' } }, '[0]');
    expect(server).toMatchObject({ id: 300001, isCloud: true, isManaged: true, packageIds: [7, 8], profileId: 0, location: '' });
  });
});
