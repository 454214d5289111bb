import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Writes `content` to `file` unless it already holds exactly that (a re-synth leaves
 * an installed provider untouched), through a temporary file and a rename so that a
 * Terraform reading it never sees half a file.
 */
export function writeIfChanged(file: string, content: Buffer | string, mode?: number): void {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  if (existsSync(file) && readFileSync(file).equals(bytes)) return;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  if (mode !== undefined) chmodSync(tmp, mode);
  renameSync(tmp, file);
}
