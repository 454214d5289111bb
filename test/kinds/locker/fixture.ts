import { TerraformVariable } from 'cdktf';
import { HostingPackage } from '../../../src';
import type { ObjectSpec } from '../../../src/protocol';
import type { KindFixture } from '../fixtures';
import { Locker } from './construct';
import { Lockers } from './client';

/** The contract suite's fixture of the test-only kind (a locker on the suite's package). */
export const LOCKER_FIXTURE: KindFixture<any> = { // eslint-disable-line @typescript-eslint/no-explicit-any
  // The spec types of the library do not know the test-only kind.
  spec: { kind: 'locker', path: 'contract/locker', packageDomain: 'Example-Kinds.com', name: 'tools', label: 'Tools', passcodeVersion: 1 } as unknown as ObjectSpec,
  change: { label: 'Garden tools' } as never,
  importId: 'example-kinds.com/tools',
  outOfBand: (client, liveId) => client.noun(Lockers).update('example-kinds.com', liveId, { label: 'Changed in the panel' }).then(() => undefined),
  declare: (stack) => new Locker(stack, 'locker', {
    package: HostingPackage.fromDomainName(stack, 'site_ref', 'example-kinds.com'), name: 'tools', label: 'Tools', passcodeVersion: 1,
    passcode: new TerraformVariable(stack, 'password', { type: 'string', sensitive: true }).value,
  }),
};
