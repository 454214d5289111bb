// `node handler.js handler <command>` as the carriers' provisioners run it, with the test-only kind registered (bundles.ts).
import './register';
import { run } from '../../../src/handler/run';

run(process.argv.slice(3)).then((code) => {
  process.exitCode = code;
});
