import type { FieldDefinition, SecretFacet } from './definition';
import { snakeCase } from './definition';

/** What a kind says of its secret in the fields' descriptions. */
export interface SecretWords {
  /** What the value is, as a description's subject: "The mailbox password". */
  readonly value: string;
  /** What a create makes, which needs the secret: "the mailbox". */
  readonly creates: string;
}

/**
 * The three fields a secret facet names, declared the same way for every kind with a
 * secret (so a kind cannot name one attribute differently from the others): the
 * write-only value (`<field>_wo`), its version (`<field>_wo_version`; raising it writes
 * the secret again) and, for the carriers only, the environment variable that holds
 * the value at apply time (`<field>_env`).
 */
export function secretFields(secret: Pick<SecretFacet, 'field' | 'versionField' | 'envField' | 'words'>, words: SecretWords): FieldDefinition[] {
  const attribute = snakeCase(secret.field);
  return [
    { name: secret.field, attribute: `${attribute}_wo`, type: 'string', role: 'write-only', presence: 'optional', readable: false,
      description: `${words.value}: write-only, never in state or plan; needed to create ${words.creates}.` },
    { name: secret.versionField, attribute: `${attribute}_wo_version`, type: 'number', role: 'setting', presence: 'optional', readable: false,
      description: `Raise it to set the ${secret.words} again (rotation).` },
    { name: secret.envField, attribute: `${attribute}_env`, type: 'string', role: 'setting', presence: 'optional', readable: false, carrierOnly: true,
      description: `Name of the environment variable that holds the ${secret.words} at apply time.` },
  ];
}
