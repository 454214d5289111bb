import { ApiError } from '../client';
import { describeObject, ENV, EXIT, HANDLER_COMMANDS, HandlerCommand } from '../protocol';
import { accountScope, HandlerContext } from './context';
import { clientFor, connectionFromEnv } from './connection';
import { HandlerError } from './errors';
import { Journal } from './journal';
import { RECONCILERS } from './reconcilers';
import { requestScope } from './request-scope';
import { forgetRetired, retireSettings } from './retired';
import { parseIdentity, parseSpec } from './spec-input';

/**
 * `reseller-hosting handler <command>` (HANDLER_COMMANDS): what Terraform's
 * provisioners run. Reads the object from RESELLER_SPEC and the
 * connection from RESELLER_API_URL / RESELLER_API_KEY, prints one line per action on
 * stdout, errors on stderr, and exits 0 or 1.
 */
export async function run(argv: string[], env: NodeJS.ProcessEnv = requestScope().env): Promise<number> {
  const io = requestScope();
  const command = argv[0] as HandlerCommand;
  if (!HANDLER_COMMANDS.includes(command)) {
    io.err(`usage: reseller-hosting handler ${HANDLER_COMMANDS.join('|')} (reads ${ENV.spec} from the environment)\n`);
    return EXIT.usage;
  }
  let subject = 'object';
  try {
    if (command === 'retire-settings') {
      // Needs no connection: it only takes a note for the `ensure` that follows.
      retireSettings(new Journal(), env[ENV.spec]);
      return EXIT.ok;
    }
    const conn = connectionFromEnv(env);
    const password = env[ENV.password];
    const ctx: HandlerContext = {
      client: clientFor(conn),
      command,
      journal: new Journal(),
      objectId: env[ENV.objectId] || undefined,
      accountScope: accountScope(conn.baseUrl, conn.resellerId, conn.apiKey),
      info: (line) => io.out(`${redact(line, password)}\n`),
      warn: (line) => io.err(`${redact(line, password)}\n`),
      password,
    };
    if (command === 'delete') {
      const identity = parseIdentity(env[ENV.spec]);
      subject = describeObject(identity);
      await RECONCILERS[identity.kind].remove(ctx, identity);
      return EXIT.ok;
    }
    const spec = parseSpec(env[ENV.spec]);
    subject = `${spec.path} (${spec.kind})`;
    const reconciler = RECONCILERS[spec.kind];
    if (command === 'ensure') {
      await reconciler.ensure(ctx, spec);
      forgetRetired(ctx);
    }
    else if (command === 'update') await reconciler.update(ctx, spec);
    else if (reconciler.setPassword) await reconciler.setPassword(ctx, spec);
    else throw new HandlerError(`set-password applies to mailboxes only, not to ${spec.kind}`);
    return EXIT.ok;
  } catch (err) {
    io.err(`${redact(errorLine(command, subject, err), env[ENV.password])}\n`);
    return EXIT.failure;
  }
}

function errorLine(command: string, subject: string, err: unknown): string {
  if (err instanceof HandlerError) return `error: ${err.message}`;
  if (err instanceof ApiError) return `error: ${command} ${subject}: ${err.message}`;
  return `error: ${command} ${subject}: ${err instanceof Error ? err.message : String(err)}`;
}

/** Belt and braces: no line the handler prints may contain the mailbox password. */
function redact(line: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? line.split(secret).join('***') : line;
}
