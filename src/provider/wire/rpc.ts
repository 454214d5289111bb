import type { RPC, RpcName } from './messages';

/**
 * The typed seam between the wire and the provider, as terraform-plugin-go's
 * tfprotov6.ProviderServer is: each tfplugin6.Provider RPC this provider serves, with
 * the request the decoder hands over and the response the encoder takes. The encoder
 * drops a field it has no descriptor for, so a misspelt response field would otherwise
 * vanish without a word; here it fails to compile, and the check at the end of this file
 * keeps every field named below a field of the RPC's descriptor in messages.ts.
 */

/** A value as Terraform sends it: msgpack (usual) or JSON. */
export interface DynamicValue {
  readonly msgpack?: Buffer;
  readonly json?: Buffer;
}

export interface AttributePathStep {
  readonly attributeName?: string;
  readonly elementKeyString?: string;
  readonly elementKeyInt?: number;
}

export interface AttributePath {
  readonly steps: readonly AttributePathStep[];
}

export interface Diagnostic {
  /** SEVERITY in messages.ts. */
  readonly severity: number;
  readonly summary: string;
  readonly detail?: string;
  readonly attribute?: AttributePath;
}

export interface ServerCapabilities {
  readonly planDestroy?: boolean;
  readonly getProviderSchemaOptional?: boolean;
  readonly moveResourceState?: boolean;
}

export interface ClientCapabilities {
  readonly deferralAllowed?: boolean;
  readonly writeOnlyAttributesAllowed?: boolean;
}

export interface SchemaAttribute {
  readonly name: string;
  /** The cty type as JSON bytes (typeJson). */
  readonly type: Buffer;
  readonly description?: string;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
  readonly sensitive?: boolean;
  readonly descriptionKind?: number;
  readonly deprecated?: boolean;
  readonly writeOnly?: boolean;
}

export interface SchemaBlock {
  readonly version?: number;
  readonly attributes?: readonly SchemaAttribute[];
  readonly blockTypes?: readonly SchemaNestedBlock[];
  readonly description?: string;
  readonly descriptionKind?: number;
  readonly deprecated?: boolean;
}

export interface SchemaNestedBlock {
  readonly typeName: string;
  readonly block: SchemaBlock;
  readonly nesting: number;
  readonly minItems?: number;
  readonly maxItems?: number;
}

export interface Schema {
  readonly version?: number;
  readonly block: SchemaBlock;
}

export interface RawState {
  readonly json?: Buffer;
  readonly flatmap?: Readonly<Record<string, string>>;
}

interface TypeName {
  readonly typeName: string;
}

type Diagnostics = { readonly diagnostics?: readonly Diagnostic[] };

