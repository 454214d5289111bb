import { PROVIDER_SOURCE, PROVIDER_TYPE } from '../../../protocol';
import { packageVersion } from '../../../provider-mirror';
import { stringToHclTerraform, TerraformProvider, TerraformStack } from '../cdk';
import { registryOf } from '../registry';
import { placeProviderAtSynth } from './provider-placement';

/** The construct id of the provider block under its stack. */
const PROVIDER_BLOCK_ID = 'ResellerHostingProvider';

const blocks = new WeakMap<TerraformStack, ResellerProviderBlock>();

/**
 * The stack's `provider "reseller"` block and `required_providers` entry (created with
 * its first provider-engine construct), and discovery: when the stack is synthesized
 * (`app.synth()`, `cdktf synth`), the built provider is placed in the stack directory's
 * implied local mirror `terraform.d/plugins/...`, so `terraform init` there installs
 * it offline with no CLI configuration and no absolute path of this machine, and its
 * checksum in the stack's `.terraform.lock.hcl` (provider-placement.ts: the Node
 * launcher, also copied to the per-user implied mirror `~/.terraform.d/plugins/...`
 * which `terraform -chdir=<stack dir> init` from the project root finds; or the
 * executables of ResellerHosting's `providerPlatforms`).
 */
export function providerBlockOf(stack: TerraformStack): ResellerProviderBlock {
  let block = blocks.get(stack);
  if (!block) {
    block = new ResellerProviderBlock(stack, PROVIDER_BLOCK_ID);
    blocks.set(stack, block);
    placeProviderAtSynth(stack);
  }
  return block;
}

/**
 * `provider "reseller" { api_url, reseller_id, api_key }` from the stack's ResellerHosting
 * (read at synth, so one declared after the constructs counts). The API key is here only
 * when `apiKey` is set (a reference to an ephemeral variable); otherwise the provider
 * reads RESELLER_API_KEY from the environment of `terraform`.
 */
export class ResellerProviderBlock extends TerraformProvider {
  constructor(scope: TerraformStack, id: string) {
    super(scope, id, {
      terraformResourceType: PROVIDER_TYPE,
      // An exact version: the stack's mirror holds this package's provider and no other.
      terraformGeneratorMetadata: { providerName: PROVIDER_TYPE, providerVersion: packageVersion() },
      terraformProviderSource: PROVIDER_SOURCE,
    });
  }

  private settings(): Record<string, string | undefined> {
    const hosting = registryOf(this).hosting;
    return { api_url: hosting?.apiUrl, reseller_id: hosting?.resellerId, api_key: hosting?.apiKey };
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return this.settings();
  }

  protected override synthesizeHclAttributes(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(this.settings())) {
      if (value !== undefined) out[name] = { value: stringToHclTerraform(value), isBlock: false, type: 'simple', storageClassType: 'string' };
    }
    return out;
  }
}
