import { Construct } from 'constructs';
import { AutoresponderContentType, AutoresponderSpec, canonicalTimestamp } from '../protocol';
import { IResolvable } from './private/cdk';
import type { IHostingPackage } from './hosting-package';
import { MailAddress } from './private/mail';
import { canonEmail } from './private/names';
import { ResellerDataSource } from './private/data-source';
import { isToken } from './private/tokens';
import { checkBoolean } from './private/validation';
import { ManagedObject, ManagedObjectProps } from './managed-object';

/**
 * An autoresponder: the automatic reply of one address on a domain of a hosting package
 * (an out-of-office reply, or "this address is no longer monitored").
 */
export interface AutoresponderProps extends ManagedObjectProps {
  /** The package the address's domain belongs to (managed, or `HostingPackage.fromDomainName`). */
  readonly package: IHostingPackage;
  /**
   * Local part of the address (before the `@`); with the domain, the autoresponder's
   * natural key. The address needs neither a mailbox nor a forwarder.
   */
  readonly localPart: string;
  /**
   * Domain of the address: the package's primary domain or one of its extra domains.
   * @default - the package's domainName
   */
  readonly domain?: string;
  /** Subject of the reply: one line of 1 to 255 characters. */
  readonly subject: string;
  /** Body of the reply: 1 to 16,384 characters, text or HTML as `contentType` says. */
  readonly content: string;
  /**
   * Content type of the body.
   * @default 'text/plain'
   */
  readonly contentType?: AutoresponderContentType;
  /**
   * Whether it replies (between `startTime` and `endTime`, when set); updated in place.
   * @default true
   */
  readonly enabled?: boolean | IResolvable;
  /**
   * When it starts replying: an ISO 8601 date and time with a zone, in whole seconds
   * (`2026-12-24T09:00:00Z`, `2026-12-24T10:00+01:00`); kept as UTC `YYYY-MM-DDTHH:MM:SSZ`.
   * @default - none: it replies at once
   */
  readonly startTime?: string;
  /**
   * When it stops replying, after `startTime`: an ISO 8601 date and time with a zone.
   * @default - none: it never stops
   */
  readonly endTime?: string;
  /**
   * An e-mail address the incoming mail is also forwarded to.
   * @default - none
   */
  readonly forwardTo?: string;
}

/** A time prop in its canonical form when it is a valid literal (tokens and mistakes as given: validation reports them). */
function canonTime(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  return isToken(value) ? value : (canonicalTimestamp(value) ?? value);
}

/** A managed autoresponder of one address. */
export class Autoresponder extends ManagedObject {
  /** Canonical local part. */
  public readonly localPart: string;
  /** Canonical domain of the address. */
  public readonly domain: string;

  constructor(scope: Construct, id: string, props: AutoresponderProps) {
    super(scope, id, props);
    const address = new MailAddress('autoresponder', props);
    this.localPart = address.localPart;
    this.domain = address.domain;

    const spec: AutoresponderSpec = {
      kind: 'autoresponder',
      path: this.node.path,
      packageDomain: address.packageDomain,
      domain: address.domain,
      localPart: address.localPart,
      subject: props.subject,
      content: props.content,
      contentType: props.contentType ?? 'text/plain',
      enabled: (props.enabled ?? true) as boolean,
      startTime: canonTime(props.startTime),
      endTime: canonTime(props.endTime),
      forwardTo: props.forwardTo === undefined || props.forwardTo === '' ? null : canonEmail(props.forwardTo),
    };
    this.manage({
      spec,
      parent: address.parent,
      claims: () => address.claims(),
    }, (p) => {
      address.validate(p, this, spec);
      p.definition(spec, ['subject', 'content', 'contentType', 'startTime', 'endTime', 'forwardTo']);
      p.check('enabled', props.enabled, checkBoolean);
    });
  }
}

/** Props of {@link DataResellerAutoresponder}. */
export interface DataResellerAutoresponderProps {
  /** The package: a domain name of it, or a package construct (managed or a reference). */
  readonly package: string | IHostingPackage;
  /** Local part of the address. */
  readonly localPart: string;
  /** Domain of the address. @default the package's primary domain */
  readonly domain?: string;
}

/** `data "reseller_autoresponder"`: one autoresponder the stack does not manage, found by its address (a missing one fails the plan). */
export class DataResellerAutoresponder extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerAutoresponderProps) {
    super(scope, id, 'reseller_autoresponder', {
      package: typeof props.package === 'string' ? props.package : props.package.domainName, localPart: props.localPart, domain: props.domain,
    });
  }

  /** Subject of the reply. */
  public get subject(): string {
    return this.getStringAttribute('subject');
  }

  /** Body of the reply. */
  public get content(): string {
    return this.getStringAttribute('content');
  }

  /** `text/plain` or `text/html`. */
  public get contentType(): string {
    return this.getStringAttribute('content_type');
  }

  /** Whether it replies. */
  public get enabled(): IResolvable {
    return this.getBooleanAttribute('enabled');
  }

  /** Start time (UTC `YYYY-MM-DDTHH:MM:SSZ`), or null. */
  public get startTime(): string {
    return this.getStringAttribute('start_time');
  }

  /** End time (UTC `YYYY-MM-DDTHH:MM:SSZ`), or null. */
  public get endTime(): string {
    return this.getStringAttribute('end_time');
  }

  /** Where incoming mail is also forwarded, or null. */
  public get forwardTo(): string {
    return this.getStringAttribute('forward_to');
  }

  /** Id in the API ("r123"). */
  public get autoresponderId(): string {
    return this.getStringAttribute('autoresponder_id');
  }
}

/** Props of {@link DataResellerAutoresponders}. */
export interface DataResellerAutorespondersProps {
  /** Only the autoresponders of this package (a domain name of it, or a package construct). @default - every package's */
  readonly package?: string | IHostingPackage;
}

/** `data "reseller_autoresponders"`: the account's autoresponders (of one package); no match is an empty list. */
export class DataResellerAutoresponders extends ResellerDataSource {
  constructor(scope: Construct, id: string, props: DataResellerAutorespondersProps = {}) {
    super(scope, id, 'reseller_autoresponders', {
      package: props.package === undefined || typeof props.package === 'string' ? props.package : props.package.domainName,
    });
  }

  /** Their addresses (local@domain), sorted. */
  public get ids(): string[] {
    return this.getListAttribute('ids');
  }

  /** The autoresponders: objects with the attributes of `reseller_autoresponder`. */
  public get autoresponders(): IResolvable {
    return this.interpolationForAttribute('autoresponders');
  }
}
