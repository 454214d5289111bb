import type { Socket } from 'node:net';
import {
  PREFACE, FRAME_HEADER, DATA, HEADERS, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE,
  CONTINUATION, END_STREAM, ACK, END_HEADERS, PADDED, PRIORITY, SETTINGS_INITIAL_WINDOW_SIZE,
  SETTINGS_MAX_FRAME_SIZE, NO_ERROR, PROTOCOL_ERROR, FLOW_CONTROL_ERROR, FRAME_SIZE_ERROR, COMPRESSION_ERROR,
  DEFAULT_WINDOW, DEFAULT_MAX_FRAME, MAX_WINDOW, STREAM_WINDOW, MAX_FRAME, frameHeader, windowUpdate,
  SERVER_PREFACE, SETTINGS_ACK, goaway,
} from './frames';
import { HeaderDecoder } from './hpack';

/**
 * The server side of one HTTP/2 connection (RFC 9113), as much as unary gRPC needs:
 * requests are a HEADERS block and DATA up to END_STREAM; each is answered once, with
 * a HEADERS block, optional DATA and an optional trailing HEADERS block. No server
 * push, no priorities (ignored, as §5.3 allows), flow control both ways.
 *
 * Why not `node:http2`: its per-stream machinery (a Duplex stream per call, header
 * objects built and validated both ways) cost two thirds of each call's CPU in the
 * provider, and a plan makes four calls per resource (BENCHMARKS.md, "Profiles"). Here
 * a call is a few frames parsed out of the socket's chunks and one write back.
 */

/** A request whose body has ended: its `:path` and its DATA, joined. */
export interface Request {
  readonly streamId: number;
  readonly path: string;
  readonly body: Buffer;
}

/** Called once per request; answer it with `Connection.respond` (or not at all when the connection closed). */
export type RequestListener = (request: Request, connection: Connection) => void;

class ConnectionError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

interface Stream {
  readonly id: number;
  path: string;
  readonly chunks: Buffer[];
  /** Octets received and not yet given back in a WINDOW_UPDATE. */
  unacknowledged: number;
  /** How much DATA this side may still send on the stream (the client's window). */
  sendWindow: number;
  /** The answer still to be sent: DATA from `offset`, then the trailing block. */
  pending?: { data: Buffer; offset: number; trailers: Buffer };
}

export class Connection {
  private readonly streams = new Map<number, Stream>();
  private readonly decoder = new HeaderDecoder();
  /** Received bytes not yet parsed, and how many a parse needs first. */
  private inbound: Buffer[] = [];
  private buffered = 0;
  private needed = PREFACE.length;
  private prefaceSeen = false;
  /** A header block being continued (CONTINUATION frames): its stream, flags and fragments. */
  private continuing?: { streamId: number; endStream: boolean; fragments: Buffer[] };
  private lastStreamId = 0;
  /** Streams whose answer waits for window, in the order they were answered. */
  private readonly blocked: Stream[] = [];
  private sendWindow = DEFAULT_WINDOW;
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerMaxFrame = DEFAULT_MAX_FRAME;
  private connectionUnacknowledged = 0;
  /** Frames to write, sent together once the current turn of the event loop is done. */
  private outbound: Buffer[] = [];
  private flushScheduled = false;
  private closing = false;
  /** The socket was ended by this side (after GOAWAY): nothing more is read or written. */
  private ended = false;
  private closed = false;

