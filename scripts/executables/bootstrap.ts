/**
 * The main script of the single executable application: small on purpose. The program
 * (src/executable.ts, bundled) and its V8 code cache travel as SEA assets; this checks
 * the program against the SHA-256 the build wrote here, compiles it from the cache when
 * the cache was made from exactly this program on this platform (and is itself the
 * one the build wrote: its SHA-256 is here too), and runs it.
 *
 * Why not Node's own `useCodeCache`: it caches what compiling the script makes, not
 * the functions start-up runs (the build runs them first: `warm()`), so it saves a
 * third as much. Why not `useSnapshot`: Node 24 cannot snapshot `node:tls` and
 * `node:http2`, which the plugin's transport loads ("Unknown external reference").
 *
 * A damaged program is one line on stdout (Terraform shows a plugin's first line when
 * the handshake fails) and on stderr, and exit 1: never a stack trace.
 */
/**
 * The CommonJS wrapper the program is compiled in: the code cache is only accepted for
 * the very same source text, so the cache script below and the bootstrap share it.
 */
export const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
export const WRAPPER_TAIL = '\n})';

export function bootstrapText(options: { version: string; programSha256: string; cacheSha256?: string }): string {
  return `'use strict';
process.env.RESELLER_PROVIDER_VERSION = ${JSON.stringify(options.version)};
const fail = (why) => {
  const line = 'terraform-provider-reseller ' + ${JSON.stringify(options.version)} + ': ' + why + ': download the release again, or synthesize the stack again\\n';
  process.stdout.write(line);
  process.stderr.write(line);
  process.exit(1);
};
let main;
try {
  const sea = require('node:sea');
  const { createHash } = require('node:crypto');
  const source = sea.getAsset('program.js', 'utf8');
  const digest = createHash('sha256').update(source).digest();
  if (digest.toString('hex') !== ${JSON.stringify(options.programSha256)}) fail('this executable is damaged (its program does not match its checksum)');
  let cachedData;
  if (${JSON.stringify(options.cacheSha256 ?? '')}) {
    // V8 checks a code cache only against the source's length and its own flags: a
    // damaged cache would run. Its SHA-256, written here by the build, is checked too.
    const cache = Buffer.from(sea.getRawAsset('program.js.cache'));
    if (createHash('sha256').update(cache).digest('hex') !== ${JSON.stringify(options.cacheSha256 ?? '')}) fail('this executable is damaged (its code cache does not match its checksum)');
    if (cache.length > 32 && digest.equals(cache.subarray(0, 32))) cachedData = cache.subarray(32);
  }
  const { Script } = require('node:vm');
  const script = new Script(${JSON.stringify(WRAPPER_HEAD)} + source + ${JSON.stringify(WRAPPER_TAIL)}, { filename: 'program.js', cachedData });
  const mod = { exports: {} };
  script.runInThisContext().call(mod.exports, mod.exports, require, mod, process.execPath, require('node:path').dirname(process.execPath));
  main = mod.exports.main;
  if (typeof main !== 'function') throw new Error('no main()');
} catch (err) {
  fail('this executable cannot load its program (' + String((err && err.message) || err).split('\\n')[0] + ')');
}
main(process.argv.slice(2));
`;
}

/**
 * Run by the target platform's own Node (natively or under qemu): loads the program as
 * the bootstrap does, runs its `warm()` (what start-up and the first RPCs run), then
 * writes `<sha256 of the program><V8 code cache>`. Arguments: program, output file.
 */
export const CODE_CACHE_SCRIPT = `'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { Script } = require('node:vm');
const [program, out] = process.argv.slice(2);
const source = readFileSync(program, 'utf8');
const script = new Script(${JSON.stringify(WRAPPER_HEAD)} + source + ${JSON.stringify(WRAPPER_TAIL)}, { filename: 'program.js' });
const mod = { exports: {} };
script.runInThisContext().call(mod.exports, mod.exports, require, mod, program, __dirname);
Promise.resolve(mod.exports.warm && mod.exports.warm()).then(() => {
  writeFileSync(out, Buffer.concat([createHash('sha256').update(source).digest(), script.createCachedData()]));
  process.exit(0);
}, (err) => {
  process.stderr.write(String(err && err.stack || err) + '\\n');
  process.exit(1);
});
`;
