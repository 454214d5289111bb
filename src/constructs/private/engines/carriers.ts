import { RemoteObject } from '../remote-object';
import type { EngineSynthesizer } from './engine';

/**
 * The provisioner carriers (`terraform_data`, `null_resource`): an object resource,
 * a settings resource and local-exec provisioners running `reseller-hosting handler`
 * (see RemoteObject). The resource type comes from the stack's ResellerHosting.
 */
export const carrierSynthesizer: EngineSynthesizer = {
  synthesize: (host, request) => new RemoteObject(host, request),
};
