import { registerApiNoun } from './registry';
import { packages } from './packages';
import { mail } from './mail';
import { dns } from './dns';
import { cloud } from './cloud';
import { users } from './users';
import { web } from './web';
import { domains } from './domains';
import { mysql } from './mysql';

/**
 * The emulator's API nouns, one line each (see registry.ts for what a noun is). The
 * order is that of the control-panel page's sections and of the events.
 */
[
  packages,
  mail,
  dns,
  cloud,
  users,
  web,
  domains,
  mysql,
].forEach(registerApiNoun);

export * from './registry';
