import { canonicalJson } from '../canonical-json';
import { checkCloudProvider, checkCloudSpec, checkCloudZone, checkPeriodMonths, CloudProvider, cloudSizesText, cloudZonesText } from '../cloud';
import { canonicalDomain, checkDomainName, checkHostName, checkStackUserRef, StackUserRef } from '../names';
import { DEFAULT_CLOUD_TIMEOUT_MINUTES } from '../handler-contract';
import { checkBool, describeValue } from './checks';
import { Checked, FieldDefinition, KindDefinition, ProblemList } from './definition';
import type { Identity } from './identity';

/** A managed cloud server (spec 2.7, 4.12-4.13), found by host name. */
export type CloudServerSpec = {
  readonly kind: 'cloud-server';
  readonly path: string;
  readonly hostName: string;
  readonly provider: CloudProvider;
  readonly spec: string;
  readonly zone: string;
  readonly periodMonths: number;
  /** The control-panel user the server is ordered for; none: the reseller's own (the API makes it optional). */
  readonly forUser?: StackUserRef;
  readonly branded: boolean;
  /** How long `ensure` waits for a new server to be listed before failing. */
  readonly timeoutMinutes: number;
};

export const CLOUD_SERVER_FIELDS: readonly FieldDefinition[] = [
  { name: 'hostName', attribute: 'host_name', type: 'string', role: 'identity', presence: 'required', readable: true, words: 'host name',
    description: 'Host name of the server (its natural key).' },
  // `provider` is a Terraform meta-argument (it selects a provider configuration), so the attribute is `cloud_provider`.
  { name: 'provider', attribute: 'cloud_provider', type: 'string', role: 'setting', presence: 'required', readable: true, fixedAfterCreate: true, words: 'cloud provider',
    description: 'Where the server runs: native, aws or gcp; chosen when ordering.' },
  { name: 'spec', attribute: 'spec', type: 'string', role: 'setting', presence: 'required', readable: true, fixedAfterCreate: true, words: 'size',
    description: `Size name, one of the provider's; chosen when ordering. The sizes: ${cloudSizesText()}.` },
  { name: 'zone', attribute: 'zone', type: 'string', role: 'setting', presence: 'required', readable: true, fixedAfterCreate: true,
    description: `Location of the server, one of the provider's zones; chosen when ordering. The zones: ${cloudZonesText()}.` },
  { name: 'branded', attribute: 'branded', type: 'bool', role: 'setting', presence: 'default', defaultValue: false, readable: false, fixedAfterCreate: true,
    description: 'Reseller-branded (native provider only); chosen when ordering.' },
  { name: 'periodMonths', attribute: 'period_months', type: 'number', role: 'create-only', presence: 'default', defaultValue: 1, readable: false,
    description: 'Billing period of the order, in months.' },
  { name: 'forUser', attribute: 'for_user', type: 'string', role: 'create-only', presence: 'optional', readable: false, valueForm: 'user-ref',
    description: 'Control-panel user the server is ordered for ("stack-user:N" or an e-mail).' },
  { name: 'timeoutMinutes', attribute: 'timeout_minutes', type: 'number', role: 'setting', presence: 'default', defaultValue: DEFAULT_CLOUD_TIMEOUT_MINUTES, readable: false, carrierOnly: true,
    description: 'How long to wait for a new server to be listed.' },
  { name: 'serverId', attribute: 'server_id', type: 'number', role: 'computed', presence: 'optional', readable: true, derivesFrom: ['hostName'],
    description: 'Numeric id of the server.' },
];

