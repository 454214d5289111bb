import * as http2 from 'node:http2';
import * as net from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frame, GrpcServer, listenGrpc, UnaryMethod } from '../../src/provider/transport/grpc';
import { frameHeader, PREFACE } from '../../src/provider/transport/h2/frames';
import { HeaderDecoder, literalField } from '../../src/provider/transport/h2/hpack';
import { canonicalCodes, huffmanDecode } from '../../src/provider/transport/h2/huffman';

/**
 * The provider's own HTTP/2 layer (src/provider/transport/h2) against RFC 7541's
 * examples and against another implementation: Node's HTTP/2 client (nghttp2, which
 * Huffman-codes and indexes headers as Go's client does). Real Terraform is the client
 * in transport-conformance.test.ts and every e2e test.
 */

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('HPACK Huffman code', () => {
  it('derives RFC 7541 Appendix B codes from the code lengths', () => {
    const codes = canonicalCodes();
    expect(codes).toHaveLength(257);
    const pick = (symbol: number) => ({ code: codes[symbol].code, length: codes[symbol].length });
    expect(pick(0)).toEqual({ code: 0x1ff8, length: 13 });
    expect(pick(1)).toEqual({ code: 0x7fffd8, length: 23 });
    expect(pick(10)).toEqual({ code: 0x3ffffffc, length: 30 });
    expect(pick(32)).toEqual({ code: 0x14, length: 6 }); // ' '
    expect(pick(48)).toEqual({ code: 0x0, length: 5 }); // '0'
    expect(pick(97)).toEqual({ code: 0x3, length: 5 }); // 'a'
    expect(pick(255)).toEqual({ code: 0x3ffffee, length: 26 });
    expect(pick(256)).toEqual({ code: 0x3fffffff, length: 30 }); // EOS
  });

  it('decodes the RFC 7541 C.4 strings and refuses bad padding and EOS', () => {
    expect(huffmanDecode(hex('f1e3 c2e5 f23a 6ba0 ab90 f4ff')).toString()).toBe('www.example.com');
    expect(huffmanDecode(hex('a8eb 1064 9cbf')).toString()).toBe('no-cache');
    expect(huffmanDecode(hex('25a8 49e9 5ba9 7d7f')).toString()).toBe('custom-key');
    expect(() => huffmanDecode(hex('f1e3 c2e5 f23a 6ba0 ab90 f4fe'))).toThrow(/padding/); // padding not all ones
    expect(() => huffmanDecode(hex('ffff ffff'))).toThrow(/EOS/);
  });
});

describe('HPACK decoder', () => {
  it('decodes RFC 7541 C.4 (three requests sharing the dynamic table)', () => {
    const decoder = new HeaderDecoder();
    expect(decoder.decode(hex('8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff'))).toEqual([
      [':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com'],
    ]);
    expect(decoder.decode(hex('8286 84be 5886 a8eb 1064 9cbf'))).toEqual([
      [':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com'], ['cache-control', 'no-cache'],
    ]);
    expect(decoder.decode(hex('8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf'))).toEqual([
      [':method', 'GET'], [':scheme', 'https'], [':path', '/index.html'], [':authority', 'www.example.com'], ['custom-key', 'custom-value'],
    ]);
  });

  it('applies a table size update: evicts what no longer fits, and refuses one above the announced limit', () => {
    const decoder = new HeaderDecoder();
    decoder.decode(hex('8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff')); // adds :authority www.example.com at index 62
    expect(decoder.decode(Buffer.from([0x80 | 62]))).toEqual([[':authority', 'www.example.com']]);
    expect(() => decoder.decode(Buffer.from([0x20, 0x80 | 62]))).toThrow(/index 62/); // size 0: the table empties
    expect(() => new HeaderDecoder().decode(Buffer.from([0x3f, 0xe2, 0x1f]))).toThrow(/table size 4097/); // 31 + 4066
  });

  it('reads back its own literals, and refuses an index in neither table', () => {
    const long = 'x'.repeat(300); // a length past the 7-bit prefix
    expect(new HeaderDecoder().decode(Buffer.concat([literalField('grpc-status', '0'), literalField('grpc-message', long)])))
      .toEqual([['grpc-status', '0'], ['grpc-message', long]]);
    expect(() => new HeaderDecoder().decode(Buffer.from([0x80 | 62]))).toThrow(/index 62/);
  });
});

