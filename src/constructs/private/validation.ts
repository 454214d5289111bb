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

export function checkBoolean(value: unknown): string | undefined {
  return value === undefined || typeof value === 'boolean' ? undefined : `must be true or false, not ${describe(value)}`;
}

export function checkPositiveInteger(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0
    ? undefined
    : `must be a positive integer, not ${describe(value)}`;
}

export function checkPositiveNumber(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? undefined
    : `must be a positive number of minutes, not ${describe(value)}`;
}

/** A short rendering of a bad value for a message (never used for secrets). */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'undefined';
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    return String(value);
  }
}
