import { providerHandlers } from '../../src/provider/provider';
import { coreModel } from '../../src/provider/kind-resources';
import { RPC, RpcName } from '../../src/provider/wire/messages';
import { decodeMessage, encodeMessage } from '../../src/provider/wire/protobuf';
import { checkedHandlers, ProviderServer } from '../../src/provider/wire/rpc';

/**
 * The typed seam between the wire and the provider (wire/rpc.ts). The encoder drops a
 * field it has no descriptor for, so a misspelt response field must be caught by the
 * compiler: `npx tsc -p tsconfig.test.json` type-checks this file, and each
 * `@ts-expect-error` below fails that check if the line ever compiles.
 */

const empty = { msgpack: Buffer.from([0xc0]) };

describe('the typed RPC seam', () => {
  it('rejects a misspelt response field at compile time', async () => {
    const read = checkedHandlers({
      // @ts-expect-error `newStat` is not a field of ReadResourceResponse (newState is)
      ReadResource: async () => ({ newStat: empty, diagnostics: [] }),
    });
    const plan = checkedHandlers({
      // @ts-expect-error `requireReplace` is not a field of PlanResourceChangeResponse (requiresReplace is)
      PlanResourceChange: async (req) => (req.priorState ? { plannedState: empty, requireReplace: [] } : { diagnostics: [] }),
    });
    const configure = checkedHandlers({
      // @ts-expect-error `diagnostic` is not a field of ConfigureProviderResponse (diagnostics is)
      ConfigureProvider: async () => ({ diagnostic: [] }),
    });
    // The same handlers spelt right compile.
    const right = checkedHandlers({
      ReadResource: async () => ({ newState: empty, diagnostics: [] }),
      PlanResourceChange: async (req) => (req.priorState ? { plannedState: empty, requiresReplace: [] } : { diagnostics: [] }),
      ConfigureProvider: async () => ({ diagnostics: [] }),
    });
    expect([read, plan, configure, right].map((h) => Object.keys(h).length)).toEqual([1, 1, 1, 3]);
  });

  it('rejects a request field the RPC does not have', () => {
    const handler: ProviderServer['ReadResource'] = async (req) => {
      // @ts-expect-error ReadResourceRequest has no `priorState` (it is `currentState`)
      void req.priorState;
      return { newState: req.currentState };
    };
    expect(typeof handler).toBe('function');
  });

  it('serves every RPC of the wire table, keyed by its real name', () => {
    const handlers = providerHandlers(coreModel({}), { log: () => undefined }, {});
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(RPC).sort());
  });

  it('keeps every field a handler answers through the encoder', async () => {
    const handlers = providerHandlers(coreModel({}), { log: () => undefined }, {});
    for (const name of ['GetMetadata', 'GetProviderSchema'] as const satisfies readonly RpcName[]) {
      const response = await handlers[name]({});
      const decoded = decodeMessage(RPC[name].response, encodeMessage(RPC[name].response, response as Record<string, unknown>));
      for (const field of Object.keys(response)) expect(decoded).toHaveProperty(field);
    }
  });
});
