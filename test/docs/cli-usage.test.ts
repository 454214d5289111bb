import { COMMAND_NAMES, runCli } from '../../src/cli';

/** `reseller-hosting --help` lists every command it runs, so the overview cannot fall behind the commands. */
async function usage(): Promise<{ code: number; text: string }> {
  const written: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    return { code: await runCli(['--help']), text: written.join('') };
  } finally {
    spy.mockRestore();
  }
}

test('the usage names every command, each at the start of a line', async () => {
  const { code, text } = await usage();
  expect(code).toBe(0);
  expect(COMMAND_NAMES.length).toBeGreaterThanOrEqual(8);
  for (const name of COMMAND_NAMES) expect([name, text.includes(`\n  ${name} `)]).toEqual([name, true]);
});
