import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServerCertificate } from '../../src/provider/transport/certificate';

/**
 * Test plumbing of installation 2: a private registry speaking Terraform's provider
 * registry protocol over loopback HTTPS (with a certificate the test makes, which
 * Terraform trusts through SSL_CERT_FILE), and throw-away GnuPG signing keys.
 */

export const GPG_HINT = 'gpg is needed to sign releases and to test them: apt-get install gnupg (npm test installs it: scripts/test-prerequisites.sh)';

export interface SigningKey {
  readonly home: string;
  readonly keyId: string;
  /** ASCII-armored private key: what RESELLER_RELEASE_GPG_KEY holds. */
  readonly secret: string;
  readonly publicKey: string;
}

function gpg(home: string, args: string[], input?: string): string {
  const r = spawnSync('gpg', ['--homedir', home, '--batch', '--no-tty', ...args], { encoding: 'utf8', input });
  if (r.error) throw new Error(`${GPG_HINT} (${r.error.message})`);
  if (r.status !== 0) throw new Error(`gpg ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A new RSA signing key without passphrase in its own GnuPG home. */
export function makeSigningKey(home: string, name: string): SigningKey {
  gpg(home, ['--passphrase', '', '--quick-gen-key', `${name} <release@example.test>`, 'rsa2048', 'sign', 'never']);
  const keyId = gpg(home, ['--with-colons', '--list-secret-keys']).split('\n').find((l) => l.startsWith('sec:'))!.split(':')[4];
  return { home, keyId, secret: gpg(home, ['--armor', '--export-secret-keys', keyId]), publicKey: gpg(home, ['--armor', '--export', keyId]) };
}

/** A detached binary signature of `file` by `key`. */
export function detachSign(key: SigningKey, file: string): Buffer {
  const out = `${file}.${key.keyId}.sig`;
  gpg(key.home, ['--yes', '--local-user', key.keyId, '--output', out, '--detach-sign', file]);
  return readFileSync(out);
}

/** What the registry serves for one version: the release files and the key it publishes. */
export interface Published {
  readonly namespace: string;
  readonly type: string;
  readonly version: string;
  readonly releaseDir: string;
  readonly keyId: string;
  readonly publicKey: string;
  /** Bytes served instead of a release file's own (a tampered zip, another key's signature). */
  readonly replace?: Readonly<Record<string, Buffer>>;
}

export interface PrivateRegistry {
  readonly host: string;
  readonly certFile: string;
  /** Paths requested, in order. */
  readonly requests: string[];
  publish(published: Published): void;
  close(): Promise<void>;
}

/**
 * Service discovery, the versions list and the download document (with the SHA256SUMS
 * and signature URLs and the signing key), and the files, as a registry serves them.
 */
export async function startPrivateRegistry(dir: string): Promise<PrivateRegistry> {
  const cert = createServerCertificate();
  const certFile = join(dir, 'registry-ca.pem');
  require('node:fs').writeFileSync(certFile, cert.certPem);
  let current: Published | undefined;
  const requests: string[] = [];
  let host = '';
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    requests.push(path);
    const p = current;
    if (path === '/.well-known/terraform.json') return json(res, 200, { 'providers.v1': '/v1/providers/' });
    if (!p) return json(res, 404, { errors: ['nothing published'] });
    const base = `/v1/providers/${p.namespace}/${p.type}`;
    const prefix = `terraform-provider-${p.type}_${p.version}`;
    if (path === `${base}/versions`) {
      return json(res, 200, {
        versions: [{ version: p.version, protocols: ['6.0'], platforms: [{ os: 'linux', arch: 'amd64' }, { os: 'linux', arch: 'arm64' }] }],
      });
    }
    const download = new RegExp(`^${base}/${p.version.replace(/\./g, '\\.')}/download/(\\w+)/(\\w+)$`).exec(path);
    if (download) {
      const filename = `${prefix}_${download[1]}_${download[2]}.zip`;
      const sums = readFileSync(join(p.releaseDir, `${prefix}_SHA256SUMS`), 'utf8');
      const shasum = sums.split('\n').find((l) => l.endsWith(`  ${filename}`))?.split(' ')[0];
      if (!shasum) return json(res, 404, { errors: [`no ${filename}`] });
      return json(res, 200, {
        protocols: ['6.0'], os: download[1], arch: download[2], filename,
        download_url: `https://${host}/files/${filename}`,
        shasums_url: `https://${host}/files/${prefix}_SHA256SUMS`,
        shasums_signature_url: `https://${host}/files/${prefix}_SHA256SUMS.sig`,
        shasum,
        signing_keys: { gpg_public_keys: [{ key_id: p.keyId, ascii_armor: p.publicKey }] },
      });
    }
    const file = /^\/files\/([\w.-]+)$/.exec(path)?.[1];
    if (file) {
      let bytes: Buffer;
      try {
        bytes = p.replace?.[file] ?? readFileSync(join(p.releaseDir, file));
      } catch {
        return json(res, 404, { errors: [`no ${file}`] });
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
      return res.end(bytes);
    }
    return json(res, 404, { errors: [`no route ${path}`] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `localhost:${(server.address() as AddressInfo).port}`;
  return {
    host,
    certFile,
    requests,
    publish: (published) => {
      current = published;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