/** Requests and responses of the RPCs, by the RPC's real name. */
export interface Rpcs {
  GetMetadata: {
    request: Record<string, never>;
    response: Diagnostics & {
      serverCapabilities?: ServerCapabilities;
      dataSources?: readonly TypeName[];
      resources?: readonly TypeName[];
      functions?: readonly { name: string }[];
      ephemeralResources?: readonly TypeName[];
    };
  };
  GetProviderSchema: {
    request: Record<string, never>;
    response: Diagnostics & {
      provider?: Schema;
      resourceSchemas?: Readonly<Record<string, Schema>>;
      dataSourceSchemas?: Readonly<Record<string, Schema>>;
      providerMeta?: Schema;
      serverCapabilities?: ServerCapabilities;
      ephemeralResourceSchemas?: Readonly<Record<string, Schema>>;
    };
  };
  ValidateProviderConfig: {
    request: { config?: DynamicValue };
    response: Diagnostics;
  };
  ConfigureProvider: {
    request: { terraformVersion?: string; config?: DynamicValue; clientCapabilities?: ClientCapabilities };
    response: Diagnostics;
  };
  ValidateResourceConfig: {
    request: TypeName & { config?: DynamicValue; clientCapabilities?: ClientCapabilities };
    response: Diagnostics;
  };
  UpgradeResourceState: {
    request: TypeName & { version?: number; rawState?: RawState };
    response: Diagnostics & { upgradedState?: DynamicValue };
  };
  ReadResource: {
    request: TypeName & { currentState?: DynamicValue; private?: Buffer; clientCapabilities?: ClientCapabilities };
    response: Diagnostics & { newState?: DynamicValue; private?: Buffer };
  };
  PlanResourceChange: {
    request: TypeName & {
      priorState?: DynamicValue; proposedNewState?: DynamicValue; config?: DynamicValue;
      priorPrivate?: Buffer; clientCapabilities?: ClientCapabilities;
    };
    response: Diagnostics & { plannedState?: DynamicValue; requiresReplace?: readonly AttributePath[]; plannedPrivate?: Buffer };
  };
  ApplyResourceChange: {
    request: TypeName & { priorState?: DynamicValue; plannedState?: DynamicValue; config?: DynamicValue; plannedPrivate?: Buffer };
    response: Diagnostics & { newState?: DynamicValue; private?: Buffer };
  };
  ImportResourceState: {
    request: TypeName & { id: string; clientCapabilities?: ClientCapabilities };
    response: Diagnostics & { importedResources?: readonly (TypeName & { state?: DynamicValue; private?: Buffer })[] };
  };
  MoveResourceState: {
    request: { sourceProviderAddress?: string; sourceTypeName?: string; sourceState?: RawState; targetTypeName: string };
    response: Diagnostics & { targetState?: DynamicValue; targetPrivate?: Buffer };
  };
  ValidateDataResourceConfig: {
    request: TypeName & { config?: DynamicValue };
    response: Diagnostics;
  };
  ReadDataSource: {
    request: TypeName & { config?: DynamicValue; providerMeta?: DynamicValue; clientCapabilities?: ClientCapabilities };
    response: Diagnostics & { state?: DynamicValue };
  };
  ValidateEphemeralResourceConfig: { request: TypeName & { config?: DynamicValue }; response: Diagnostics };
  OpenEphemeralResource: {
    request: TypeName & { config?: DynamicValue; clientCapabilities?: ClientCapabilities };
    response: Diagnostics & { result?: DynamicValue; private?: Buffer };
  };
  RenewEphemeralResource: { request: TypeName & { private?: Buffer }; response: Diagnostics & { private?: Buffer } };
  CloseEphemeralResource: { request: TypeName & { private?: Buffer }; response: Diagnostics };
  GetFunctions: { request: Record<string, never>; response: Diagnostics & { functions?: Readonly<Record<string, Record<string, never>>> } };
  CallFunction: { request: { name: string }; response: { error?: { text: string } } };
  StopProvider: { request: Record<string, never>; response: { error?: string } };
}

export type RpcRequest<N extends RpcName> = Rpcs[N]['request'];
export type RpcResponse<N extends RpcName> = Rpcs[N]['response'];

/** One RPC's handler: the decoded request in, the response to encode out. */
export type RpcHandler<N extends RpcName> = (request: RpcRequest<N>) => Promise<RpcResponse<N>>;

/** Every RPC of tfplugin6.Provider this provider answers. */
export type ProviderServer = { [N in RpcName]: RpcHandler<N> };

type KeysOf<R> = R extends unknown ? keyof R : never;
/** The fields a handler answers that its RPC's response does not have. */
type Misspelt<N extends RpcName, F> = F extends (...args: never[]) => Promise<infer R> ? Exclude<KeysOf<R>, keyof RpcResponse<N>> : never;
/** Each handler as it is, or, when it answers a field its response lacks, a type naming that field. */
export type WithoutMisspeltFields<T> = {
  [N in keyof T]: N extends RpcName ? ([Misspelt<N, T[N]>] extends [never] ? T[N] : { 'not a response field': Misspelt<N, T[N]> }) : never;
};

/**
 * Handlers, checked for exact responses. A function's contextual type does not reject
 * extra properties of the object it returns (`{ newStat }` is a fine `{ newState? }`),
 * and the encoder would drop them: passing the handlers through this function makes a
 * field their RPC's response does not have a compile error on that handler.
 */
export function checkedHandlers<T extends Partial<ProviderServer>>(handlers: T & WithoutMisspeltFields<T>): T {
  return handlers;
}

// Compile-time: every RPC has types, and every field a type names is a field of the wire's descriptor.
type FieldsOf<D> = D extends Readonly<Record<infer K, unknown>> ? K : never;
type Extra<T, D> = Exclude<keyof T, FieldsOf<D>>;
type Checked = {
  [N in RpcName]: [Extra<Rpcs[N]['response'], (typeof RPC)[N]['response']>, Extra<Rpcs[N]['request'], (typeof RPC)[N]['request']>];
};
const wireFieldsOnly: { [N in RpcName]: [never, never] } = {} as Checked;
void wireFieldsOnly;
const everyRpcTyped: RpcName extends keyof Rpcs ? (keyof Rpcs extends RpcName ? true : false) : false = true;
void everyRpcTyped;
