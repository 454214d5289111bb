import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a handler run reads from its process: environment, parent process (the
 * Terraform run) and output. A provisioner process runs one command with its own;
 * the warm handler host (host.ts) runs many at once, each with the client's, so
 * nothing of one request may leak into another.
 */
export interface RequestScope {
  readonly env: NodeJS.ProcessEnv;
  /** Pid of the Terraform process the provisioner belongs to. */
  readonly ppid: number;
  out(text: string): void;
  err(text: string): void;
}

const storage = new AsyncLocalStorage<RequestScope>();

const processScope: RequestScope = {
  get env() {
    return process.env;
  },
  get ppid() {
    return process.ppid;
  },
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** The scope of the running request (this process's own outside the host). */
export function requestScope(): RequestScope {
  return storage.getStore() ?? processScope;
}

/** Runs `fn` with `scope` as the request scope of everything it calls. */
export function withRequestScope<T>(scope: RequestScope, fn: () => Promise<T>): Promise<T> {
  return storage.run(scope, fn);
}
