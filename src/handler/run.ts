import { ApiError, clientFor, connectionFromEnv } from '../client';
import {
  describeObject, ENV, EXIT, HANDLER_COMMANDS, HANDLER_USAGE, HandlerCommand, ObjectSpec, parseIdentity, parseSpec, secretEnvironments, secretFromEnv,
} from '../protocol';
import { accountScope, createContext, legacy, ReconcileContext, reconcile, remove, timingFromEnv } from '../reconcile';
import { packageVersion } from '../provider-mirror/package-info';
import { constructPathOf } from './construct-path';
import { HandlerError, isSelfExplaining } from './errors';
import { applyScope, Journal } from './journal';
import { requestScope } from './request-scope';
import { forgetRetired, retiredSettings, retireSettings } from './retired';
import { deferToSuccessor, forgetReplaced, replacedIdentity } from './successor';

/**
 * `reseller-hosting handler <command>` (HANDLER_COMMANDS): what Terraform's
 * provisioners run. Reads the object from RESELLER_SPEC and the
 * connection from RESELLER_API_URL / RESELLER_API_KEY, prints one line per action on
 * stdout, errors on stderr, and exits 0 or 1.
 */
export async function run(argv: string[], env: NodeJS.ProcessEnv = requestScope().env): Promise<number> {
  const io = requestScope();
  const command = argv[0] as HandlerCommand;
  // The surface every command shares (src/commands/command.ts), for the one command the launcher runs itself.
  if (argv[0] === '--help' || argv[0] === '-h') {
    io.out(HANDLER_USAGE);
    return EXIT.ok;
  }
  if (argv[0] === '--version') {
    io.out(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  if (!HANDLER_COMMANDS.includes(command)) {
    io.err(`reseller-hosting handler: ${argv.length ? `unknown verb "${argv[0]}"` : 'a verb is required'}\n\n${HANDLER_USAGE}`);
    return EXIT.usage;
  }
  let subject = 'object';
  try {
    const journal = new Journal();
    if (command === 'retire-settings') {
      // Needs no connection: it only takes a note for the `ensure` that follows.
      retireSettings(journal, env[ENV.spec]);
      return EXIT.ok;
    }
    const conn = connectionFromEnv(env);
    const objectId = env[ENV.objectId] || undefined;
    // Only a provisioner's `ensure` of a known object has a history (retired.ts).
    const first = command === 'ensure' && objectId !== undefined;
    const ctx: ReconcileContext = createContext({
      client: clientFor(conn),
      info: (line) => io.out(`${redact(line, env)}\n`),
      warn: (line) => io.err(`${redact(line, env)}\n`),
      // The provisioner passes an object's secret in its kind's variable, or names the variable (secret facet).
      secret: (spec) => secretFromEnv(spec, env),
      timing: timingFromEnv(env, (message) => io.err(`warning: ${message}\n`)),
      store: journal,
      accountScope: accountScope(conn.baseUrl, conn.resellerId, conn.apiKey),
      runScope: applyScope(),
      // Read when asked (only a mailbox or cloud server ensure looks): one file read fewer for the others.
      history: first ? { get replaced() { return retiredSettings(journal, objectId!); } } : undefined,
    });
    if (command === 'delete') {
      const identity = parseIdentity(env[ENV.spec]);
      subject = describeObject(identity);
      if (env[ENV.keep] === 'true') {
        io.out(`${subject}: kept in the account (keep on destroy): nothing is deleted; it is no longer managed\n`);
        return EXIT.ok;
      }
      const successor = deferToSuccessor(journal, identity, env[ENV.successor]);
      if (successor) {
        io.out(`${subject}: left for ${describeObject(successor)}, which replaces it in one write\n`);
        return EXIT.ok;
      }
      try {
        await remove(ctx, identity, { declared: declaredOf(env) });
      } catch (err) {
        // Name the construct, not only the natural key (looked up only now: see construct-path.ts).
        const path = constructPathOf(identity);
        throw path && err instanceof Error ? new HandlerError(`${path}: delete ${subject}: ${redact(err.message, env)}`) : err;
      }
      return EXIT.ok;
    }
    const spec = parseSpec(env[ENV.spec]);
    subject = `${spec.path} (${spec.kind})`;
    if (command === 'ensure') {
      const replaced = replacedIdentity(journal, spec);
      await reconcile(ctx, spec, { replacing: replaced?.replacing });
      if (replaced) forgetReplaced(journal, replaced.note);
      if (objectId) forgetRetired(journal, objectId);
    } else if (command === 'update') await legacy.update(ctx, spec);
    else await legacy.setPassword(ctx, spec);
    return EXIT.ok;
  } catch (err) {
    io.err(`${redact(errorLine(command, subject, err), env)}\n`);
    return EXIT.failure;
  }
}

/** The declaration a removal that restores defaults honours (ENV.declared), when the provisioner passed a valid one. */
function declaredOf(env: NodeJS.ProcessEnv): ObjectSpec | undefined {
  try {
    return env[ENV.declared] ? parseSpec(env[ENV.declared]) : undefined;
  } catch {
    return undefined; // a removal without it keeps every certificate: the safe side
  }
}

function errorLine(command: string, subject: string, err: unknown): string {
  if (isSelfExplaining(err)) return `error: ${err.message}`;
  if (err instanceof ApiError) return `error: ${command} ${subject}: ${err.message}`;
  return `error: ${command} ${subject}: ${err instanceof Error ? err.message : String(err)}`;
}

/** Belt and braces: no line the handler prints may contain a secret its provisioner passed (any kind's). */
function redact(line: string, env: NodeJS.ProcessEnv): string {
  let out = line;
  for (const name of secretEnvironments()) {
    const secret = env[name];
    if (secret && secret.length >= 4) out = out.split(secret).join('***');
  }
  return out;
}
