import type { Connection } from '../client';
import { connectionFromEnv } from '../client';
import { ENV } from '../protocol';
import type { StackSettings } from './desired';
import { StackError } from './errors';

/**
 * The connection, as the handler gets it: RESELLER_API_URL / RESELLER_API_KEY /
 * RESELLER_ID from the environment; when the environment has no URL or reseller id,
 * the stacks' own (ResellerHosting `apiUrl` / `resellerId`, or the provider block's
 * `api_url` / `reseller_id`), which is what their provisioners and provider use.
 */
export function connectionForStacks(env: NodeJS.ProcessEnv, stacks: readonly StackSettings[]): Connection {
  const pick = (field: 'apiUrl' | 'resellerId', variable: string): string | undefined => {
    if (env[variable]) return undefined;
    const values = [...new Set(stacks.map((s) => s[field]).filter((v): v is string => v !== undefined))];
    if (values.length > 1) {
      throw new StackError(
        `the stacks set different ${field} values (${values.join(', ')}), so they manage different accounts: ` +
          `run the command once per stack with --stack, or set ${variable}`,
      );
    }
    return values[0];
  };
  const apiUrl = pick('apiUrl', ENV.apiUrl);
  const resellerId = pick('resellerId', ENV.resellerId);
  try {
    return connectionFromEnv({
      ...env,
      ...(apiUrl !== undefined ? { [ENV.apiUrl]: apiUrl } : {}),
      ...(resellerId !== undefined ? { [ENV.resellerId]: resellerId } : {}),
    });
  } catch (err) {
    throw new StackError((err as Error).message);
  }
}