  constructor(private readonly socket: Socket, private readonly onRequest: RequestListener) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => undefined); // the client went away: nothing to answer
    socket.on('close', () => {
      this.closed = true;
      this.dropStreams();
    });
    this.write(SERVER_PREFACE);
  }

  /**
   * Answers a request: `headers` (an HPACK block) alone, which end the stream, or
   * followed by `body`: its data, then its trailing block, which ends the stream.
   * Nothing happens when the client reset the stream or the connection is gone.
   */
  respond(streamId: number, headers: Buffer, body?: { data: Buffer; trailers: Buffer }): void {
    const stream = this.streams.get(streamId);
    if (!stream || this.closed) return;
    this.writeHeaders(streamId, headers, !body);
    if (!body) {
      this.finish(stream);
      return;
    }
    stream.pending = { ...body, offset: 0 };
    this.blocked.push(stream);
    this.sendPending();
  }

  /** Stops taking new calls (GOAWAY) and closes once every call in progress is answered. */
  close(): void {
    if (this.closed || this.closing) return;
    this.closing = true;
    this.write(goaway(this.lastStreamId, NO_ERROR));
    this.endIfIdle();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    if (this.ended) return;
    this.inbound.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered < this.needed) return;
    const data = this.inbound.length === 1 ? this.inbound[0] : Buffer.concat(this.inbound, this.buffered);
    let at = 0;
    try {
      if (!this.prefaceSeen) {
        if (!data.subarray(0, PREFACE.length).equals(PREFACE)) throw new ConnectionError(PROTOCOL_ERROR, 'not an HTTP/2 connection preface');
        this.prefaceSeen = true;
        at = PREFACE.length;
      }
      while (data.length - at >= FRAME_HEADER) {
        const length = data.readUIntBE(at, 3);
        if (length > MAX_FRAME) throw new ConnectionError(FRAME_SIZE_ERROR, `a frame of ${length} octets`);
        if (data.length - at < FRAME_HEADER + length) break;
        const type = data[at + 3];
        const flags = data[at + 4];
        const streamId = data.readUInt32BE(at + 5) & 0x7fffffff;
        const payload = data.subarray(at + FRAME_HEADER, at + FRAME_HEADER + length);
        at += FRAME_HEADER + length;
        this.frame(type, flags, streamId, payload);
        if (this.closed || this.ended) return;
      }
    } catch (err) {
      this.fail(err);
      return;
    }
    const rest = data.subarray(at);
    this.inbound = rest.length ? [rest] : [];
    this.buffered = rest.length;
    this.needed = rest.length >= FRAME_HEADER ? FRAME_HEADER + rest.readUIntBE(0, 3) : FRAME_HEADER;
  }

  private frame(type: number, flags: number, streamId: number, payload: Buffer): void {
    if (this.continuing && type !== CONTINUATION) throw new ConnectionError(PROTOCOL_ERROR, 'a header block was interrupted');
    switch (type) {
      case DATA: return this.onData(flags, streamId, payload);
      case HEADERS: return this.onHeaders(flags, streamId, payload);
      case CONTINUATION: return this.onContinuation(flags, streamId, payload);
      case RST_STREAM: return this.onReset(streamId);
      case SETTINGS: return this.onSettings(flags, streamId, payload);
      case PING:
        if (payload.length !== 8) throw new ConnectionError(FRAME_SIZE_ERROR, 'a PING frame is 8 octets');
        if (!(flags & ACK)) this.write(Buffer.concat([frameHeader(8, PING, ACK, 0), payload]));
        return;
      case WINDOW_UPDATE: return this.onWindowUpdate(streamId, payload);
      case PUSH_PROMISE: throw new ConnectionError(PROTOCOL_ERROR, 'a client may not push');
      case GOAWAY: // the client stops: it closes the connection when its calls are answered
      default: // PRIORITY, and frame types this side does not know: ignored (§4.1, §5.5)
    }
  }

  private onHeaders(flags: number, streamId: number, payload: Buffer): void {
    if (streamId === 0) throw new ConnectionError(PROTOCOL_ERROR, 'HEADERS on stream 0');
    let block = unpad(flags, payload);
    if (flags & PRIORITY) block = block.subarray(5);
    const endStream = (flags & END_STREAM) !== 0;
    if (flags & END_HEADERS) this.headerBlock(streamId, endStream, block);
    else this.continuing = { streamId, endStream, fragments: [block] };
  }

  private onContinuation(flags: number, streamId: number, payload: Buffer): void {
    const continuing = this.continuing;
    if (!continuing || continuing.streamId !== streamId) throw new ConnectionError(PROTOCOL_ERROR, 'CONTINUATION without its HEADERS');
    continuing.fragments.push(payload);
    if (flags & END_HEADERS) {
      this.continuing = undefined;
      this.headerBlock(streamId, continuing.endStream, Buffer.concat(continuing.fragments));
    }
  }

  private headerBlock(streamId: number, endStream: boolean, block: Buffer): void {
    let fields;
    try {
      fields = this.decoder.decode(block);
    } catch (err) {
      throw new ConnectionError(COMPRESSION_ERROR, err instanceof Error ? err.message : String(err));
    }
    let stream = this.streams.get(streamId);
    if (!stream) {
      // A new request: client streams are odd and increase (§5.1.1); a block on a closed stream is trailers of a call already answered.
      if (streamId % 2 === 0 || streamId <= this.lastStreamId) return;
      this.lastStreamId = streamId;
      if (this.closing) return; // after GOAWAY: not taken (the client retries it elsewhere)
      stream = { id: streamId, path: '', chunks: [], unacknowledged: 0, sendWindow: this.peerInitialWindow };
      for (const [name, value] of fields) if (name === ':path') stream.path = value;
      this.streams.set(streamId, stream);
    }
    if (endStream) this.requestEnded(stream);
  }

  private onData(flags: number, streamId: number, payload: Buffer): void {
    // Flow control counts the whole payload, padding included, on the connection whatever the stream (§6.9).
    this.connectionUnacknowledged += payload.length;
    if (this.connectionUnacknowledged >= MAX_WINDOW / 2) {
      this.write(windowUpdate(0, this.connectionUnacknowledged));
      this.connectionUnacknowledged = 0;
    }
    const stream = this.streams.get(streamId);
    if (!stream || stream.pending) return; // reset, or already answered: dropped
    const data = unpad(flags, payload);
    if (data.length) stream.chunks.push(data);
    if (flags & END_STREAM) {
      this.requestEnded(stream);
      return;
    }
    stream.unacknowledged += payload.length;
    if (stream.unacknowledged >= STREAM_WINDOW / 2) {
      this.write(windowUpdate(streamId, stream.unacknowledged));
      stream.unacknowledged = 0;
    }
  }

  private requestEnded(stream: Stream): void {
    const body = stream.chunks.length === 1 ? stream.chunks[0] : Buffer.concat(stream.chunks);
    stream.chunks.length = 0;
    this.onRequest({ streamId: stream.id, path: stream.path, body }, this);
  }

  private onReset(streamId: number): void {
    const stream = this.streams.get(streamId);
    if (!stream) return;
    this.streams.delete(streamId);
    const i = this.blocked.indexOf(stream);
    if (i >= 0) this.blocked.splice(i, 1);
    this.endIfIdle();
  }

  private onSettings(flags: number, streamId: number, payload: Buffer): void {
    if (streamId !== 0) throw new ConnectionError(PROTOCOL_ERROR, 'SETTINGS on a stream');
    if (flags & ACK) return;
    if (payload.length % 6) throw new ConnectionError(FRAME_SIZE_ERROR, 'SETTINGS of a partial entry');
    for (let at = 0; at < payload.length; at += 6) {
      const id = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (id === SETTINGS_INITIAL_WINDOW_SIZE) {
        if (value > MAX_WINDOW) throw new ConnectionError(FLOW_CONTROL_ERROR, 'initial window above 2^31-1');
        // A new initial window changes every open stream's window by the difference (§6.9.2).
        for (const stream of this.streams.values()) stream.sendWindow += value - this.peerInitialWindow;
        this.peerInitialWindow = value;
      } else if (id === SETTINGS_MAX_FRAME_SIZE) {
        if (value < DEFAULT_MAX_FRAME || value > MAX_FRAME) throw new ConnectionError(PROTOCOL_ERROR, 'invalid SETTINGS_MAX_FRAME_SIZE');
        this.peerMaxFrame = value;
      }
    }
    this.write(SETTINGS_ACK);
    this.sendPending();
  }

  private onWindowUpdate(streamId: number, payload: Buffer): void {
    if (payload.length !== 4) throw new ConnectionError(FRAME_SIZE_ERROR, 'a WINDOW_UPDATE frame is 4 octets');
    const increment = payload.readUInt32BE(0) & 0x7fffffff;
    if (streamId === 0) {
      this.sendWindow += increment;
      if (this.sendWindow > MAX_WINDOW) throw new ConnectionError(FLOW_CONTROL_ERROR, 'connection window above 2^31-1');
    } else {
      const stream = this.streams.get(streamId);
      if (stream) stream.sendWindow += increment;
    }
    this.sendPending();
  }

  /** Sends what the windows allow of the answers waiting, in order; each ends with its trailers. */
  private sendPending(): void {
    for (let i = 0; i < this.blocked.length && this.sendWindow > 0;) {
      const stream = this.blocked[i];
      const pending = stream.pending!;
      while (pending.offset < pending.data.length) {
        const size = Math.min(pending.data.length - pending.offset, this.sendWindow, stream.sendWindow, this.peerMaxFrame);
        if (size <= 0) break;
        this.write(frameHeader(size, DATA, 0, stream.id)); // the trailers end the stream
        this.write(pending.data.subarray(pending.offset, pending.offset + size));
        pending.offset += size;
        this.sendWindow -= size;
        stream.sendWindow -= size;
      }
      if (pending.offset < pending.data.length) {
        i++; // waits for its window; the next answer may still fit
        continue;
      }
      this.writeHeaders(stream.id, pending.trailers, true);
      this.blocked.splice(i, 1);
      this.finish(stream);
    }
  }

  /** A header block in one HEADERS frame, or split into CONTINUATION frames when larger than the client takes. */
  private writeHeaders(streamId: number, block: Buffer, endStream: boolean): void {
    const endFlag = endStream ? END_STREAM : 0;
    if (block.length <= this.peerMaxFrame) {
      this.write(frameHeader(block.length, HEADERS, endFlag | END_HEADERS, streamId));
      this.write(block);
      return;
    }
    for (let at = 0; at < block.length; at += this.peerMaxFrame) {
      const part = block.subarray(at, at + this.peerMaxFrame);
      const last = at + this.peerMaxFrame >= block.length;
      this.write(frameHeader(part.length, at === 0 ? HEADERS : CONTINUATION, (at === 0 ? endFlag : 0) | (last ? END_HEADERS : 0), streamId));
      this.write(part);
    }
  }

  /** Forgets every call: the connection is gone, or failed. */
  private dropStreams(): void {
    this.streams.clear();
    this.blocked.length = 0;
  }

  private finish(stream: Stream): void {
    this.streams.delete(stream.id);
    this.endIfIdle();
  }

  private endIfIdle(): void {
    if (this.closing && this.streams.size === 0) this.flush(true);
  }

  private write(bytes: Buffer): void {
    this.outbound.push(bytes);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Answers completed in one turn of the event loop (calls run concurrently) go out in one write.
    setImmediate(() => this.flush(false));
  }

  private flush(end: boolean): void {
    this.flushScheduled = false;
    if (this.closed || this.ended) return;
    if (this.outbound.length) {
      this.socket.write(this.outbound.length === 1 ? this.outbound[0] : Buffer.concat(this.outbound));
      this.outbound = [];
    }
    if (end) {
      this.ended = true;
      this.socket.end();
    }
  }

  /** A connection error (§5.4.1): GOAWAY with its code, then the connection is closed. */
  private fail(err: unknown): void {
    const code = err instanceof ConnectionError ? err.code : PROTOCOL_ERROR;
    this.write(goaway(this.lastStreamId, code, err instanceof Error ? err.message : String(err)));
    this.closing = true;
    this.dropStreams();
    this.flush(true);
  }
}

/** A payload without its padding (PADDED: a length octet first, that many octets last). */
function unpad(flags: number, payload: Buffer): Buffer {
  if (!(flags & PADDED)) return payload;
  const padding = payload[0];
  if (padding >= payload.length) throw new ConnectionError(PROTOCOL_ERROR, 'padding longer than the frame');
  return payload.subarray(1, payload.length - padding);
}