describe('HTTP/2 server under Node\'s HTTP/2 client', () => {
  let dir: string;
  let server: GrpcServer | undefined;
  let session: http2.ClientHttp2Session | undefined;
  const errors: string[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'h2-'));
    errors.length = 0;
  });
  afterEach(async () => {
    session?.destroy();
    await server?.close(100);
    server = session = undefined;
  });

  async function serve(methods: Record<string, UnaryMethod>): Promise<string> {
    const socket = join(dir, 's.sock');
    server = await listenGrpc(socket, { methods: new Map(Object.entries(methods)), onError: (path, err) => errors.push(`${path}: ${String(err)}`) });
    return socket;
  }

  function connect(socket: string, options: http2.ClientSessionOptions = {}): http2.ClientHttp2Session {
    // A small window, so that large answers must wait for the client's WINDOW_UPDATEs.
    session = http2.connect('http://localhost', { createConnection: () => net.connect(socket), settings: { initialWindowSize: 16_384 }, ...options });
    session.on('error', () => undefined);
    return session;
  }

  interface Reply { headers: http2.IncomingHttpHeaders; body: Buffer; trailers: http2.IncomingHttpHeaders }

  function call(client: http2.ClientHttp2Session, path: string, body: Buffer, extra: http2.OutgoingHttpHeaders = {}): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const stream = client.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', ...extra });
      let headers: http2.IncomingHttpHeaders = {};
      let trailers: http2.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      stream.on('response', (h) => (headers = h));
      stream.on('trailers', (t) => (trailers = t));
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => resolve({ headers, body: Buffer.concat(chunks), trailers }));
      stream.on('error', reject);
      stream.end(body);
    });
  }

  const echo: UnaryMethod = async (request) => request;

  it('answers concurrent calls, large ones in both directions past the client\'s 16 KiB window', async () => {
    const socket = await serve({ '/t.S/Echo': echo, '/t.S/Big': async (request) => Buffer.alloc(3 * 1024 * 1024 + 7, request[0]) });
    const client = connect(socket);
    const small = Array.from({ length: 50 }, (_, i) => Buffer.from(`message ${i} `.repeat(i + 1)));
    const large = Buffer.alloc(5 * 1024 * 1024, 0xab); // more than one 16 KiB frame and one window of the client's
    const replies = await Promise.all([
      ...small.map((m) => call(client, '/t.S/Echo', frame(m))),
      call(client, '/t.S/Echo', frame(large)),
      call(client, '/t.S/Big', frame(Buffer.from([7]))),
    ]);
    small.forEach((m, i) => {
      expect(replies[i].headers[':status']).toBe(200);
      expect(replies[i].headers['content-type']).toBe('application/grpc');
      expect(replies[i].trailers['grpc-status']).toBe('0');
      expect(replies[i].body.equals(frame(m))).toBe(true);
    });
    expect(replies[50].body.equals(frame(large))).toBe(true);
    expect(replies[51].body.length).toBe(5 + 3 * 1024 * 1024 + 7);
    expect(replies[51].body.subarray(5).every((b) => b === 7)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('takes a request larger than the 16 MiB stream window it grants, topping the window up as it reads', async () => {
    const socket = await serve({ '/t.S/Size': async (request) => Buffer.from(String(request.length)) });
    const client = connect(socket);
    const huge = Buffer.alloc(20 * 1024 * 1024 + 3, 0x5a);
    const reply = await call(client, '/t.S/Size', frame(huge));
    expect(reply.trailers['grpc-status']).toBe('0');
    expect(reply.body.subarray(5).toString()).toBe(String(huge.length));
  });

  it('reads padded frames and a 40 KiB header', async () => {
    const socket = await serve({ '/t.S/Echo': echo });
    // Padding on every frame; a 40 KiB header value, more than one 16 KiB frame can carry.
    const client = connect(socket, { paddingStrategy: http2.constants.PADDING_STRATEGY_MAX });
    const replies = await Promise.all([
      call(client, '/t.S/Echo', frame(Buffer.from('padded')), { 'x-large': 'v'.repeat(40 * 1024) }),
      call(client, '/t.S/Echo', frame(Buffer.from('next'))),
    ]);
    expect(replies.map((r) => r.body.subarray(5).toString())).toEqual(['padded', 'next']);
    expect(replies.map((r) => r.trailers['grpc-status'])).toEqual(['0', '0']);
  });

  it('answers an unknown method UNIMPLEMENTED and a failing one INTERNAL with its message, in the headers', async () => {
    const socket = await serve({ '/t.S/Fail': async () => { throw new Error('no such package: 100% gone'); } });
    const client = connect(socket);
    const unknown = await call(client, '/t.S/Nope', frame(Buffer.alloc(0)));
    expect(unknown.headers['grpc-status']).toBe('12');
    expect(unknown.headers['grpc-message']).toBe('unknown method /t.S/Nope');
    const failed = await call(client, '/t.S/Fail', frame(Buffer.from('x')));
    expect(failed.headers['grpc-status']).toBe('13');
    expect(decodeURIComponent(String(failed.headers['grpc-message']))).toBe('no such package: 100% gone');
    const broken = await call(client, '/t.S/Fail', Buffer.from([1, 2]));
    expect(broken.headers['grpc-status']).toBe('13');
    expect(errors).toEqual(['/t.S/Fail: Error: no such package: 100% gone']);
  });

  it('goes on serving after the client cancels a call in progress', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const socket = await serve({ '/t.S/Echo': echo, '/t.S/Hold': async (request) => { await held; return request; } });
    const client = connect(socket);
    const stream = client.request({ ':method': 'POST', ':path': '/t.S/Hold' });
    stream.on('error', () => undefined);
    stream.end(frame(Buffer.from('held')));
    await new Promise((resolve) => stream.once('ready', resolve));
    const closed = new Promise((resolve) => stream.once('close', resolve));
    stream.close(http2.constants.NGHTTP2_CANCEL);
    await closed;
    release();
    const reply = await call(client, '/t.S/Echo', frame(Buffer.from('after')));
    expect(reply.body.equals(frame(Buffer.from('after')))).toBe(true);
  });

  it('on close, answers the call in progress, then ends the connection', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const socket = await serve({ '/t.S/Hold': async (request) => { started(); await held; return request; } });
    const client = connect(socket);
    const pending = call(client, '/t.S/Hold', frame(Buffer.from('last')));
    await running;
    const sessionClosed = new Promise((resolve) => client.once('close', resolve));
    const stopped = server!.close(60_000);
    release();
    expect((await pending).body.equals(frame(Buffer.from('last')))).toBe(true);
    await stopped;
    await sessionClosed;
    server = undefined;
  });

  it('reads a header block continued over CONTINUATION frames, and padded DATA (raw frames)', async () => {
    const socket = await serve({ '/t.S/Echo': echo });
    const raw = net.connect(socket);
    const received: Buffer[] = [];
    raw.on('data', (c: Buffer) => received.push(c));
    const frameOf = (type: number, flags: number, stream: number, payload: Buffer) => Buffer.concat([frameHeader(payload.length, type, flags, stream), payload]);
    const block = Buffer.concat([Buffer.from([0x83, 0x86]), literalField(':path', '/t.S/Echo'), literalField('x-filler', 'f'.repeat(100))]);
    const message = frame(Buffer.from('continued'));
    raw.write(Buffer.concat([
      PREFACE,
      frameOf(0x4, 0, 0, Buffer.alloc(0)), // SETTINGS
      frameOf(0x1, 0, 1, block.subarray(0, 10)), // HEADERS without END_HEADERS
      frameOf(0x9, 0, 1, block.subarray(10, 40)), // CONTINUATION
      frameOf(0x9, 0x4, 1, block.subarray(40)), // CONTINUATION, END_HEADERS
      frameOf(0x0, 0x1 | 0x8, 1, Buffer.concat([Buffer.from([3]), message, Buffer.from([0, 0, 0])])), // DATA, END_STREAM, PADDED (3)
    ]));
    // The reply: HEADERS (:status 200 first), DATA with the echoed message, trailing HEADERS that end stream 1.
    const frames: Array<{ type: number; flags: number; stream: number; payload: Buffer }> = [];
    await new Promise<void>((resolve) => {
      const parse = () => {
        const bytes = Buffer.concat(received);
        frames.length = 0;
        for (let at = 0; at + 9 <= bytes.length;) {
          const length = bytes.readUIntBE(at, 3);
          if (at + 9 + length > bytes.length) break;
          frames.push({ type: bytes[at + 3], flags: bytes[at + 4], stream: bytes.readUInt32BE(at + 5), payload: bytes.subarray(at + 9, at + 9 + length) });
          at += 9 + length;
        }
        if (frames.some((f) => f.stream === 1 && f.type === 0x1 && f.flags & 0x1)) resolve();
        else raw.once('data', parse);
      };
      parse();
    });
    raw.destroy();
    const onStream = frames.filter((f) => f.stream === 1);
    expect(onStream.map((f) => f.type)).toEqual([0x1, 0x0, 0x1]);
    expect(onStream[0].payload[0]).toBe(0x88);
    expect(onStream[1].payload.equals(message)).toBe(true);
    expect(new HeaderDecoder().decode(onStream[2].payload)).toEqual([['grpc-status', '0']]);
  });

  it('closes a connection that does not start with the HTTP/2 preface', async () => {
    const socket = await serve({ '/t.S/Echo': echo });
    const raw = net.connect(socket);
    const received: Buffer[] = [];
    raw.on('data', (c: Buffer) => received.push(c));
    raw.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => raw.once('close', resolve));
    const bytes = Buffer.concat(received);
    // The server's SETTINGS first, then GOAWAY (type 7) with PROTOCOL_ERROR (1).
    const goaway = bytes.indexOf(Buffer.from([0x07, 0x00, 0x00, 0x00, 0x00, 0x00]));
    expect(goaway).toBeGreaterThan(0);
    expect(bytes.readUInt32BE(goaway + 6 + 4)).toBe(1);
  });
});
