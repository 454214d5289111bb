import { Resource } from '../../../src/client/resource';
import * as shape from '../../../src/client/shape';

/** A locker as the API lists it (test-only noun: `GET /package/{id}/lockers`). */
export interface LockerEntry {
  readonly id: string;
  readonly name: string;
  /** Undefined when the API does not show it (the documented profile). */
  readonly label?: string;
}

function parseLocker(value: unknown, where: string): LockerEntry {
  const entry = shape.object(value, where);
  return {
    id: shape.string(entry.id, shape.at(where, 'id')),
    name: shape.string(entry.name, shape.at(where, 'name')),
    ...(entry.label === undefined ? {} : { label: shape.string(entry.label, shape.at(where, 'label')) }),
  };
}

/** The client noun of the test-only kind: one POST route for every change, keyed updates, as mail's. */
export class Lockers extends Resource {
  list(pkg: string | number): Promise<LockerEntry[]> {
    return this.ctx.transport.call({
      operation: 'listLockers', method: 'GET', path: `/package/${encodeURIComponent(String(pkg))}/lockers`,
      parse: (data) => shape.arrayOf(data, '', parseLocker),
    });
  }

  create(pkg: string | number, locker: { name: string; label?: string; passcode: string }): Promise<unknown> {
    return this.write(pkg, 'createLocker', { new: locker }, [locker.passcode]);
  }

  update(pkg: string | number, id: string, patch: { label?: string; passcode?: string }): Promise<unknown> {
    return this.write(pkg, 'updateLocker', { update: { [id]: patch } }, patch.passcode ? [patch.passcode] : []);
  }

  delete(pkg: string | number, ids: string[]): Promise<unknown> {
    return this.write(pkg, 'deleteLocker', { delete: ids });
  }

  private write(pkg: string | number, operation: string, body: unknown, secrets: string[] = []): Promise<unknown> {
    return this.ctx.transport.call({
      operation, method: 'POST', path: `/package/${encodeURIComponent(String(pkg))}/lockers`, body, parse: (data) => data, secrets,
    });
  }
}
