/**
 * HTTP/2 frames (RFC 9113 §4, §6): the numbers of the frame types, flags, settings and
 * error codes this server uses, the windows and sizes it grants, and the few frames it
 * writes whole.
 */

/** What a client sends first (§3.4). */
export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
export const FRAME_HEADER = 9;

/** Frame types (§6). */
export const DATA = 0x0;
export const HEADERS = 0x1;
export const RST_STREAM = 0x3;
export const SETTINGS = 0x4;
export const PUSH_PROMISE = 0x5;
export const PING = 0x6;
export const GOAWAY = 0x7;
export const WINDOW_UPDATE = 0x8;
export const CONTINUATION = 0x9;

/** Flags: END_STREAM on DATA and HEADERS, ACK on SETTINGS and PING. */
export const END_STREAM = 0x1;
export const ACK = 0x1;
export const END_HEADERS = 0x4;
export const PADDED = 0x8;
export const PRIORITY = 0x20;

/** Settings (§6.5.2). */
export const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
export const SETTINGS_MAX_FRAME_SIZE = 0x5;
const SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;

/** Error codes of GOAWAY (§7). */
export const NO_ERROR = 0x0;
export const PROTOCOL_ERROR = 0x1;
export const FLOW_CONTROL_ERROR = 0x3;
export const FRAME_SIZE_ERROR = 0x6;
export const COMPRESSION_ERROR = 0x9;

/** Every window starts at this size until SETTINGS or WINDOW_UPDATE change it (§6.9.2). */
export const DEFAULT_WINDOW = 65_535;
export const DEFAULT_MAX_FRAME = 16_384;
export const MAX_WINDOW = 2 ** 31 - 1;
/**
 * What this side grants: each stream a 16 MiB window and frames up to 16 MiB (a large
 * state arrives in few frames), the connection the most HTTP/2 allows. Windows are
 * topped up once half is used, so no request waits on them.
 */
export const STREAM_WINDOW = 2 ** 24 - 1;
export const MAX_FRAME = 2 ** 24 - 1;
const MAX_HEADER_LIST = 1 << 20;

/** The 9-octet header every frame starts with (§4.1). */
export function frameHeader(length: number, type: number, flags: number, streamId: number): Buffer {
  const header = Buffer.allocUnsafe(FRAME_HEADER);
  header.writeUIntBE(length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId, 5);
  return header;
}

/** A WINDOW_UPDATE frame: the peer may send `increment` more octets on the stream (0: the connection). */
export function windowUpdate(streamId: number, increment: number): Buffer {
  const frame = frameHeader(4, WINDOW_UPDATE, 0, streamId);
  return Buffer.concat([frame, uint32(increment)]);
}

/** A GOAWAY frame: no stream above `lastStreamId` is taken, for `code`, with a reason for the logs (§6.8). */
export function goaway(lastStreamId: number, code: number, debug = ''): Buffer {
  const reason = Buffer.from(debug, 'utf8').subarray(0, 256);
  return Buffer.concat([frameHeader(8 + reason.length, GOAWAY, 0, 0), uint32(lastStreamId), uint32(code), reason]);
}

/** A 32-bit big-endian field. */
export function uint32(value: number): Buffer {
  const out = Buffer.allocUnsafe(4);
  out.writeUInt32BE(value);
  return out;
}

/** The server's preface: its SETTINGS, then the connection window opened to the most HTTP/2 allows. */
export const SERVER_PREFACE = (() => {
  const settings = [[SETTINGS_INITIAL_WINDOW_SIZE, STREAM_WINDOW], [SETTINGS_MAX_FRAME_SIZE, MAX_FRAME], [SETTINGS_MAX_HEADER_LIST_SIZE, MAX_HEADER_LIST]];
  const payload = Buffer.alloc(6 * settings.length);
  settings.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, 6 * i);
    payload.writeUInt32BE(value, 6 * i + 2);
  });
  return Buffer.concat([frameHeader(payload.length, SETTINGS, 0, 0), payload, windowUpdate(0, MAX_WINDOW - DEFAULT_WINDOW)]);
})();
/** The acknowledgement of the client's SETTINGS. */
export const SETTINGS_ACK = frameHeader(0, SETTINGS, ACK, 0);
