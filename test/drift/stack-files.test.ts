import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findStackFiles, readDesired } from '../../src/stacks/desired';
import { StackError } from '../../src/stacks';
import { writeMovedBlocks } from '../../src/commands/import/moved-blocks';
import { removeTempDirs, tempDir } from './helpers';

/** A synthesized stack file that is not JSON stops both commands that read stack files, naming the file. */
afterAll(() => removeTempDirs());

function outWithBrokenStack(): string {
  const cwd = tempDir('reseller-stack-files-');
  mkdirSync(join(cwd, 'cdktf.out', 'stacks', 'shop'), { recursive: true });
  writeFileSync(join(cwd, 'cdktf.out', 'stacks', 'shop', 'cdk.tf.json'), '{"resource": ');
  return cwd;
}

it('drift and review: a stack file that is not JSON is an error naming it', () => {
  const cwd = outWithBrokenStack();
  const read = () => readDesired(findStackFiles(undefined, cwd), cwd);
  expect(read).toThrow(StackError);
  expect(read).toThrow(/^cdktf\.out\/stacks\/shop\/cdk\.tf\.json is not readable JSON: /);
});

it('import --moved: the same error for the same file', () => {
  const cwd = outWithBrokenStack();
  const write = () => writeMovedBlocks({ cwd, from: 'terraform_data' });
  expect(write).toThrow(StackError);
  expect(write).toThrow(/^cdktf\.out\/stacks\/shop\/cdk\.tf\.json is not readable JSON: /);
});
