import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, Browser } from 'playwright-core';

/**
 * Which Chromium the browser tests drive, in this order:
 *  1. `CHROMIUM_PATH`, when set (it must name an executable: a wrong path fails, it is
 *     never silently replaced by another browser);
 *  2. a system Chromium or Chrome found on PATH or at the usual Linux/macOS locations;
 *  3. the Chromium inside the `@sparticuz/chromium` dev dependency (from the npm
 *     registry, installed by `npm ci`; Linux x64/arm64), unpacked into the temp
 *     directory on first use.
 * No browser is ever downloaded at run time (no `npx playwright install`).
 */
export interface ChromiumChoice {
  readonly executablePath: string;
  /** Where it came from, for messages: `CHROMIUM_PATH`, `system`, `@sparticuz/chromium`. */
  readonly source: string;
}

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
const SYSTEM_PATHS = [
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first Chromium on PATH (or at a usual macOS location), if any. */
export function systemChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of SYSTEM_NAMES) {
    for (const dir of dirs) {
      const file = join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  return SYSTEM_PATHS.find((file) => existsSync(file) && isExecutable(file));
}

/** Picks the browser (see ChromiumChoice); throws with what to do when there is none. */
export async function chooseChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumChoice> {
  if (env.CHROMIUM_PATH) {
    if (!isExecutable(env.CHROMIUM_PATH)) {
      throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file: point it at a Chromium binary, or unset it to use a system Chromium or @sparticuz/chromium`);
    }
    return { executablePath: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' };
  }
  const system = systemChromium(env);
  if (system) return { executablePath: system, source: 'system' };
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    throw new Error(
      `no Chromium found on PATH, and @sparticuz/chromium only runs on Linux x64/arm64 (this is ${process.platform}/${process.arch}): ` +
        'install Chromium or Chrome, or set CHROMIUM_PATH to one',
    );
  }
  let packaged: { setGraphicsMode: boolean; executablePath(): Promise<string> };
  try {
    // Its CommonJS build exports the class itself (its ES module build: as default).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = require('@sparticuz/chromium');
    packaged = loaded.default ?? loaded;
  } catch (err) {
    throw new Error(`no Chromium found on PATH and the @sparticuz/chromium dev dependency cannot be loaded (run npm ci): ${(err as Error).message}`);
  }
  // Software GL is not needed with --disable-gpu: skip unpacking SwiftShader.
  packaged.setGraphicsMode = false;
  return { executablePath: await packaged.executablePath(), source: '@sparticuz/chromium' };
}

// Flags for a closed network and a container (docs: Chromium and Playwright). playwright-core
// starts every browser with a new, empty profile directory of its own.
const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--no-zygote', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Launches the chosen Chromium headless with playwright-core. */
export async function launchChromium(env: NodeJS.ProcessEnv = process.env): Promise<{ browser: Browser; choice: ChromiumChoice }> {
  const choice = await chooseChromium(env);
  try {
    return { browser: await chromium.launch({ executablePath: choice.executablePath, args: CHROMIUM_FLAGS }), choice };
  } catch (err) {
    throw new Error(`could not launch Chromium ${choice.executablePath} (from ${choice.source}): ${(err as Error).message}`);
  }
}
