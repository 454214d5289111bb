import type { ReconcileContext } from '../../reconcile';
import type { TfObject, TfType, TfValue } from '../wire/values';

/**
 * What the generic data-source layer (handlers.ts) needs from one data source. Each
 * data source is a small table entry (packages.ts, users.ts, mail.ts, cloud-servers.ts):
 * its attributes, mostly derived from a kind's definition (from-kind.ts), and a read
 * over the provider's shared reconcile context (one list request per kind per run).
 */

/**
 * - `required` / `optional`: arguments;
 * - `lookup`: an optional argument that the read fills in when another key found the
 *   object (`domain_name` of a package found by `package_id`);
 * - `computed`: a result.
 */
export type AttributeMode = 'required' | 'optional' | 'lookup' | 'computed';

export interface DataAttribute {
  /** snake_case. */
  readonly name: string;
  readonly type: TfType;
  readonly description: string;
  readonly mode: AttributeMode;
  /** Shown as `(sensitive value)` wherever Terraform shows it (an ephemeral resource's password). */
  readonly sensitive?: boolean;
}

/** A look-up that found nothing: the key looked for and the closest names that exist. */
export interface NotFound {
  /** The argument that was looked for (`domain_name`). */
  readonly attribute: string;
  /** What it was looked for as (`exmaple.com`). */
  readonly value: string;
  /** What was not found: 'package', 'mail domain'. */
  readonly what: string;
  /** Existing names of that kind, from which the closest are suggested. */
  readonly existing: readonly string[];
}

export type ReadResult = { readonly values: TfObject } | { readonly notFound: NotFound };

/** A broken rule of an argument. */
export interface ArgumentProblem {
  readonly attribute: string;
  readonly message: string;
}

export interface DataSource {
  readonly typeName: string;
  readonly description: string;
  readonly attributes: readonly DataAttribute[];
  /** Exactly one of these arguments must be set: the keys a singular data source finds its object by. */
  readonly oneOf?: readonly string[];
  /** Problems of the arguments that are known (unknown and null ones are absent). */
  check?(args: Readonly<Record<string, TfValue>>): ArgumentProblem[];
  /**
   * The values of every computed (and lookup) attribute for known arguments. Plural
   * data sources never report `notFound`: no match is an empty list.
   */
  read(args: Readonly<Record<string, TfValue>>, ctx: () => ReconcileContext): Promise<ReadResult>;
}

/** The cty object type of a data source's whole value. */
export function objectTypeOfData(source: Pick<DataSource, 'attributes'>): TfType {
  return ['object', Object.fromEntries(source.attributes.map((a) => [a.name, a.type]))];
}

export const computed = (name: string, type: TfType, description: string): DataAttribute => ({ name, type, description, mode: 'computed' });
export const optional = (name: string, type: TfType, description: string): DataAttribute => ({ name, type, description, mode: 'optional' });
export const lookup = (name: string, type: TfType, description: string): DataAttribute => ({ name, type, description, mode: 'lookup' });
export const required = (name: string, type: TfType, description: string): DataAttribute => ({ name, type, description, mode: 'required' });

/** A list of objects with these (computed) attributes: the elements of a plural data source. */
export function listOf(attributes: readonly DataAttribute[]): TfType {
  return ['list', ['object', Object.fromEntries(attributes.map((a) => [a.name, a.type]))]];
}

/** The value of a known string argument, or undefined. */
export function stringArg(args: Readonly<Record<string, TfValue>>, name: string): string | undefined {
  const v = args[name];
  return typeof v === 'string' ? v : undefined;
}

/** Whether an optional bool argument is set to true (null and unknown: false). */
export function flagArg(args: Readonly<Record<string, TfValue>>, name: string): boolean {
  return args[name] === true;
}

export function numberArg(args: Readonly<Record<string, TfValue>>, name: string): number | undefined {
  const v = args[name];
  return typeof v === 'number' ? v : undefined;
}
