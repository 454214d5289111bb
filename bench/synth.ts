import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './lib/scratch';
import { REPO_ROOT } from '../scripts/lib/terraform';
import { Comparison, interleave, median, timeProcess } from './lib/stats';

/**
 * Figure 3: synth of N reseller constructs against synth of N bare `terraform_data`
 * resources, each as its own process (what `cdktf synth` runs), interleaved.
 */
export interface SynthResult {
  n: number;
  /** Resources the N constructs synthesize (object, settings, password). */
  resources: number;
  /** N constructs vs N bare resources (the goal as stated). */
  process: Comparison;
  /** N constructs vs as many bare resources as they synthesize: the cost per resource. */
  perResource: Comparison;
  /** In-process time of declaring + synthesizing only (no node or cdktf start-up), N vs N. */
  inApp: { subjectMs: number; baselineMs: number; ratio: number };
}

export const SYNTH_GOAL_RATIO = 1.5;

export async function benchSynth(options: { n: number; runs: number }): Promise<SynthResult> {
  const app = join(REPO_ROOT, 'dist', 'bench', 'synth-app.js');
  const inApp: Record<string, number[]> = {};
  let resources = 0;
  const run = (mode: 'constructs' | 'bare', count: () => number) => async () => {
    const outdir = scratchDir('synth-');
    try {
      const r = await timeProcess(process.execPath, [app, mode, String(count()), outdir]);
      if (r.code !== 0) throw new Error(`synth-app ${mode} ${count()}: exit ${r.code}: ${r.stderr}`);
      const t = JSON.parse(r.stdout.trim().split('\n').pop()!) as { declareMs: number; synthMs: number; resources: number };
      (inApp[`${mode} ${count()}`] ??= []).push(t.declareMs + t.synthMs);
      if (mode === 'constructs') resources = t.resources;
      return r.ms;
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  };
  const constructs = run('constructs', () => options.n);
  const cmp = await interleave(constructs, run('bare', () => options.n), options.runs);
  const perResource = await interleave(constructs, run('bare', () => resources), options.runs);
  const subjectMs = median(inApp[`constructs ${options.n}`]);
  const baselineMs = median(inApp[`bare ${options.n}`]);
  return { n: options.n, resources, process: cmp, perResource, inApp: { subjectMs, baselineMs, ratio: subjectMs / baselineMs } };
}
