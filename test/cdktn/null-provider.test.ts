import * as cdktf from 'cdktf';
import { NullProvider as PrebuiltNullProvider } from '@cdktf/provider-null/lib/provider';
import { Resource as PrebuiltNullResource } from '@cdktf/provider-null/lib/resource';
import { Construct } from 'constructs';

/**
 * The library's own hashicorp/null classes (src/constructs/private/null-provider.ts)
 * synthesize what the prebuilt @cdktf/provider-null 11 did, so stacks made with
 * `resourceType: 'null_resource'` plan no change after the switch: JSON and HCL,
 * under cdktf and under cdktn. (@cdktf/provider-null is a dev dependency only, for
 * this comparison.)
 */

type Cdk = typeof cdktf;
interface NullClasses {
  provider: new (scope: Construct, id: string) => unknown;
  resource: new (scope: Construct, id: string, config: Record<string, unknown>) => cdktf.TerraformResource;
}

/** A stack with the provider and two resources using what the constructs use: triggers, provisioners, count, lifecycle, depends_on. */
function buildStack(cdk: Cdk, classes: NullClasses): cdktf.TerraformStack {
  const stack = new cdk.TerraformStack(cdk.Testing.app({ stubVersion: true }), 'stack');
  new classes.provider(stack, 'null');
  const password = new cdk.TerraformVariable(stack, 'pw', { type: 'string', sensitive: true });
  const first = new classes.resource(stack, 'first', {
    triggers: { kind: 'mailbox', password: password.stringValue },
    provisioners: [{ type: 'local-exec', command: 'create', interpreter: ['node', 'handler.js'], environment: { SPEC: '${jsonencode(self.triggers)}' } }],
    lifecycle: { preventDestroy: true },
  });
  new classes.resource(stack, 'second', { count: 0, dependsOn: [first], triggers: { id: (first as unknown as { id: string }).id } });
  return stack;
}

function synth(cdk: Cdk, classes: NullClasses): { json: unknown; hcl: unknown } {
  const json = JSON.parse(cdk.Testing.synth(buildStack(cdk, classes)));
  const hcl = cdk.Testing.synthHcl(buildStack(cdk, classes));
  return { json, hcl };
}

const prebuilt: NullClasses = { provider: PrebuiltNullProvider, resource: PrebuiltNullResource as never };
const expected = synth(cdktf, prebuilt);

test('under cdktf: the same JSON and HCL as @cdktf/provider-null', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const own = require('../../src/constructs/private/null-provider');
  expect(synth(cdktf, { provider: own.NullProvider, resource: own.NullResource })).toEqual(expected);
  // It is the real thing: the provider, its requirement, the resources.
  const json = expected.json as any;
  expect(json.terraform.required_providers.null).toEqual({ source: 'null', version: '3.2.4' });
  expect(Object.keys(json.resource.null_resource)).toEqual(['first', 'second']);
});

test('under cdktn: the same JSON and HCL as @cdktf/provider-null under cdktf', () => {
  let cdktn!: Cdk;
  let own!: { NullProvider: NullClasses['provider']; NullResource: NullClasses['resource'] };
  jest.isolateModules(() => {
    process.env.RESELLER_HOSTING_CDK = 'cdktn';
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      cdktn = require('cdktn');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      own = require('../../src/constructs/private/null-provider');
    } finally {
      delete process.env.RESELLER_HOSTING_CDK;
    }
  });
  const stack = buildStack(cdktn, { provider: own.NullProvider, resource: own.NullResource });
  expect(stack.node.findChild('first')).toBeInstanceOf(cdktn.TerraformResource); // built on cdktn's classes
  expect(synth(cdktn, { provider: own.NullProvider, resource: own.NullResource })).toEqual(expected);
});
