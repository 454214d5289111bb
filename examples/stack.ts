import { LocalBackend, TerraformStack, TerraformVariable } from 'cdktf';
import { Construct } from 'constructs';
import {
  Autoresponder, CloudProvider, DnsRecord, Engine, Forwarder, HostingPackage, Mailbox, ManagedCloudServer, MysqlDatabase, ResellerHosting, StackUser, WebSettings,
} from '../src';

/**
 * Knobs the end-to-end tests turn to change the stack the way a user edits code.
 * The defaults are the stack `npm run demo` deploys, except `ownerAsStackUser` (the demo sets it).
 */
export interface ExampleOptions {
  /**
   * How the constructs become Terraform: the native provider, or a provisioner carrier.
   * @default 'provider'
   */
  readonly engine?: Engine;
  /** Extra domains of the shop package (a mutable field: updated in place). */
  readonly shopExtraDomains?: string[];
  /** Whether the orders mailbox may send (a mutable field). */
  readonly ordersSend?: boolean;
  /** Where sales@ forwards to (changed by creating the new forwarder, then deleting the old). */
  readonly salesRemote?: string;
  /** Primary domain of the blog package (identity: changing it replaces the package and its mail). */
  readonly blogDomain?: string;
  /** Deletes the orders mailbox the supported way: absent, deploy, then remove the code. */
  readonly ordersAbsent?: boolean;
  /** Removes the orders mailbox from the code (the provider deletes it; the carriers would orphan it). */
  readonly ordersRemoved?: boolean;
  /** Bumps the password version of the info mailbox (rotation). */
  readonly infoPasswordVersion?: number;
  /**
   * Declares the shop's owner as a StackUser construct (adopted: the account has a user
   * with that e-mail) that the shop and the cloud server refer to, instead of naming the
   * existing user by e-mail and by id. `npm run demo` sets it.
   * @default false
   */
  readonly ownerAsStackUser?: boolean;
  /**
   * Declares DNS records in the shop's zone: a `www` CNAME (in place of the zone's default `www` A record), an SPF TXT and an MX.
   * `npm run demo` sets it.
   * @default false
   */
  readonly shopDns?: boolean;
  /**
   * Declares an autoresponder on the shop's retired support@ address (it has no mailbox):
   * it tells senders to write to info@ instead, and forwards their mail there.
   * `npm run demo` sets it.
   * @default false
   */
  readonly shopAutoresponder?: boolean;
  /**
   * Declares the shop site's web settings (every HTTP request redirected to HTTPS, PHP
   * 8.2) and its MySQL database, whose password comes from the ephemeral variable
   * `db_password` (TF_VAR_db_password). `npm run demo` sets it.
   * @default false
   */
  readonly shopSite?: boolean;
}

