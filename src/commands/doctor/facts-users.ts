import { DoctorArea, held, isObject, notHeld, segment, unknowable } from './fact';
import { shapeOf } from './shapes';

/** Control-panel users: GET /reseller/{id}/susers. One GET. */
interface UserSample {
  readonly users?: unknown;
}

export const USERS: DoctorArea<UserSample> = {
  async read(api) {
    const users = await api.body(`/reseller/${segment(api.resellerId)}/susers`);
    const contacts = isObject(users) ? users.contact : undefined;
    api.found('users', contacts && typeof contacts === 'object' ? Object.keys(contacts).length : 0, users === undefined ? undefined : shapeOf(users));
    return { users };
  },

  facts: [
    {
      fact: 'user list', basis: 'documented', says: 'GET /reseller/{id}/susers has a contact map and a grant_map', assumptions: [],
      check({ users }) {
        if (!isObject(users)) return unknowable('the user list was not read');
        // PHP sends an empty map as [].
        const missing = ['contact', 'grant_map'].filter((m) => !isObject(users[m]) && !Array.isArray(users[m]));
        return missing.length ? notHeld(`missing: ${missing.join(', ')}`) : held('contact and grant_map present');
      },
    },
  ],
};