export function checkCloudServer(raw: CloudServerSpec, path: string = raw.path): Checked<CloudServerSpec> {
  const p = new ProblemList(path);
  p.add('hostName', checkHostName(raw.hostName));
  const providerProblem = checkCloudProvider(raw.provider);
  p.add('provider', providerProblem);
  if (!providerProblem) {
    p.add('spec', checkCloudSpec(raw.provider, raw.spec));
    p.add('zone', checkCloudZone(raw.provider, raw.zone));
  }
  p.add('periodMonths', checkPeriodMonths(raw.periodMonths));
  if (raw.forUser !== undefined) p.add('forUser', checkStackUserRef(raw.forUser));
  p.add('branded', checkBool(raw.branded));
  if (raw.branded && !providerProblem && raw.provider !== CloudProvider.NATIVE) {
    p.add('branded', `is only available with provider ${CloudProvider.NATIVE}, not ${describeValue(raw.provider)}`);
  }
  if (p.problems.length) return { spec: raw, problems: p.problems };
  return { spec: { ...raw, hostName: canonicalDomain(raw.hostName) }, problems: [] };
}

export const cloudServerDefinition = {
  kind: 'cloud-server',
  label: 'cloud server',
  shortLabel: 'server',
  description: 'A managed cloud server, found by its host name. The API cannot cancel one: destroying it only removes it from state.',
  order: 0,
  resourceType: 'reseller_cloud_server',
  keyName: 'host name',
  importIdHelp: 'the host name, e.g. web1.example.com',
  fields: CLOUD_SERVER_FIELDS,
  check: checkCloudServer,
  identity: (spec: CloudServerSpec, parent = ''): Identity => ({ kind: 'cloud-server', key: spec.hostName, placement: '', parent }),
  /**
   * Not changeable through the API: `update` compares them and fails loudly when the
   * live server differs, instead of silently leaving it as it is.
   */
  jsonSettings: ['branded'],
  settings: (spec: CloudServerSpec): Record<string, string> =>
    ({ provider: spec.provider, spec: spec.spec, zone: spec.zone, branded: canonicalJson(spec.branded) }),
  checkIdentity(id: Identity): string[] {
    const problem = checkDomainName(id.key);
    return problem ? [`hostName ${problem}`] : [];
  },
  canonicalIdentity: (id: Identity): Identity => ({ ...id, key: canonicalDomain(id.key), placement: '' }),
  parseImportId(text: string): Identity | string {
    const problem = checkHostName(text);
    return problem ? `import id ${problem} (expected ${cloudServerDefinition.importIdHelp})` : { kind: 'cloud-server', key: canonicalDomain(text), placement: '', parent: '' };
  },
  formatImportId: (id: Identity): string => id.key,
  /** Ordered and billed; the API has neither a cancel nor a change operation for servers. */
  lifecycle: { orderCharges: true, cannotDelete: true, fixedAfterCreate: true },
  /** An order provisions for minutes before the server is listed. */
  createTimeout: { field: 'timeoutMinutes', defaultMinutes: DEFAULT_CLOUD_TIMEOUT_MINUTES },
  import: {
    construct: 'ManagedCloudServer',
    idPrefix: 'server',
    multiline: true,
    section: [
      '---- Managed cloud servers ----',
      'The API cannot cancel servers, so each is protected from `terraform destroy`.',
      'forUser and periodMonths are not readable from the API and matter only when ordering:',
      'forUser is left out (an order may name no user), periodMonths is the default (1).',
    ],
    props: [
      'hostName',
      { field: 'provider', enum: { name: 'CloudProvider', members: CloudProvider } },
      'spec',
      'zone',
      { field: 'periodMonths', unread: 'not readable from the API' },
      // Known only from the server's own read, which the core makes for import (`declarable`).
      'branded',
    ],
    notes: (live, spec: CloudServerSpec) => ({
      above: [`id ${live.liveId}; ${String(live.computed.cpuCores)} CPU, ${String(live.computed.ramMb)} MB RAM${live.computed.brand ? `; branded as ${String(live.computed.brand)}` : ''}`],
      props: spec.provider === CloudProvider.NATIVE && live.fields.branded === false ? { branded: 'the API shows a brand only when the account has one set' } : undefined,
    }),
    // A server whose provider, size or zone the construct does not know is still there, with packages on it.
    reference: { method: 'fromHostName' },
  },
} satisfies KindDefinition<'cloud-server', CloudServerSpec>;
