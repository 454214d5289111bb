import { registerApiNoun } from '../../../src/emulator/nouns';
import { registerKind } from '../../../src/protocol';
import { registerReconciler } from '../../../src/reconcile';
import { lockerDefinition } from './definition';
import { lockersNoun } from './emulator';
import { lockerReconciler } from './reconciler';

/**
 * Registers the contract suite's test-only kind where a real kind is registered: its
 * definition (a real kind: one entry of LIST in src/protocol/kinds/index.ts), its
 * reconciler (RECONCILERS in src/reconcile/index.ts) and its emulator noun
 * (src/emulator/nouns/index.ts). Its construct and client noun need no registration
 * to work (a real kind exports the construct from src/index.ts and gives the client a
 * property for its noun). Import it before anything that reads the kind list.
 */
export const TEST_KIND = 'locker';

let done = false;
export function registerTestKind(): void {
  if (done) return;
  done = true;
  registerKind(lockerDefinition);
  registerReconciler(TEST_KIND, lockerReconciler);
  registerApiNoun(lockersNoun);
}

registerTestKind();
