// The parser is the protocol's: the provider block, the resources' timeouts and the
// environment's timing settings read durations the same way.
export { parseDuration } from '../../protocol/durations';
