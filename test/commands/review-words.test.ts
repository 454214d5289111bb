import { renderReviewText, reviewPlan } from '../../src/commands/review/review';

/**
 * Review says what the kinds of this round do in their own words, from their definitions:
 * a field's `phrases` (web settings: "HTTPS is forced on shop.example.com"), a removal that
 * restores defaults (not destructive), a delete that only forgets (no longer managed).
 * The plans are `terraform show -json` documents as Terraform writes them.
 */

const web = (over: Record<string, unknown> = {}) => ({
  id: 'shop.example.com', package: 'shop.example.com', force_https: false, free_certificates: ['shop.example.com'], php_version: '8.1',
  delete_certificates: false, on_certificate_timeout: 'warn', ...over,
});
const change = (type: string, name: string, actions: string[], before: unknown, after: unknown, extra: Record<string, unknown> = {}) => ({
  address: `${type}.${name}`, mode: 'managed', type, name, provider_name: 'reseller-hosting.local/cdktf/reseller',
  change: { actions, before, after, after_unknown: {}, before_sensitive: {}, after_sensitive: {} }, ...extra,
});
const plan = (resourceChanges: unknown[], drift: unknown[] = []) => ({ format_version: '1.2', resource_changes: resourceChanges, resource_drift: drift });
const lines = (p: unknown) => renderReviewText(reviewPlan(p));

test('an update of web settings is said in the domain\'s words', () => {
  const review = reviewPlan(plan([change('reseller_web_settings', 'shop', ['update'], web(), web({ force_https: true, free_certificates: ['shop.example.com', 'www.shop.example.com'], php_version: '8.2' }))]));
  expect(review.items[0]).toMatchObject({ category: 'updated', kind: 'web-settings', key: 'shop.example.com' });
  expect(review.items[0].change).toBe('is updated in place: HTTPS is forced on shop.example.com; a free certificate is requested for www.shop.example.com; PHP 8.1 -> 8.2');
});

test('a create says what the settings do; a drift found by refresh says what changed in the account', () => {
  const created = reviewPlan(plan([change('reseller_web_settings', 'shop', ['create'], null, web({ force_https: true }))]));
  expect(created.items[0].change).toBe('is created: HTTPS is forced on shop.example.com; a free certificate is requested for shop.example.com; PHP 8.1');
  const drifted = reviewPlan(plan([], [change('reseller_web_settings', 'shop', ['update'], web({ force_https: true }), web({ force_https: false, free_certificates: [] }))]));
  expect(drifted.drift[0].change).toBe('was changed outside Terraform: HTTPS is no longer forced on shop.example.com; the free certificate of shop.example.com is gone');
});

test('removing web settings deletes nothing: updated, not destructive, and says what stays', () => {
  const review = reviewPlan(plan([change('reseller_web_settings', 'shop', ['delete'], web({ force_https: true }), null)]));
  expect(review.counts.destructive).toBe(0);
  expect(review.items[0]).toMatchObject({ category: 'updated' });
  expect(review.items[0].change).toMatch(/^is removed \(declared absent\): nothing is deleted: .*HTTPS is no longer forced on shop\.example\.com; the PHP version stays at 8\.1; its free certificates stay in place/);
});

test('destroying a registration\'s nameservers or lock only forgets them: no longer managed, never DELETED', () => {
  const ns = { id: 'example.net', domain: 'example.net', nameservers: ['ns1.example.org', 'ns2.example.org'] };
  const review = reviewPlan(plan([change('reseller_domain_nameservers', 'ns', ['delete'], ns, null, { action_reason: 'delete_because_no_resource_config' })]));
  expect(review.items[0]).toMatchObject({ category: 'forgotten', key: 'example.net' });
  expect(review.items[0].change).toBe('is no longer managed (its construct was removed from the code): the registration keeps the nameservers it has; nothing is written');
  expect(lines(plan([change('reseller_domain_nameservers', 'ns', ['delete'], ns, null)]))).not.toContain('DELETED');
});
