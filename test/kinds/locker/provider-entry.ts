// The provider with the test-only kind registered (bundled by bundles.ts, never shipped).
import './register';

export { main, warm } from '../../../src/provider/main';
