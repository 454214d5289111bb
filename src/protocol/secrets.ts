import { DEFINITIONS, definitionOf, Kind, ObjectSpec, SecretFacet } from './kinds';

/**
 * The secret facet (kinds/definition.ts SecretFacet) as the adapters use it: where a
 * secret is found at apply time and what names it, for any kind, by no field's name.
 */

/** The secret facet of a kind, if it has one. */
export function secretOf(kind: Kind): SecretFacet | undefined {
  return definitionOf(kind).secret;
}

/** The environment variable the object's `envField` names, if it names one (the carriers' `passwordEnv`). */
export function secretEnvName(spec: ObjectSpec): string | undefined {
  const facet = secretOf(spec.kind);
  const name = facet && (spec as Record<string, unknown>)[facet.envField];
  return typeof name === 'string' && name ? name : undefined;
}

/**
 * Where an object's secret is found at apply time, in order: the variable its `envField`
 * names, else the variable the carriers' provisioner passes it in. Empty: no secret.
 */
export function secretSources(spec: ObjectSpec): string[] {
  const facet = secretOf(spec.kind);
  if (!facet) return [];
  const named = secretEnvName(spec);
  return named ? [named, facet.environment] : [facet.environment];
}

/** The object's secret in an environment (`secretSources`), if set and not empty. */
export function secretFromEnv(spec: ObjectSpec, env: NodeJS.ProcessEnv): string | undefined {
  const named = secretEnvName(spec);
  const facet = secretOf(spec.kind);
  if (!facet) return undefined;
  return (named ? env[named] : env[facet.environment]) || undefined;
}

/** The declared secret version of a spec (1 when the facet's version field is absent). */
export function secretVersionOf(spec: ObjectSpec): number | undefined {
  const facet = secretOf(spec.kind);
  if (!facet) return undefined;
  const version = (spec as Record<string, unknown>)[facet.versionField];
  return typeof version === 'number' ? version : 1;
}

/** Every kind's secret facet. */
export function secretFacets(): SecretFacet[] {
  return DEFINITIONS.flatMap((d) => (d.secret ? [d.secret] : []));
}

/** The provisioner environment variables that carry secrets: never a user's own variable name. */
export function secretEnvironments(): string[] {
  return [...new Set(secretFacets().map((s) => s.environment))];
}
