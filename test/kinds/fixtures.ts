import { TerraformStack, TerraformVariable } from 'cdktf';
import { Autoresponder, DnsRecord, DomainNameservers, DomainTransferLock, Forwarder, HostingPackage, Mailbox, ManagedCloudServer, MysqlDatabase, StackUser, WebSettings } from '../../src';
import type { ResellerClient } from '../../src/client';
import { CloudProvider } from '../../src/protocol';
import type { Kind, SpecOf } from '../../src/protocol';

/**
 * One small fixture per kind for the contract suite (test/kinds): the same checks run
 * for every definition. The map is keyed by `Kind`, so a new kind without a fixture
 * does not compile. Specs are raw (as a construct or the provider builds them) and
 * live on the emulator's default account, after `prepare` made what they need.
 */
export interface KindFixture<K extends Kind> {
  /** A valid spec, as raw as an adapter hands it to the core. */
  readonly spec: SpecOf<K>;
  /** A change the core makes in place (absent: the API can change nothing of the kind). */
  readonly change?: Partial<SpecOf<K>>;
  /** The import id of `spec`'s object, as a user would type it. */
  readonly importId: string;
  /** Changes the live object outside the core (absent: nothing of it can be changed through the API). */
  outOfBand?(client: ResellerClient, liveId: string): Promise<void>;
  /**
   * What `outOfBand` makes of the object for drift and the plan: `changed` (drift
   * `changed`, the plan updates it in place; the default) or `missing` (a kind with no
   * update, whose out-of-band change is a delete: drift `missing`, the plan creates it).
   */
  readonly outOfBandShows?: 'changed' | 'missing';
  /**
   * For a kind whose definition declares `lifecycle.replacesInOneWrite`: a change of
   * identity (within the fields it keeps) that `ensure` with `replacing` makes in one write.
   */
  readonly replacement?: Partial<SpecOf<K>>;
  /** Declares `spec` with the kind's construct (parents referred to by name), for the constructs' check. */
  declare(stack: TerraformStack): void;
}

const PATH = 'contract';

