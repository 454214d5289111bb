import { canonicalTimestamp, checkAutoresponder, definitionOf, shortText } from '../../src/protocol';
import type { AutoresponderSpec } from '../../src/protocol';

/**
 * The autoresponder's definition alone: the canonical form of its times (what makes a
 * declared time compare equal to the one the API reads back), its rules, and the long
 * body shown shortened in messages.
 */

const spec = (over: Partial<AutoresponderSpec> = {}) => ({
  kind: 'autoresponder', path: 'p', packageDomain: 'Example.com', domain: 'example.com', localPart: 'Away', subject: 'Out', content: 'Back soon',
  ...over,
}) as AutoresponderSpec;

test.each([
  ['2026-12-24T09:00:00Z', '2026-12-24T09:00:00Z'],
  ['2026-12-24T09:00Z', '2026-12-24T09:00:00Z'],
  ['2026-12-24 10:00:00+01:00', '2026-12-24T09:00:00Z'],
  ['2026-12-24T10:30:00+0130', '2026-12-24T09:00:00Z'],
  ['2026-12-24T09:00:00.000Z', '2026-12-24T09:00:00Z'],
  ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00Z'],
])('canonicalTimestamp(%s) is %s', (text, canonical) => {
  expect(canonicalTimestamp(text)).toBe(canonical);
});

test.each(['2026-12-24T09:00:00', '2026-02-30T09:00:00Z', '2026-12-24T24:00:00Z', '2026-12-24T09:00:00.5Z', '24/12/2026 09:00Z', 'tomorrow'])(
  'canonicalTimestamp(%s) is none (a zone and whole seconds are required; the date must exist)', (text) => {
    expect(canonicalTimestamp(text)).toBeUndefined();
  },
);

test('the canonical spec: address lowercase, defaults (text/plain, enabled, no times, no target), times in UTC, the target canonical', () => {
  expect(checkAutoresponder(spec()).spec).toMatchObject({
    packageDomain: 'example.com', localPart: 'away', contentType: 'text/plain', enabled: true, startTime: null, endTime: null, forwardTo: null,
  });
  expect(checkAutoresponder(spec({ startTime: '2026-12-24T10:00+01:00', forwardTo: 'Desk@Example.ORG' })).spec)
    .toMatchObject({ startTime: '2026-12-24T09:00:00Z', forwardTo: 'Desk@example.org' });
  expect(checkAutoresponder(spec({ startTime: '', endTime: '' })).spec).toMatchObject({ startTime: null, endTime: null });
});

test('rules: an end not after its start, a body over 16384 characters, a subject over 255, each on its field', () => {
  const problems = (over: Partial<AutoresponderSpec>) => checkAutoresponder(spec(over)).problems.map((p) => `${p.field}: ${p.rule}`);
  expect(problems({ startTime: '2026-12-24T09:00:00Z', endTime: '2026-12-24T10:00+01:00' })).toEqual([
    'endTime: (2026-12-24T09:00:00Z) must be after the start time (2026-12-24T09:00:00Z)',
  ]);
  expect(problems({ content: 'x'.repeat(16_384) })).toEqual([]);
  expect(problems({ content: 'x'.repeat(16_385) })).toEqual(['content: is 16385 characters long; at most 16384 are allowed']);
  expect(problems({ subject: 's'.repeat(256) })).toEqual(['subject: is 256 characters long; at most 255 are allowed']);
});

test('the body is a long text: messages show its start and length', () => {
  expect(definitionOf('autoresponder').fields.filter((f) => f.longText).map((f) => f.name)).toEqual(['content']);
  expect(shortText('short')).toBe('short');
  expect(shortText('x'.repeat(100))).toBe(`${'x'.repeat(40)}\u2026 (100 characters)`);
});
