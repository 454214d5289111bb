import type { EngineSynthesizer } from './engine';

/**
 * The native provider engine (DESIGN §2.1): one `reseller_<kind>` resource per construct.
 * Not in this version yet: this file is where its synthesizer goes.
 */
export const providerSynthesizer: EngineSynthesizer = {
  synthesize(host) {
    throw new Error(
      `${host.node.path}: engine 'provider' is not yet available in this version of cdktf-reseller-hosting; ` +
        "set ResellerHosting's engine to 'terraform_data' (the default) or 'null_resource'",
    );
  },
};
