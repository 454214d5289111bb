import type { MessageDescriptor } from './protobuf';

/**
 * The messages of Terraform plugin protocol 6 (as of 6.8, Terraform 1.11) that this
 * provider reads or writes, declared as descriptors with the published field numbers.
 * Fields the provider never uses are left out: the decoder skips them.
 */

const msg = (get: () => MessageDescriptor) => get;

export const DynamicValue: MessageDescriptor = {
  msgpack: { no: 1, type: 'bytes' },
  json: { no: 2, type: 'bytes' },
};

export const AttributePathStep: MessageDescriptor = {
  attributeName: { no: 1, type: 'string' },
  elementKeyString: { no: 2, type: 'string' },
  elementKeyInt: { no: 3, type: 'int64' },
};

export const AttributePath: MessageDescriptor = {
  steps: { no: 1, type: 'message', repeated: true, message: msg(() => AttributePathStep) },
};

export const Diagnostic: MessageDescriptor = {
  severity: { no: 1, type: 'enum' },
  summary: { no: 2, type: 'string' },
  detail: { no: 3, type: 'string' },
  attribute: { no: 4, type: 'message', message: msg(() => AttributePath) },
};

const diagnostics = (no: number) => ({ no, type: 'message', repeated: true, message: msg(() => Diagnostic) }) as const;
const dynamic = (no: number) => ({ no, type: 'message', message: msg(() => DynamicValue) }) as const;

export const SchemaAttribute: MessageDescriptor = {
  name: { no: 1, type: 'string' },
  type: { no: 2, type: 'bytes' },
  description: { no: 3, type: 'string' },
  required: { no: 4, type: 'bool' },
  optional: { no: 5, type: 'bool' },
  computed: { no: 6, type: 'bool' },
  sensitive: { no: 7, type: 'bool' },
  descriptionKind: { no: 8, type: 'enum' },
  deprecated: { no: 9, type: 'bool' },
  writeOnly: { no: 11, type: 'bool' },
};

export const SchemaBlock: MessageDescriptor = {
  version: { no: 1, type: 'int64' },
  attributes: { no: 2, type: 'message', repeated: true, message: msg(() => SchemaAttribute) },
  blockTypes: { no: 3, type: 'message', repeated: true, message: msg(() => SchemaNestedBlock) },
  description: { no: 4, type: 'string' },
  descriptionKind: { no: 5, type: 'enum' },
  deprecated: { no: 6, type: 'bool' },
};

export const SchemaNestedBlock: MessageDescriptor = {
  typeName: { no: 1, type: 'string' },
  block: { no: 2, type: 'message', message: msg(() => SchemaBlock) },
  nesting: { no: 3, type: 'enum' },
  minItems: { no: 4, type: 'int64' },
  maxItems: { no: 5, type: 'int64' },
};

export const Schema: MessageDescriptor = {
  version: { no: 1, type: 'int64' },
  block: { no: 2, type: 'message', message: msg(() => SchemaBlock) },
};

export const ServerCapabilities: MessageDescriptor = {
  planDestroy: { no: 1, type: 'bool' },
  getProviderSchemaOptional: { no: 2, type: 'bool' },
  moveResourceState: { no: 3, type: 'bool' },
};

export const ClientCapabilities: MessageDescriptor = {
  deferralAllowed: { no: 1, type: 'bool' },
  writeOnlyAttributesAllowed: { no: 2, type: 'bool' },
};

const clientCapabilities = (no: number) => ({ no, type: 'message', message: msg(() => ClientCapabilities) }) as const;

export const RawState: MessageDescriptor = {
  json: { no: 1, type: 'bytes' },
  flatmap: { no: 2, type: 'map', mapValue: 'string' },
};

export const Empty: MessageDescriptor = {};

const TypeName: MessageDescriptor = { typeName: { no: 1, type: 'string' } };

/** The request and response descriptors of one RPC. */
export interface RpcDescriptor {
  readonly request: MessageDescriptor;
  readonly response: MessageDescriptor;
}

/**
 * Request and response descriptors of each Provider RPC (tfplugin6.Provider), keyed by
 * the RPC's real name: the server registers `/tfplugin6.Provider/<key>`, and rpc.ts
 * checks its typed requests and responses against these field names.
 */