/** A realistic reseller account: two customer sites with mail, and a branded cloud server. */
export class ExampleResellerStack extends TerraformStack {
  constructor(scope: Construct, id: string, options: ExampleOptions = {}) {
    super(scope, id);
    // State next to the synthesized stack, so the stack directory is self-contained.
    new LocalBackend(this, { path: 'terraform.tfstate' });

    // No apiUrl here: the provider (or the carriers' handler) reads RESELLER_API_URL (and
    // the key, RESELLER_API_KEY) from the environment of `terraform` / `cdktf deploy`.
    new ResellerHosting(this, 'reseller', { engine: options.engine ?? 'provider' });

    // Mailbox passwords come from a sensitive variable (TF_VAR_mailbox_password), so
    // they never appear in cdk.tf.json, the state or the plan.
    const mailboxPassword = new TerraformVariable(this, 'mailbox_password', {
      type: 'string',
      sensitive: true,
      description: 'Initial password of the example mailboxes',
    });
    // Ephemeral (Terraform >= 1.10, OpenTofu >= 1.11): kept out of saved plan files and
    // `terraform show -json <plan>`, which record every other variable's value in clear.
    mailboxPassword.addOverride('ephemeral', true);

    // The shop's owner, a control-panel user: declared here (created, or adopted when the
    // account has a user with this e-mail), or named by e-mail.
    const owner = options.ownerAsStackUser
      ? new StackUser(this, 'owner', { email: 'owner@example.com', personName: 'Alex Owner' })
      : undefined;

    // A shop with two extra domains, one served from its own document root, owned by
    // the control-panel user whose contact e-mail is owner@example.com.
    const shop = new HostingPackage(this, 'shop', {
      domainName: 'example-shop.com',
      extraDomainNames: options.shopExtraDomains ?? ['example-shop.net', 'example-shop.org'],
      packageType: 'Linux Unlimited',
      label: 'Example Shop Ltd',
      documentRoots: { 'example-shop.net': 'public_html/net' },
      stackUser: owner ?? { email: 'owner@example.com' },
    });
    const blog = new HostingPackage(this, 'blog', {
      domainName: options.blogDomain ?? 'example-blog.com',
      packageType: 'Linux Starter',
      label: 'Example Blog',
      stackUser: 'stack-user:989902',
    });

    new Mailbox(this, 'shop_info', {
      package: shop,
      localPart: 'info',
      password: mailboxPassword.value,
      passwordVersion: options.infoPasswordVersion ?? 1,
    });
    if (!options.ordersRemoved) {
      new Mailbox(this, 'shop_orders', {
        package: shop,
        localPart: 'orders',
        password: mailboxPassword.value,
        send: options.ordersSend ?? true,
        absent: options.ordersAbsent,
      });
    }
    new Mailbox(this, 'blog_editor', { package: blog, localPart: 'editor', password: mailboxPassword.value, send: true });

    new Forwarder(this, 'shop_sales', { package: shop, localPart: 'sales', remote: options.salesRemote ?? 'sales-team@example.org' });
    new Forwarder(this, 'blog_tips', { package: blog, localPart: 'tips', remote: 'editor@example-blog.com' });

    // DNS records in the shop's zone. The service puts an A record at `www` in every new
    // zone; the `www` CNAME takes its place in the same write (a CNAME stands alone).
    if (options.shopDns) {
      new DnsRecord(this, 'shop_www', { package: shop, name: 'www', type: 'CNAME', value: 'example-shop.com', replaceConflicting: true });
      new DnsRecord(this, 'shop_spf', { package: shop, name: '@', type: 'TXT', value: 'v=spf1 mx include:mx.stackmail.com -all' });
      new DnsRecord(this, 'shop_mx', { package: shop, name: '@', type: 'MX', value: 'mail.example-shop.com', priority: 20 });
    }

    // support@ is retired: no mailbox, only a reply that says where to write now, and
    // the mail forwarded there too.
    if (options.shopAutoresponder) {
      new Autoresponder(this, 'shop_support', {
        package: shop,
        localPart: 'support',
        subject: 'This address is no longer monitored',
        content: 'Thank you for your message. Please write to info@example-shop.com from now on; we have forwarded this one there.',
        forwardTo: 'info@example-shop.com',
      });
    }

    // What the shop's site needs from its package: HTTPS only, the PHP version its code
    // runs on, and a database. The database's password is write-only (never in state or
    // plan) and ephemeral; raising passwordVersion sets it again from the variable.
    if (options.shopSite) {
      new WebSettings(this, 'shop_web', { package: shop, forceHttps: true, phpVersion: '8.2' });
      const dbPassword = new TerraformVariable(this, 'db_password', { type: 'string', sensitive: true, description: "Password of the shop's database user" });
      dbPassword.addOverride('ephemeral', true);
      new MysqlDatabase(this, 'shop_db', { package: shop, name: 'shop', password: dbPassword.value, passwordVersion: 1 });
    }

    // A managed cloud server under the reseller's own brand, with the shop's app on it.
    // Destroying it leaves it running (the API cannot cancel servers): protect it.
    const web1 = new ManagedCloudServer(this, 'web1', {
      hostName: 'web1.example-shop.com',
      provider: CloudProvider.NATIVE,
      spec: 'medium',
      zone: 'dc_location-uk',
      periodMonths: 1,
      forUser: owner ?? 'stack-user:989901',
      branded: true,
    });
    new HostingPackage(this, 'shop_app', {
      domainName: 'app.example-shop.com',
      packageType: 'Managed Cloud',
      label: 'Example Shop app',
      cloudServer: web1,
    });
  }
}

/** The stack name the demo, the tests and cdktf.json use. */
export const EXAMPLE_STACK_NAME = 'reseller-example';
