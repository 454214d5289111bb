import { TerraformVariable } from 'cdktf';
import { HostingPackage, ResellerHosting } from '../../src';
import { synth, validationMessages, warnings } from './util';

/**
 * `apiKey` on ResellerHosting (engine 'provider'): the provider block's sensitive
 * `api_key`, for several accounts in one configuration. Given an ephemeral variable it
 * is a reference, never the key; a literal works but gets a synth warning (DESIGN §4).
 */

describe('ResellerHosting apiKey', () => {
  test('a variable becomes the provider block\'s api_key reference, with no warning', () => {
    let hosting!: ResellerHosting;
    const { json } = synth((stack) => {
      const key = new TerraformVariable(stack, 'api_key', { type: 'string', sensitive: true });
      key.addOverride('ephemeral', true); // Terraform >= 1.10; cdktf's config has no field for it
      hosting = new ResellerHosting(stack, 'reseller', { apiKey: key.stringValue });
      new HostingPackage(stack, 'site', { domainName: 'key.example.com', packageType: 'Linux Unlimited' });
    }, true, 'as-declared');
    expect(json.provider).toEqual({ reseller: [{ api_key: '${var.api_key}' }] });
    expect(warnings(hosting)).toEqual([]);
  });

  test('a literal key gets a synth warning naming the way out, and never the key itself', () => {
    let hosting!: ResellerHosting;
    synth((stack) => {
      hosting = new ResellerHosting(stack, 'reseller', { apiKey: 'literal-key-Xk29' });
      new HostingPackage(stack, 'site', { domainName: 'key.example.com', packageType: 'Linux Unlimited' });
    }, true, 'as-declared');
    const w = warnings(hosting);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/MyStack\/reseller: apiKey is a literal string in the code.*ephemeral, sensitive TerraformVariable/);
    expect(w[0]).not.toContain('literal-key-Xk29');
  });

  test('is refused with the carriers, whose handler reads RESELLER_API_KEY', () => {
    const { stack } = synth((s) => {
      const key = new TerraformVariable(s, 'api_key', { type: 'string', sensitive: true });
      new ResellerHosting(s, 'reseller', { engine: 'terraform_data', apiKey: key.stringValue });
    }, false, 'as-declared');
    expect(validationMessages(stack)).toEqual([expect.stringMatching(/apiKey is for engine "provider" only/)]);
  });
});
