import { checkSpec, describeValue, ObjectSpec } from '../../protocol';
import { IConstruct } from 'constructs';
import { containsToken } from './tokens';

/**
 * Collects every broken rule of one construct, so that synth reports all of them at
 * once. Each message names the construct path, the field and the rule:
 * `MyStack/site: domainName "exa mple.com" is not a valid domain name ...`.
 */
export class Problems {
  public readonly messages: string[] = [];

  constructor(public readonly path: string) {}

  /** Records `<path>: <field> <problem>` when `problem` is set. */
  public field(field: string, problem: string | undefined): void {
    if (problem) this.messages.push(field ? `${this.path}: ${field} ${problem}` : `${this.path}: ${problem}`);
  }

  /**
   * Runs `check` on a value known at synth; values that hold unresolved tokens are
   * skipped (the handler validates them at apply time).
   */
  public check(field: string, value: unknown, check: (v: unknown) => string | undefined): void {
    if (containsToken(value)) return;
    this.field(field, check(value));
  }

  /**
   * The kind definition's rules (the same the handler applies at apply time), for the
   * fields whose values are known at synth: a token-valued field is checked once resolved.
   * `only`: the fields the construct does not check in its own, more detailed way.
   */
  public definition(spec: ObjectSpec, only?: readonly string[]): void {
    for (const problem of checkSpec(spec, this.path).problems) {
      const root = problem.field.replace(/\[.*$/, '');
      if (only && !only.includes(root)) continue;
      if (!containsToken((spec as Record<string, unknown>)[root])) this.messages.push(problem.message);
    }
  }
}

/** Adds a validation to `construct` that runs `rules` at synth. */
export function addRules(construct: IConstruct, rules: (problems: Problems) => void): void {
  construct.node.addValidation({
    validate: () => {
      const problems = new Problems(construct.node.path);
      rules(problems);
      return problems.messages;
    },
  });
}

/** The rules the kind definitions use, for the constructs' own props too. */
export { checkBool as checkBoolean, checkPositiveInt as checkPositiveInteger, describeValue as describe } from '../../protocol';

export function checkPositiveNumber(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? undefined
    : `must be a positive number of minutes, not ${describeValue(value)}`;
}