export const FIXTURES: { readonly [K in Kind]: KindFixture<K> } = {
  'cloud-server': {
    spec: {
      kind: 'cloud-server', path: `${PATH}/server`, hostName: 'Contract.Example-Kinds.com', provider: CloudProvider.NATIVE, spec: 'small', zone: 'dc_location-uk',
      periodMonths: 1, branded: false, timeoutMinutes: 30,
    },
    importId: 'contract.example-kinds.com',
    declare: (stack) => new ManagedCloudServer(stack, 'server', { hostName: 'Contract.Example-Kinds.com', provider: CloudProvider.NATIVE, spec: 'small', zone: 'dc_location-uk' }),
  },
  'stack-user': {
    spec: { kind: 'stack-user', path: `${PATH}/user`, email: 'Owner@Example-Kinds.com', personName: 'Contract Owner' },
    importId: 'owner@example-kinds.com',
    declare: (stack) => new StackUser(stack, 'user', { email: 'Owner@Example-Kinds.com', personName: 'Contract Owner' }),
  },
  package: {
    spec: {
      kind: 'package', path: `${PATH}/site`, domainName: 'Example-Kinds.com', extraDomainNames: ['www.example-kinds.com'], packageType: 'Linux Starter',
      label: 'Contract', documentRoots: {}, enabled: true,
    },
    change: { enabled: false, extraDomainNames: ['www.example-kinds.com', 'shop.example-kinds.com'] },
    importId: 'example-kinds.com',
    outOfBand: (client, liveId) => client.packages.setEnabled(Number(liveId), false),
    declare: (stack) => new HostingPackage(stack, 'site', { domainName: 'Example-Kinds.com', extraDomainNames: ['www.example-kinds.com'], packageType: 'Linux Starter', label: 'Contract' }),
  },
  mailbox: {
    spec: { kind: 'mailbox', path: `${PATH}/info`, packageDomain: 'example-kinds.com', domain: 'www.example-kinds.com', localPart: 'Info', send: true, receive: true, passwordVersion: 1 },
    change: { send: false },
    importId: 'example-kinds.com/info@www.example-kinds.com',
    outOfBand: (client, liveId) => client.mail.updateMailbox('example-kinds.com', 'www.example-kinds.com', { id: liveId, receive: false }),
    declare: (stack) => new Mailbox(stack, 'info', {
      package: HostingPackage.fromDomainName(stack, 'site_ref', 'example-kinds.com'), domain: 'www.example-kinds.com', localPart: 'Info', passwordVersion: 1,
      password: new TerraformVariable(stack, 'password', { type: 'string', sensitive: true }).value,
    }),
  },
  forwarder: {
    spec: { kind: 'forwarder', path: `${PATH}/sales`, packageDomain: 'example-kinds.com', domain: 'example-kinds.com', localPart: 'sales', remote: 'team@example.org' },
    change: { remote: 'other-team@example.org' },
    importId: 'sales@example-kinds.com',
    outOfBand: async (client) => {
      await client.mail.createForwarder('example-kinds.com', 'example-kinds.com', { local: 'sales', remote: 'third@example.org' });
    },
    declare: (stack) => new Forwarder(stack, 'sales', { package: HostingPackage.fromDomainName(stack, 'site_ref', 'example-kinds.com'), localPart: 'sales', remote: 'team@example.org' }),
  },
  'dns-record': {
    spec: {
      kind: 'dns-record', path: `${PATH}/mx`, packageDomain: 'Example-Kinds.com', zone: 'example-kinds.com', name: '@', type: 'MX',
      value: 'Mail2.Example-Kinds.com.', priority: 20,
    },
    importId: 'example-kinds.com/@/MX/20 mail2.example-kinds.com',
    // No record can be changed through the API (no update): out of band, it is deleted.
    outOfBand: (client, liveId) => client.dns.changeZone('example-kinds.com', 'example-kinds.com', { delete: [liveId] }),
    outOfBandShows: 'missing',
    replacement: { priority: 30, value: 'mail3.example-kinds.com' },
    declare: (stack) => new DnsRecord(stack, 'mx', {
      package: HostingPackage.fromDomainName(stack, 'site_ref', 'example-kinds.com'), name: '@', type: 'MX', value: 'Mail2.Example-Kinds.com.', priority: 20,
    }),
  },
  'web-settings': {
    spec: {
      kind: 'web-settings', path: `${PATH}/web`, packageDomain: 'Example-Kinds.com', forceHttps: true, freeCertificates: ['WWW.example-kinds.com'], phpVersion: '8.2',
      deleteCertificates: false, onCertificateTimeout: 'warn', certificateTimeoutMinutes: 10,
    },
    change: { forceHttps: false, phpVersion: '8.3', freeCertificates: ['example-kinds.com', 'www.example-kinds.com'] },
    importId: 'example-kinds.com',
    // Switched off in the control panel.
    outOfBand: (client) => client.web.setForceHttps('example-kinds.com', false),
    declare: (stack) => new WebSettings(stack, 'web', {
      package: HostingPackage.fromDomainName(stack, 'site_ref', 'example-kinds.com'), forceHttps: true, freeCertificates: ['WWW.example-kinds.com'], phpVersion: '8.2',
    }),
  },
  // A registration of the emulator's fixtures (the registration kinds adopt, never register).
  'domain-nameservers': {
    spec: { kind: 'domain-nameservers', path: `${PATH}/ns`, domain: 'Example-Registered.NET', nameservers: ['Ns2.Example-DNS.net.', 'ns1.example-dns.net'] },
    change: { nameservers: ['ns1.example-dns.net', 'ns3.example-dns.net'] },
    importId: 'example-registered.net',
    outOfBand: (client) => client.domains.changeNameservers('example-registered.net', { add: ['ns9.elsewhere.example'], remove: ['ns2.example-dns.net'] }),
    declare: (stack) => new DomainNameservers(stack, 'ns', { domain: 'Example-Registered.NET', nameservers: ['Ns2.Example-DNS.net.', 'ns1.example-dns.net'] }),
  },
  'domain-transfer-lock': {
    spec: { kind: 'domain-transfer-lock', path: `${PATH}/lock`, domain: 'example-registered.net', locked: true },
    change: { locked: false },
    importId: 'example-registered.net',
    outOfBand: (client) => client.domains.setTransferAllowed('example-registered.net', true),
    declare: (stack) => new DomainTransferLock(stack, 'lock', { domain: 'example-registered.net' }),
  },
  autoresponder: {
    // Times in two other ISO 8601 forms than the canonical UTC one; the address has no mailbox (allowed).
    spec: {
      kind: 'autoresponder', path: `${PATH}/away`, packageDomain: 'example-kinds.com', domain: 'example-kinds.com', localPart: 'Away', subject: 'Out of office',
      content: 'Back on Monday.', contentType: 'text/plain', enabled: true, startTime: '2026-12-24T10:00+01:00', endTime: '2027-01-02 08:00:00Z', forwardTo: 'Desk@Example.org',
    },
    change: { subject: 'Closed for the holidays', contentType: 'text/html', content: '<p>Back on <b>Monday</b>.</p>', endTime: null },
    importId: 'away@example-kinds.com',
    outOfBand: (client, liveId) => client.responders.update('example-kinds.com', 'example-kinds.com', liveId, {
      subject: 'Changed in the panel', content: 'Back on Monday.', type: 'text/plain', enabled: false, startTime: null, endTime: null, forwardTo: null,
    }),
    declare: (stack) => new Autoresponder(stack, 'away', {
      package: HostingPackage.fromDomainName(stack, 'site_ref', 'example-kinds.com'), localPart: 'Away', subject: 'Out of office', content: 'Back on Monday.',
      startTime: '2026-12-24T10:00+01:00', endTime: '2027-01-02 08:00:00Z', forwardTo: 'Desk@Example.org',
    }),
  },
  'mysql-database': {
    spec: { kind: 'mysql-database', path: `${PATH}/shop_db`, packageDomain: 'Example-Kinds.com', name: 'contract_shop', passwordVersion: 1 },
    importId: 'example-kinds.com/contract_shop',
    // Nothing of a database changes in place: out of band, it is deleted (with its data).
    outOfBand: (client, liveId) => client.databases.delete('example-kinds.com', Number(liveId)),
    outOfBandShows: 'missing',
    declare: (stack) => new MysqlDatabase(stack, 'shop_db', {
      package: HostingPackage.fromDomainName(stack, 'site_ref', 'example-kinds.com'), name: 'contract_shop', passwordVersion: 1,
      password: new TerraformVariable(stack, 'password', { type: 'string', sensitive: true }).value,
    }),
  },
};

/** The mailbox password the contract suite declares (never a real one). */
export const PASSWORD = 'Contract-Passw0rd!';
