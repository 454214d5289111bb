import { parseForm } from '../../src/emulator/body';
import { decodeToken } from '../../src/emulator/auth';
import { mulberry32, parseFaultRequest } from '../../src/emulator/faults';
import { monthlyPriceCents } from '../../src/emulator/nouns/cloud/assumed';
import { COUNTRY_OF_ZONE, countryOfZone } from '../../src/emulator/nouns/cloud/geo';
import { CLOUD_ZONES, CloudProvider, SPEC_NAMES } from '../../src/protocol/cloud';

describe('parseForm (PHP-style bracket keys)', () => {
  it('builds nested objects and arrays', () => {
    expect(parseForm('new[mailbox][local]=info&new[mailbox][send]=true')).toEqual({ new: { mailbox: { local: 'info', send: 'true' } } });
    expect(parseForm('delete[]=m1&delete[]=f2')).toEqual({ delete: ['m1', 'f2'] });
    expect(parseForm('delete[0]=m1&delete[1]=f2')).toEqual({ delete: ['m1', 'f2'] });
    expect(parseForm('a[2]=x')).toEqual({ a: { 2: 'x' } });
    expect(parseForm('label=A+B%26C&x=')).toEqual({ label: 'A B&C', x: '' });
  });

  it('refuses conflicting or malformed keys', () => {
    expect(() => parseForm('a=1&a[b]=2')).toThrow(/conflicts/);
    expect(() => parseForm('a[b]=2&a=1')).toThrow(/conflicts/);
    expect(() => parseForm('a[b=1')).toThrow(/malformed/);
    expect(() => parseForm('__proto__[x]=1')).toThrow(/not allowed/);
  });
});

describe('decodeToken', () => {
  it('trims exactly one trailing newline', () => {
    expect(decodeToken(Buffer.from('key\n').toString('base64'))).toBe('key');
    expect(decodeToken(Buffer.from('key\n\n').toString('base64'))).toBe('key\n');
    expect(decodeToken(Buffer.from('key').toString('base64'))).toBe('key');
  });
});

describe('faults', () => {
  it('mulberry32 is deterministic per seed and in [0, 1)', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const xs = Array.from({ length: 100 }, () => a());
    expect(Array.from({ length: 100 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(mulberry32(8)()).not.toBe(mulberry32(7)());
  });

  it('accepts one rule or {rules, seed}', () => {
    expect(parseFaultRequest({ path: 'x', status: 500 })).toEqual({ rules: [{ path: 'x', status: 500 }] });
    expect(parseFaultRequest({ rules: [{ path: 'x', latencyMs: 1, method: 'get' }], seed: 3 })).toEqual({
      rules: [{ path: 'x', latencyMs: 1, method: 'GET' }],
      seed: 3,
    });
  });
});

describe('tables', () => {
  it('prices every size, doubling from micro 5.00', () => {
    expect(SPEC_NAMES.map(monthlyPriceCents)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000]);
  });

  it('knows the country of every zone of every provider', () => {
    for (const provider of [CloudProvider.NATIVE, CloudProvider.AWS, CloudProvider.GCP]) {
      for (const zone of CLOUD_ZONES[provider]) expect(COUNTRY_OF_ZONE[zone]).toMatch(/^[A-Z]{2}$/);
    }
    expect(countryOfZone('dc_location-uk')).toBe('GB');
    expect(countryOfZone('dc_location-usa')).toBe('US');
  });
});
