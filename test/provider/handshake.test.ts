import { X509Certificate } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createSecureContext } from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { createServerCertificate } from '../../src/provider/transport/certificate';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, parseHandshakeLine, startedByTerraform } from '../../src/provider/transport/handshake';
import { hclogLine } from '../../src/provider/transport/log';
import { servePlugin } from '../../src/provider/transport/server';
import { decodeMessage, encodeMessage, MessageDescriptor } from '../../src/provider/wire/protobuf';
import { Empty, RPC } from '../../src/provider/wire/messages';
import { serveProvider } from '../../src/provider/serve';

describe('AutoMTLS server certificate', () => {
  it('is a self-signed CA for localhost usable for server and client auth, printed as unpadded base64 DER', () => {
    const cert = createServerCertificate();
    const x509 = new X509Certificate(cert.certPem);
    expect(x509.subject).toBe('CN=localhost');
    expect(x509.subjectAltName).toBe('DNS:localhost');
    expect(x509.ca).toBe(true);
    expect(x509.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(x509.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(cert.handshakeField).not.toMatch(/=/);
    expect(Buffer.from(cert.handshakeField, 'base64').equals(x509.raw)).toBe(true);
  });
});

describe('go-plugin handshake', () => {
  it('recognises Terraform by its magic cookie', () => {
    expect(startedByTerraform({ [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE })).toBe(true);
    expect(startedByTerraform({})).toBe(false);
    expect(startedByTerraform({ [MAGIC_COOKIE_KEY]: 'something else' })).toBe(false);
  });

  it('without the cookie, says what it is and exits 1 instead of serving', async () => {
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const model = { kinds: [], configure: () => undefined, stop: () => undefined };
      await expect(serveProvider(model, {})).resolves.toBe(1);
      expect(err.mock.calls.map((c) => String(c[0])).join('')).toMatch(/Terraform runs it.*\n.*reseller-hosting provider install/s);
    } finally {
      err.mockRestore();
    }
  });

  it('prints 1|6|unix|<socket>|grpc|<cert>, serves tfplugin6 over mutual TLS and stops on GRPCController/Shutdown', async () => {
    const terraformSide = createServerCertificate(); // Terraform's client certificate has the same shape
    let line = '';
    let stopped = false;
    const plugin = await servePlugin({
      env: { [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_CLIENT_CERT: terraformSide.certPem },
      handlers: { GetMetadata: async () => ({ resources: [{ typeName: 'reseller_package' }] }) },
      logger: { log: () => undefined },
      writeHandshake: (l) => (line = l),
      onShutdown: () => (stopped = true),
    });
    const fields = parseHandshakeLine(line);
    expect(line.endsWith('\n')).toBe(true);
    expect(fields).toMatchObject({ core: 1, app: 6, network: 'unix', address: plugin.socket, protocol: 'grpc' });
    const serverCert = new X509Certificate(Buffer.from(fields.cert, 'base64'));

    const call = (client: grpc.Client, path: string, req: MessageDescriptor, res: MessageDescriptor) =>
      new Promise<any>((resolve, reject) =>
        client.makeUnaryRequest(path, (v: any) => encodeMessage(req, v), (b: Buffer) => decodeMessage(res, b), {}, (e, v) => (e ? reject(e) : resolve(v))));
    const options = { 'grpc.ssl_target_name_override': 'localhost', 'grpc.default_authority': 'localhost' };

    // Without Terraform's client certificate the TLS handshake fails.
    const stranger = new grpc.Client(`unix:${plugin.socket}`, grpc.credentials.createSsl(Buffer.from(serverCert.toString())), options);
    await expect(call(stranger, '/tfplugin6.Provider/GetMetadata', Empty, RPC.GetMetadata.response)).rejects.toThrow();
    stranger.close();

    const client = new grpc.Client(
      `unix:${plugin.socket}`,
      grpc.credentials.createSsl(Buffer.from(serverCert.toString()), Buffer.from(terraformSide.keyPem), Buffer.from(terraformSide.certPem)),
      options,
    );
    const meta = await call(client, '/tfplugin6.Provider/GetMetadata', Empty, RPC.GetMetadata.response);
    expect(meta.resources).toEqual([{ typeName: 'reseller_package' }]);
    await expect(call(client, '/tfplugin6.Provider/GetProviderSchema', Empty, RPC.GetProviderSchema.response)).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
    await call(client, '/plugin.GRPCController/Shutdown', Empty, Empty);
    client.close();
    await plugin.shutdown();
    expect(stopped).toBe(true);
    expect(existsSync(plugin.socket)).toBe(false);
  });
});

describe('socket directories', () => {
  it('a plugin removes those that killed provider processes left (named after a pid that no longer runs, holding only the socket, over an hour old), nothing else', async () => {
    const base = mkdtempSync(join(tmpdir(), 'socket-base-'));
    try {
      const gone = spawnSync(process.execPath, ['-e', '0']).pid!; // a process that has exited
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
      const make = (name: string, files: string[], old = true) => {
        mkdirSync(join(base, name));
        for (const f of files) writeFileSync(join(base, name, f), '');
        if (old) utimesSync(join(base, name), twoHoursAgo, twoHoursAgo);
        return join(base, name);
      };
      const stale = make(`tf-reseller-${gone}-aBc123`, ['plugin.sock']);
      const live = make(`tf-reseller-${process.ppid}-dEf456`, ['plugin.sock']);
      const other = make(`tf-reseller-${gone}-gHi789`, ['plugin.sock', 'notes.txt']);
      const recent = make(`tf-reseller-${gone}-jKl012`, ['plugin.sock'], false);
      const unrelated = make('tf-reseller-xyz', []);
      const plugin = await servePlugin({
        env: { [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_UNIX_SOCKET_DIR: base },
        handlers: {},
        logger: { log: () => undefined },
        writeHandshake: () => undefined,
        onShutdown: () => undefined,
      });
      expect(await plugin.staleSocketDirsRemoved).toEqual([stale]);
      expect([existsSync(stale), existsSync(live), existsSync(other), existsSync(recent), existsSync(unrelated)]).toEqual([false, true, true, true, true]);
      expect(plugin.socket.startsWith(join(base, `tf-reseller-${process.pid}-`))).toBe(true);
      await plugin.shutdown();
      expect(existsSync(dirname(plugin.socket))).toBe(false);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('logs', () => {
  it('are hclog JSON lines with a microsecond timestamp go-plugin can parse', () => {
    const line = hclogLine('info', 'waiting for web1.example.com', { resource: 'reseller_cloud_server' }, new Date('2026-01-02T03:04:05.678Z'));
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toEqual({
      '@level': 'info', '@message': 'waiting for web1.example.com', '@module': 'provider.reseller',
      '@timestamp': '2026-01-02T03:04:05.678000Z', resource: 'reseller_cloud_server',
    });
  });
});

describe('certificate encoding', () => {
  it('is valid DER every time (the random serial number is encoded minimally)', () => {
    for (let i = 0; i < 1000; i++) {
      const cert = createServerCertificate();
      expect(() => createSecureContext({ cert: cert.certPem, key: cert.keyPem })).not.toThrow();
    }
  });
});
