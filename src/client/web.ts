import {
  forceHttpsAlreadySo, isFreeCertificateProvider, phpVersionOfAvailable, phpVersionOfRead, phpVersionOnWire, phpVersionWriteBody,
} from './assumptions';
import { booleanArg, nonEmptyString, packageSegment, stringList } from './ids';
import { Resource } from './resource';
import * as shape from './shape';
import type { AvailablePhpVersion, WebCertificate } from './types';

/**
 * The web settings of a package (api-notes "Web: HTTPS and PHP version of a package"):
 * force-HTTPS, free certificates and the PHP version, under `/package/{id}/web/…`.
 * `packageRef` is the package id or one of its domain names. A certificate's PEM is
 * never kept: a list entry drops it, whatever it holds.
 */

function webPath(packageRef: string | number, operation: string, noun: string): string {
  return `/package/${packageSegment(packageRef, operation)}/web/${noun}`;
}

export function parseWebCertificate(value: unknown, where: string): WebCertificate {
  const entry = shape.object(value, where);
  const id = entry.id;
  const provider = shape.optString(entry.provider, shape.at(where, 'provider'));
  const createdAt = entry.createdAt;
  return {
    id: typeof id === 'number' ? String(id) : shape.string(id, shape.at(where, 'id')),
    commonName: shape.string(entry.commonName, shape.at(where, 'commonName')).trim().toLowerCase().replace(/\.$/, ''),
    provider,
    free: isFreeCertificateProvider(provider),
    // Deliberately no certificatePem (nor any key it might carry).
    ...(typeof createdAt === 'string' && createdAt !== '' ? { createdAt } : typeof createdAt === 'number' ? { createdAt: String(createdAt) } : {}),
  };
}

/** An entry of the available PHP versions; undefined when it names no version (left out). */
function parseAvailable(value: unknown, where: string): AvailablePhpVersion | undefined {
  const entry = shape.object(value, where);
  const version = phpVersionOfAvailable(entry);
  if (!version) return undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
  return { version, fullVersion: text(entry.FullVersion), handler: text(entry.Handler), title: text(entry.Title) };
}

/** A PHP version as a declaration writes it ("8.2"). */
function phpVersionArg(value: unknown, operation: string): string {
  const text = nonEmptyString(value, operation, 'version');
  if (!/^[0-9]{1,2}\.[0-9]{1,2}$/.test(text.trim())) throw new TypeError(`${operation}: version must be major.minor such as "8.2"`);
  return text.trim();
}

/** Force-HTTPS, free certificates and the PHP version of a package. */
export class Web extends Resource {
  /** Whether HTTPS is forced: `GET …/web/forceSSL` -> bare `true` / `false`. */
  async forceHttps(packageRef: string | number): Promise<boolean> {
    const operation = 'getForceHttps';
    return this.ctx.transport.call({ operation, method: 'GET', path: webPath(packageRef, operation, 'forceSSL'), parse: (data) => shape.boolean(data, '') });
  }

  /** Sets force-HTTPS: `POST …/web/forceSSL` `{"value": bool}`. A 409 ("already so") counts as done (assumptions.ts). */
  async setForceHttps(packageRef: string | number, value: boolean): Promise<void> {
    const operation = 'setForceHttps';
    try {
      await this.ctx.transport.call({
        operation, method: 'POST', path: webPath(packageRef, operation, 'forceSSL'), body: { value: booleanArg(value, operation, 'value') }, parse: () => undefined,
      });
    } catch (err) {
      if (!forceHttpsAlreadySo(err)) throw err;
    }
  }

  /** The certificates installed on the package's site (one platform request per server alias: may be slow). */
  async certificates(packageRef: string | number): Promise<WebCertificate[]> {
    const operation = 'listCertificates';
    return this.ctx.transport.call({
      operation, method: 'GET', path: webPath(packageRef, operation, 'certificates'), parse: (data) => shape.arrayOf(data, '', parseWebCertificate),
    });
  }

  /** Asks for a free certificate for one host name: `POST …/web/freeSSL` `{"name", "enabled": true}`. Issued later, if DNS points here. */
  async requestFreeCertificate(packageRef: string | number, name: string): Promise<void> {
    const operation = 'requestFreeCertificate';
    await this.ctx.transport.call({
      operation, method: 'POST', path: webPath(packageRef, operation, 'freeSSL'),
      body: { name: nonEmptyString(name, operation, 'name'), enabled: true }, parse: () => undefined,
    });
  }

  /** Deletes certificates by id: `POST …/web/certificates` `{"delete": [ids]}`. */
  async deleteCertificates(packageRef: string | number, ids: string[]): Promise<void> {
    const operation = 'deleteCertificates';
    const list = stringList(ids, operation, 'ids');
    if (list.length === 0) return;
    await this.ctx.transport.call({ operation, method: 'POST', path: webPath(packageRef, operation, 'certificates'), body: { delete: list }, parse: () => undefined });
  }

  /**
   * The package's PHP version as a declaration writes it ("8.2"), from `GET …/web/phpVersion`
   * ("php82"); undefined when the answer holds no version the client can read (not verifiable).
   */
  async phpVersion(packageRef: string | number): Promise<string | undefined> {
    const operation = 'getPhpVersion';
    return this.ctx.transport.call({ operation, method: 'GET', path: webPath(packageRef, operation, 'phpVersion'), parse: (data) => phpVersionOfRead(data) });
  }

  /** Sets the PHP version ("8.2"); body and value format are assumed (assumptions.ts). */
  async setPhpVersion(packageRef: string | number, version: string): Promise<void> {
    const operation = 'setPhpVersion';
    await this.ctx.transport.call({
      operation, method: 'POST', path: webPath(packageRef, operation, 'phpVersion'),
      body: phpVersionWriteBody(phpVersionOnWire(phpVersionArg(version, operation))), parse: () => undefined,
    });
  }

  /** The PHP versions the service offers the package, each once, in the API's order. */
  async availablePhpVersions(packageRef: string | number): Promise<AvailablePhpVersion[]> {
    const operation = 'availablePhpVersions';
    return this.ctx.transport.call({
      operation, method: 'GET', path: webPath(packageRef, operation, 'availablePhpVersions'),
      parse: (data) => {
        const seen = new Set<string>();
        return shape.array(data, '').flatMap((v, i) => {
          const entry = parseAvailable(v, shape.at('', i));
          if (!entry || seen.has(entry.version)) return [];
          seen.add(entry.version);
          return [entry];
        });
      },
    });
  }
}
