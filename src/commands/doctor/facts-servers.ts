import { assumedFact, DoctorArea, held, idOf, listOf, segment, unknowable } from './fact';
import { shapeOf } from './shapes';

/** Cloud servers: the list (GET /cloud_server) and the first server (GET /cloud_server/{id}), for its headers. Two GETs. */
interface ServerSample {
  /** Headers (lowercased) of the read of one server; undefined when there is none. */
  readonly headers?: Readonly<Record<string, string>>;
}

export const SERVERS: DoctorArea<ServerSample> = {
  async read(api) {
    const servers = listOf(await api.body('/cloud_server'));
    api.found('cloud servers', servers.length, servers.length ? shapeOf(servers[0]) : undefined);
    const id = servers.map(idOf).find((s) => s !== undefined);
    const answer = id ? await api.answer(`/cloud_server/${segment(id)}`) : undefined;
    return { headers: answer && answer.status >= 200 && answer.status < 300 ? answer.headers : undefined };
  },

  facts: [
    assumedFact('brandFromHeaders', 'GET /cloud_server/{id} of a branded server returns the brand as X-Brand-Name and X-Brand-Logo headers', ({ headers }) => {
      if (!headers) return unknowable('the account has no cloud server');
      if (headers['x-brand-name'] !== undefined || headers['x-brand-logo'] !== undefined) return held('the brand headers are present');
      return unknowable('the server read sends no brand headers (it may not be branded)');
    }),
  ],
};
