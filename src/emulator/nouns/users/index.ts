import { arrayOf } from '../../shape';
import type { ApiNoun } from '../registry';
import { dropGrantsOf } from './backend';
import { FIRST_USER_ID, fixtureUsers, userCheck } from './model';
import { usersSection } from './page';
import { addUserRoutes } from './routes';

/**
 * Control-panel users and their grants (spec 2.2, 2.3; api-notes "Control-panel users"):
 * `GET/POST /reseller/{id}/susers`, `explicitStackUserCheck`. Every account starts
 * with two fixture users; a deleted package's grants go with it.
 */
export const users = {
  name: 'users',
  counters: { userId: FIRST_USER_ID },
  account: {
    check: { users: arrayOf(userCheck) },
    fresh: (origin) => ({ users: fixtureUsers(origin) }),
    dump: (account) => ({
      users: account.users.map((u) => ({
        ref: `stack-user:${u.id}`,
        id: u.id,
        contact: { ...u.contact },
        grants: u.packageGrants.map((id) => `package:${id}`),
      })),
    }),
  },
  routes: addUserRoutes,
  on: {
    packageDeleted: ({ account, pkg }) => dropGrantsOf(account, pkg.id),
  },
  page: {
    figures: [{ label: 'Users', value: (account) => account.users.length }],
    section: usersSection,
  },
} satisfies ApiNoun;
