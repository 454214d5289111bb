import type { Kind } from './index';

/**
 * What a Terraform object resource's replace-triggers hold (DESIGN.md section 2):
 * the identity of one remote object and nothing mutable. Every value is a string so
 * that the same map fits `terraform_data.triggers_replace` and `null_resource.triggers`
 * (a map of strings), and the destroy-time provisioner can rebuild the object's
 * natural key from `self` alone.
 *
 * - package:      key = primary domain,        placement = cloud server host name or ''
 * - mailbox:      key = local@domain,           placement = the package's primary domain
 * - forwarder:    key = local@domain,           placement = the package's primary domain
 * - cloud-server: key = host name,              placement = ''
 * - stack-user:   key = e-mail (lowercase),     placement = ''
 *
 * `parent` is the parent object resource's Terraform id (so replacing a parent
 * replaces its children) or '' when there is none or it is not managed here.
 */
export interface Identity {
  readonly kind: Kind;
  readonly key: string;
  readonly placement: string;
  readonly parent: string;
}

/** Splits a mail key `local@domain` into its parts (the last `@` separates them). */
export function splitMailKey(key: string): { localPart: string; domain: string } {
  const at = key.lastIndexOf('@');
  if (at <= 0 || at === key.length - 1) throw new Error(`not a mail key (local@domain): ${key}`);
  return { localPart: key.slice(0, at), domain: key.slice(at + 1) };
}
