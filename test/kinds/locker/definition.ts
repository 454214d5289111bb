import {
  canonicalDomain, checkDomainName, checkOptionalString, checkPositiveInt, Checked, describeValue, FieldDefinition, Identity, KindDefinition, ProblemList, SecretFacet,
  secretFields,
} from '../../../src/protocol';

/**
 * The test-only kind of the contract suite (never shipped): a locker of a hosting
 * package, found by package + name, with a label changed in place and a write-only
 * passcode with a version. It has what a real kind has (an identity, a setting, a
 * secret, a parent) and is written the way a real kind is, in the files a real kind
 * has (definition, reconciler, construct, client noun, emulator noun), registered by
 * register.ts. What it had to touch is the "adding a kind" checklist of the README.
 */
export type LockerSpec = {
  readonly kind: 'locker';
  readonly path: string;
  /** Primary domain of the package the locker belongs to. */
  readonly packageDomain: string;
  /** Name of the locker: lowercase letters, digits and hyphens. */
  readonly name: string;
  readonly label?: string;
  readonly passcodeVersion?: number;
  readonly passcodeEnv?: string;
};

const NAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

export function checkLockerName(value: unknown): string | undefined {
  return typeof value === 'string' && NAME.test(value) ? undefined : `must be 1-32 lowercase letters, digits or hyphens, not ${describeValue(value)}`;
}

const LOCKER_SECRET = {
  field: 'passcode', versionField: 'passcodeVersion', envField: 'passcodeEnv', environment: 'RESELLER_LOCKER_PASSCODE',
  words: 'passcode', requiredToCreate: true,
} as const satisfies SecretFacet;

export const LOCKER_FIELDS: readonly FieldDefinition[] = [
  { name: 'packageDomain', attribute: 'package', type: 'string', role: 'identity', presence: 'required', readable: true, words: 'package',
    description: 'Primary domain of the hosting package the locker belongs to.' },
  { name: 'name', attribute: 'name', type: 'string', role: 'identity', presence: 'required', readable: true,
    description: 'Name of the locker (its key within the package).' },
  { name: 'label', attribute: 'label', type: 'string', role: 'setting', presence: 'optional', readable: true,
    description: 'Label shown in the control panel.' },
  ...secretFields(LOCKER_SECRET, { value: 'The passcode', creates: 'the locker' }),
  { name: 'lockerId', attribute: 'locker_id', type: 'string', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['packageDomain', 'name'],
    description: 'Id of the locker in the API ("l1").' },
];

function checkLocker(raw: LockerSpec, path: string = raw.path): Checked<LockerSpec> {
  const p = new ProblemList(path);
  p.add('packageDomain', checkDomainName(raw.packageDomain));
  p.add('name', checkLockerName(raw.name));
  p.add('label', checkOptionalString(raw.label, 80));
  if (raw.passcodeVersion !== undefined) p.add('passcodeVersion', checkPositiveInt(raw.passcodeVersion));
  if (p.problems.length) return { spec: raw, problems: p.problems };
  return { spec: { ...raw, packageDomain: canonicalDomain(raw.packageDomain) }, problems: [] };
}

const keyOf = (packageDomain: string, name: string) => `${packageDomain}/${name}`;

function parseImportId(text: string): Identity | string {
  const [pkg = '', name = '', ...rest] = text.split('/');
  const problem = rest.length ? 'has too many parts' : checkDomainName(pkg) ?? checkLockerName(name);
  if (problem) return `import id "${text}" must be package/name (example.com/tools): ${problem}`;
  const packageDomain = canonicalDomain(pkg);
  return { kind: 'locker' as never, key: keyOf(packageDomain, name), placement: packageDomain, parent: '' };
}

export const lockerDefinition = {
  kind: 'locker',
  label: 'locker',
  description: 'A locker of a hosting package (test-only kind), found by package/name. Its passcode is write-only.',
  order: 6,
  resourceType: 'reseller_locker',
  keyName: 'package/name',
  importIdHelp: 'package/name, e.g. example.com/tools',
  fields: LOCKER_FIELDS,
  check: checkLocker,
  identity: (spec: LockerSpec, parent = ''): Identity => ({ kind: 'locker' as never, key: keyOf(spec.packageDomain, spec.name), placement: spec.packageDomain, parent }),
  jsonSettings: [],
  settings: (spec: LockerSpec): Record<string, string> => ({ label: spec.label ?? '' }),
  checkIdentity(id: Identity): string[] {
    const parsed = parseImportId(id.key);
    return typeof parsed === 'string' ? [`name ${parsed}`] : [];
  },
  canonicalIdentity(id: Identity): Identity {
    const parsed = parseImportId(id.key);
    return typeof parsed === 'string' ? id : { ...parsed, parent: id.parent };
  },
  parseImportId,
  formatImportId: (id: Identity): string => id.key,
  parent: { field: 'packageDomain', kind: 'package', placesKey: true } as const,
  lifecycle: { deletes: 'what is kept in it' },
  secret: LOCKER_SECRET,
  dataSources: { plural: 'reseller_lockers' },
  import: {
    construct: 'Locker',
    idPrefix: 'locker',
    props: [{ field: 'packageDomain', prop: 'package' }, 'name', 'label'],
    header: ['Lockers are declared without a passcode: adoption keeps the current one.'],
  },
} satisfies KindDefinition<'locker', LockerSpec>;
