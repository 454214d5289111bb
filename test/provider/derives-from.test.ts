import { DEFINITIONS } from '../../src/protocol';

/**
 * Every computed field of every kind says which fields its value follows (so a plan
 * knows when to keep it and when it is known only after apply), and names real,
 * non-computed fields of its own kind.
 */
describe('derivesFrom of computed fields', () => {
  for (const def of DEFINITIONS) {
    it(`is declared for each computed field of ${def.kind}, naming its own input fields`, () => {
      const inputs = new Set(def.fields.filter((f) => f.role !== 'computed').map((f) => f.name));
      for (const field of def.fields.filter((f) => f.role === 'computed')) {
        expect({ field: field.name, derivesFrom: field.derivesFrom }).toEqual({ field: field.name, derivesFrom: expect.any(Array) });
        for (const input of field.derivesFrom ?? []) expect({ field: field.name, input, known: inputs.has(input) }).toEqual({ field: field.name, input, known: true });
      }
    });
  }
});