export const RPC = {
  GetMetadata: {
    request: Empty,
    response: {
      serverCapabilities: { no: 1, type: 'message', message: msg(() => ServerCapabilities) },
      diagnostics: diagnostics(2),
      dataSources: { no: 3, type: 'message', repeated: true, message: msg(() => TypeName) },
      resources: { no: 4, type: 'message', repeated: true, message: msg(() => TypeName) },
      functions: { no: 5, type: 'message', repeated: true, message: msg(() => ({ name: { no: 1, type: 'string' } })) },
      ephemeralResources: { no: 6, type: 'message', repeated: true, message: msg(() => TypeName) },
    },
  },
  GetProviderSchema: {
    request: Empty,
    response: {
      provider: { no: 1, type: 'message', message: msg(() => Schema) },
      resourceSchemas: { no: 2, type: 'map', message: msg(() => Schema) },
      dataSourceSchemas: { no: 3, type: 'map', message: msg(() => Schema) },
      diagnostics: diagnostics(4),
      providerMeta: { no: 5, type: 'message', message: msg(() => Schema) },
      serverCapabilities: { no: 6, type: 'message', message: msg(() => ServerCapabilities) },
      ephemeralResourceSchemas: { no: 8, type: 'map', message: msg(() => Schema) },
    },
  },
  ValidateProviderConfig: {
    request: { config: dynamic(1) },
    response: { diagnostics: diagnostics(2) },
  },
  ValidateResourceConfig: {
    request: { typeName: { no: 1, type: 'string' }, config: dynamic(2), clientCapabilities: clientCapabilities(3) },
    response: { diagnostics: diagnostics(1) },
  },
  ValidateDataResourceConfig: {
    request: { typeName: { no: 1, type: 'string' }, config: dynamic(2) },
    response: { diagnostics: diagnostics(1) },
  },
  ValidateEphemeralResourceConfig: {
    request: { typeName: { no: 1, type: 'string' }, config: dynamic(2) },
    response: { diagnostics: diagnostics(1) },
  },
  UpgradeResourceState: {
    request: { typeName: { no: 1, type: 'string' }, version: { no: 2, type: 'int64' }, rawState: { no: 3, type: 'message', message: msg(() => RawState) } },
    response: { upgradedState: dynamic(1), diagnostics: diagnostics(2) },
  },
  ConfigureProvider: {
    request: { terraformVersion: { no: 1, type: 'string' }, config: dynamic(2), clientCapabilities: clientCapabilities(3) },
    response: { diagnostics: diagnostics(1) },
  },
  ReadResource: {
    request: {
      typeName: { no: 1, type: 'string' }, currentState: dynamic(2), private: { no: 3, type: 'bytes' },
      clientCapabilities: clientCapabilities(5),
    },
    response: { newState: dynamic(1), diagnostics: diagnostics(2), private: { no: 3, type: 'bytes' } },
  },
  PlanResourceChange: {
    request: {
      typeName: { no: 1, type: 'string' }, priorState: dynamic(2), proposedNewState: dynamic(3), config: dynamic(4),
      priorPrivate: { no: 5, type: 'bytes' }, clientCapabilities: clientCapabilities(7),
    },
    response: {
      plannedState: dynamic(1),
      requiresReplace: { no: 2, type: 'message', repeated: true, message: msg(() => AttributePath) },
      plannedPrivate: { no: 3, type: 'bytes' },
      diagnostics: diagnostics(4),
    },
  },
  ApplyResourceChange: {
    request: {
      typeName: { no: 1, type: 'string' }, priorState: dynamic(2), plannedState: dynamic(3), config: dynamic(4),
      plannedPrivate: { no: 5, type: 'bytes' },
    },
    response: { newState: dynamic(1), private: { no: 2, type: 'bytes' }, diagnostics: diagnostics(3) },
  },
  ImportResourceState: {
    request: { typeName: { no: 1, type: 'string' }, id: { no: 2, type: 'string' }, clientCapabilities: clientCapabilities(3) },
    response: {
      importedResources: {
        no: 1, type: 'message', repeated: true,
        message: msg(() => ({ typeName: { no: 1, type: 'string' }, state: dynamic(2), private: { no: 3, type: 'bytes' } })),
      },
      diagnostics: diagnostics(2),
    },
  },
  MoveResourceState: {
    request: {
      sourceProviderAddress: { no: 1, type: 'string' }, sourceTypeName: { no: 2, type: 'string' },
      sourceState: { no: 4, type: 'message', message: msg(() => RawState) }, targetTypeName: { no: 5, type: 'string' },
    },
    response: { targetState: dynamic(1), diagnostics: diagnostics(2), targetPrivate: { no: 3, type: 'bytes' } },
  },
  ReadDataSource: {
    request: { typeName: { no: 1, type: 'string' }, config: dynamic(2), providerMeta: dynamic(3), clientCapabilities: clientCapabilities(4) },
    response: { state: dynamic(1), diagnostics: diagnostics(2) },
  },
  // renew_at (a Timestamp) and deferred are left out: no ephemeral resource here expires or defers.
  OpenEphemeralResource: {
    request: { typeName: { no: 1, type: 'string' }, config: dynamic(2), clientCapabilities: clientCapabilities(3) },
    response: { diagnostics: diagnostics(1), result: dynamic(3), private: { no: 4, type: 'bytes' } },
  },
  RenewEphemeralResource: {
    request: { typeName: { no: 1, type: 'string' }, private: { no: 2, type: 'bytes' } },
    response: { diagnostics: diagnostics(1), private: { no: 3, type: 'bytes' } },
  },
  CloseEphemeralResource: {
    request: { typeName: { no: 1, type: 'string' }, private: { no: 2, type: 'bytes' } },
    response: { diagnostics: diagnostics(1) },
  },
  GetFunctions: { request: Empty, response: { functions: { no: 1, type: 'map', message: msg(() => Empty) }, diagnostics: diagnostics(2) } },
  CallFunction: {
    request: { name: { no: 1, type: 'string' } },
    response: { error: { no: 2, type: 'message', message: msg(() => ({ text: { no: 1, type: 'string' } })) } },
  },
  StopProvider: { request: Empty, response: { error: { no: 1, type: 'string' } } },
} as const satisfies Record<string, RpcDescriptor>;

/** The name of a tfplugin6.Provider RPC. */
export type RpcName = keyof typeof RPC;

/** Diagnostic.Severity */
export const SEVERITY = { error: 1, warning: 2 } as const;
/** Schema.NestedBlock.NestingMode */
export const NESTING_SINGLE = 1;
