import { ApiContext } from './context';
import { Router } from '../router';
import { addUserRoutes } from './users';
import { addPackageRoutes } from './packages';
import { addMailRoutes } from './mail';
import { addCloudRoutes } from './cloud';
import { addDnsRoutes } from './dns';

/** The reseller API's routes (every path the emulator answers outside /__emulator/). */
export function apiRouter(): Router<ApiContext> {
  const router = new Router<ApiContext>();
  addUserRoutes(router);
  addPackageRoutes(router);
  addMailRoutes(router);
  addCloudRoutes(router);
  addDnsRoutes(router);
  return router;
}

export type { ApiContext };
