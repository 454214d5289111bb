import { Construct, IConstruct } from 'constructs';
import { TerraformStack } from '../cdk';
import type { Claim, StackRegistry } from '../registry';
import { Problems } from '../validation';
import type { ObjectRequest } from './engine';

/** Terraform identifiers: a letter or underscore, then letters, digits, `_` or `-`. */
const TERRAFORM_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Logical id of an object's resource: the construct's id path below its stack, joined with `_`. */
export function logicalIdOf(host: IConstruct, stack: TerraformStack): string {
  const scopes = host.node.scopes;
  return scopes
    .slice(scopes.indexOf(stack) + 1)
    .map((s) => s.node.id)
    .join('_');
}

/** What the rules every engine shares need to know of one object. */
export interface CommonRuleInput {
  readonly host: Construct;
  readonly stack: TerraformStack;
  readonly logicalId: string;
  readonly request: ObjectRequest;
  readonly registry: StackRegistry;
  /** The engine's own claims (its resource names), checked with the request's. */
  readonly engineClaims?: readonly Claim[];
}

/**
 * The rules of every managed construct whatever its engine: a valid resource name,
 * protect and absent not both, a parent (or referenced user) that is absent makes
 * this object absent too, a parent managed in another stack is referred to by name,
 * and no natural key or resource name declared twice in the stack.
 */
export function validateCommon(problems: Problems, input: CommonRuleInput): void {
  const { host, stack, logicalId, request, registry } = input;
  const { absent, protect, parent } = request;
  if (!TERRAFORM_NAME.test(logicalId)) {
    problems.field(
      'id',
      `gives the Terraform resource name "${logicalId}", which is not valid: construct ids must start with a letter or "_" and contain only letters, digits, "_" and "-"`,
    );
  }
  if (absent && protect) {
    problems.field('protect', 'must not be true while absent is true: prevent_destroy would block the deletion; remove protect first');
  }
  if (parent) {
    if (parent.objectId !== undefined && TerraformStack.of(parent.construct) !== stack) {
      problems.field(
        parent.field,
        `${parent.construct.node.path} is managed in another stack; refer to it with ${parent.referBy} instead`,
      );
    }
    if (parent.isAbsent && !absent) {
      problems.field(
        parent.field,
        `${parent.construct.node.path} is absent, so this object must be absent too (set absent: true): deleting a ${parent.what} deletes what is on it`,
      );
    }
  }
  for (const { field, construct } of request.after ?? []) {
    if (construct.isAbsent && !absent) {
      problems.field(field, `${construct.node.path} is absent, so this object must be absent too (set absent: true), or refer to another user`);
    }
  }
  for (const claim of [...request.claims(), ...(input.engineClaims ?? [])]) {
    const owner = registry.firstOwner(claim.key);
    if (owner && owner.construct !== host) problems.field(claim.field, claim.conflict(owner.construct.node.path));
  }
}
