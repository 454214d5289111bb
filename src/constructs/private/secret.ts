import { Annotations } from './cdk';
import { IConstruct } from 'constructs';
import { definitionOf, ENV, Kind, secretEnvironments } from '../../protocol';
import { ENV_NAME } from './names';
import { isToken } from './tokens';
import { checkPositiveInteger, describe, Problems } from './validation';

/**
 * The props of a construct whose kind has a secret (the kind definition's secret facet:
 * a mailbox's `password`, `passwordEnv`, `passwordVersion`), read and checked the same
 * way for every such construct: what the spec holds (the version and the variable's
 * name, never the value), what the engine carries (the value and its version), the rules
 * and the synth-time warning for a literal secret in code.
 */
export interface DeclaredSecret {
  /** The spec fields: the version (when a secret is declared) and the variable's name. */
  readonly specFields: Record<string, string | number | undefined>;
  /** What the engine carries: the value (a token, usually) and its version; undefined without a secret. */
  readonly request?: { readonly value?: string; readonly version: number };
  /** The rules of the props (add to the construct's). */
  validate(p: Problems): void;
}

export function declaredSecret(construct: IConstruct, kind: Kind, props: object): DeclaredSecret {
  const facet = definitionOf(kind).secret;
  if (!facet) throw new Error(`a ${kind} has no secret`);
  const given = props as Record<string, unknown>;
  const value = given[facet.field] as string | undefined;
  const envName = given[facet.envField] as string | undefined;
  const declaredVersion = given[facet.versionField] as number | undefined;
  const has = value !== undefined || envName !== undefined;
  const version = declaredVersion ?? 1;
  const path = construct.node.path;

  if (typeof value === 'string' && !isToken(value)) {
    Annotations.of(construct).addWarning(
      `${path}: ${facet.field} is a literal string in the code, so it is stored in the synthesized cdk.tf.json; ` +
        `use the value of a sensitive TerraformVariable (or ${facet.envField}) instead`,
    );
  }
  if (declaredVersion !== undefined && !has) {
    Annotations.of(construct).addWarning(`${path}: ${facet.versionField} has no effect without ${facet.field} or ${facet.envField}`);
  }
  return {
    specFields: { [facet.versionField]: has ? version : undefined, [facet.envField]: envName },
    request: has ? { value, version } : undefined,
    validate(p) {
      if (value !== undefined && envName !== undefined) p.field(facet.field, `and ${facet.envField} must not both be set: give the ${facet.words} one way`);
      if (value !== undefined && !isToken(value)) {
        // Never echo the value: it is a secret.
        if (typeof value !== 'string') p.field(facet.field, 'must be a string');
        else if (value === '') p.field(facet.field, 'must not be empty');
      }
      p.check(facet.envField, envName, (v) => {
        if (v === undefined) return undefined;
        if (typeof v !== 'string' || !ENV_NAME.test(v)) return `${describe(v)} is not a valid environment variable name (letters, digits, "_", not starting with a digit)`;
        if (RESERVED_ENV().includes(v)) return `"${v}" is reserved for the handler's own settings; use a dedicated variable`;
        return undefined;
      });
      p.check(facet.versionField, version, checkPositiveInteger);
    },
  };
}

/** Environment variable names the handler reads itself: never a secret's source. */
const RESERVED_ENV = (): string[] => [...Object.values(ENV), ...secretEnvironments()];
