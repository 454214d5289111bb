import { decode, encode, ExtData } from '@msgpack/msgpack';
import { decodeMessage, encodeMessage } from '../../src/provider/wire/protobuf';
import { Diagnostic, DynamicValue, RPC } from '../../src/provider/wire/messages';
import { decodeDynamic, encodeDynamic, isUnknown, TfType, UNKNOWN } from '../../src/provider/wire/values';

const RESOURCE: TfType = ['object', {
  id: 'string',
  name: 'string',
  count: 'number',
  enabled: 'bool',
  names: ['list', 'string'],
  roots: ['map', 'string'],
  tags: ['set', 'string'],
  timeouts: ['object', { create: 'string' }],
}];

const wire = (value: unknown) => ({ msgpack: Buffer.from(encode(value)) });

describe('msgpack DynamicValue codec', () => {
  it('reads an unknown value in either extension form (code 0, and a refined unknown, code 12)', () => {
    const refined = new ExtData(12, encode(new Map<number, unknown>([[1, false], [2, "web"]])));
    const value = decodeDynamic(wire({ id: new ExtData(0, new Uint8Array(0)), name: refined, names: [new ExtData(0, new Uint8Array([1]))] }), RESOURCE) as any;
    expect(isUnknown(value.id)).toBe(true);
    expect(isUnknown(value.name)).toBe(true);
    expect(value.names).toHaveLength(1);
    expect(isUnknown(value.names[0])).toBe(true);
  });

  it('sends an unknown as extension code 0 and reads it back as unknown', () => {
    const { msgpack } = encodeDynamic({ id: UNKNOWN, name: 'a' }, RESOURCE);
    const raw = decode(msgpack) as Record<string, unknown>;
    expect(raw.id).toBeInstanceOf(ExtData);
    expect((raw.id as ExtData).type).toBe(0);
    expect(isUnknown((decodeDynamic({ msgpack }, RESOURCE) as any).id)).toBe(true);
  });

  it('keeps nulls: a missing or nil attribute is null, a null object is null', () => {
    const value = decodeDynamic(wire({ name: 'a', count: null }), RESOURCE) as any;
    expect(value).toEqual({ id: null, name: 'a', count: null, enabled: null, names: null, roots: null, tags: null, timeouts: null });
    expect(decodeDynamic(wire(null), RESOURCE)).toBeNull();
    expect(decode(encodeDynamic(null, RESOURCE).msgpack)).toBeNull();
    // Every attribute of the object type is written, null when absent (Terraform expects them all).
    expect(decode(encodeDynamic({ name: 'a' }, RESOURCE).msgpack)).toEqual({
      id: null, name: 'a', count: null, enabled: null, names: null, roots: null, tags: null, timeouts: null,
    });
  });

  it('round-trips nested types: lists, sets, maps and a nested block object', () => {
    const value = {
      id: 'example.com', name: 'Example', count: 3, enabled: false,
      names: ['a.example', 'b.example'], roots: { 'a.example': 'public_html/a' }, tags: ['x'],
      timeouts: { create: '45m' },
    };
    expect(decodeDynamic(encodeDynamic(value, RESOURCE), RESOURCE)).toEqual(value);
  });

  it('reads numbers sent as floats, integers or decimal strings', () => {
    expect((decodeDynamic(wire({ count: 1.5 }), RESOURCE) as any).count).toBe(1.5);
    expect((decodeDynamic(wire({ count: '42' }), RESOURCE) as any).count).toBe(42);
    expect((decodeDynamic(wire({ count: 7 }), RESOURCE) as any).count).toBe(7);
  });

  it('sends numbers as the decimal strings a state file holds (so a refresh matches the state exactly)', () => {
    const raw = decode(encodeDynamic({ count: 1000001 }, RESOURCE).msgpack) as Record<string, unknown>;
    expect(raw.count).toBe('1000001');
    expect(decode(encodeDynamic({ count: 0.25 }, RESOURCE).msgpack)).toMatchObject({ count: '0.25' });
    expect((decodeDynamic(encodeDynamic({ count: 3600 }, RESOURCE), RESOURCE) as any).count).toBe(3600);
  });

  it('falls back to the JSON encoding when msgpack is empty', () => {
    const json = Buffer.from(JSON.stringify({ name: 'a', names: ['x'] }));
    expect((decodeDynamic({ msgpack: Buffer.alloc(0), json }, RESOURCE) as any).names).toEqual(['x']);
  });
});

describe('protobuf messages', () => {
  it('encodes with the published field numbers (DynamicValue.msgpack is field 1, bytes)', () => {
    expect(encodeMessage(DynamicValue, { msgpack: Buffer.from([0x81, 0xa1]) }).toString('hex')).toBe('0a0281a1');
  });

  it('round-trips a diagnostic with an attribute path, and leaves proto3 defaults out', () => {
    const diag = {
      severity: 1, summary: 'Invalid domain_name', detail: 'rule',
      attribute: { steps: [{ attributeName: 'extra_domain_names' }, { elementKeyInt: 2 }, { elementKeyString: 'k' }] },
    };
    const back = decodeMessage<any>(Diagnostic, encodeMessage(Diagnostic, diag));
    expect(back.severity).toBe(1);
    expect(back.summary).toBe('Invalid domain_name');
    expect(back.attribute.steps[0].attributeName).toBe('extra_domain_names');
    expect(back.attribute.steps[1].elementKeyInt).toBe(2);
    expect(back.attribute.steps[2].elementKeyString).toBe('k');
    expect(encodeMessage(Diagnostic, { severity: 0, summary: '' })).toHaveLength(0);
  });

  it('encodes map<string, Schema> as entries and skips fields it does not know when decoding', () => {
    const response = RPC.GetProviderSchema.response;
    const bytes = encodeMessage(response, { resourceSchemas: { reseller_package: { version: 0, block: { description: 'd' } } } });
    const back = decodeMessage<any>(response, bytes);
    expect(back.resourceSchemas.reseller_package.block.description).toBe('d');
    // A request carrying a field this provider does not declare (provider_meta, 6) still decodes.
    const extra = Buffer.concat([encodeMessage(RPC.PlanResourceChange.request, { typeName: 't' }), Buffer.from([0x32, 0x02, 0x0a, 0x00])]);
    expect(decodeMessage<any>(RPC.PlanResourceChange.request, extra).typeName).toBe('t');
  });

  it('reads the client capabilities Terraform 1.11 sends (write_only_attributes_allowed is field 2)', () => {
    const bytes = Buffer.from([0x0a, 0x01, 0x74, 0x1a, 0x02, 0x10, 0x01]);
    const req = decodeMessage<any>(RPC.ValidateResourceConfig.request, bytes);
    expect(req.typeName).toBe('t');
    expect(req.clientCapabilities.writeOnlyAttributesAllowed).toBe(true);
  });

  it('round-trips int64 varints of every length: small ones take a fast path, large and negative ones the general one', () => {
    const message = { n: { no: 1, type: 'int64' as const }, flag: { no: 2, type: 'bool' as const }, big: { no: 300000, type: 'int64' as const } };
    for (const n of [1, 127, 128, 300, 16383, 16384, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 0x7fffffff, 2 ** 31, 2 ** 40, Number.MAX_SAFE_INTEGER, -1, -300]) {
      const bytes = encodeMessage(message, { n, flag: true, big: n });
      expect(decodeMessage<any>(message, bytes)).toEqual({ n, flag: true, big: n });
    }
    // The reference encoding: 300 is 0xac 0x02 (protobuf's own example), -1 is ten bytes.
    expect(encodeMessage(message, { n: 300 })).toEqual(Buffer.from([0x08, 0xac, 0x02]));
    expect(encodeMessage(message, { n: -1 })).toHaveLength(11);
  });

  it('writes nested messages of every length with a minimal length prefix (1, 2 and 3 bytes), in place', () => {
    for (const size of [0, 1, 120, 125, 126, 127, 128, 200, 16377, 16378, 16384, 70000]) {
      const detail = 'é'.repeat(Math.floor(size / 2)) + 'x'.repeat(size % 2);
      const diag = { severity: 2, summary: 's', detail, attribute: { steps: [{ attributeName: 'a' }] } };
      const bytes = encodeMessage(RPC.ReadResource.response, { diagnostics: [diag, diag], private: Buffer.from('p') });
      const back = decodeMessage<any>(RPC.ReadResource.response, bytes);
      expect(back.diagnostics).toHaveLength(2);
      expect(back.diagnostics[1]).toMatchObject({ severity: 2, summary: 's', detail, attribute: { steps: [{ attributeName: 'a' }] } });
      expect(back.private).toEqual(Buffer.from('p'));
      // Field 2 (diagnostics): the tag, the minimal varint of the Diagnostic's length, the Diagnostic itself.
      const inner = encodeMessage(Diagnostic, diag);
      const length = inner.length < 0x80 ? [inner.length] : inner.length < 0x4000 ? [(inner.length & 0x7f) | 0x80, inner.length >> 7]
        : [(inner.length & 0x7f) | 0x80, ((inner.length >> 7) & 0x7f) | 0x80, inner.length >> 14];
      expect(bytes.subarray(0, 1 + length.length + inner.length)).toEqual(Buffer.concat([Buffer.from([0x12, ...length]), inner]));
    }
  });
});
