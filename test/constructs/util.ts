import * as path from 'node:path';
import { App, TerraformStack, Testing } from 'cdktf';
import { IConstruct } from 'constructs';
import { Engine, ResellerHosting } from '../../src';

export const STACK = 'MyStack';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Json = any;

export interface Synthesized {
  readonly app: App;
  readonly stack: TerraformStack;
  readonly json: Json;
}

/**
 * The engine these helpers declare before `build` runs. Most files here test the
 * carriers' resources (the provider engine's are in provider-engine.test.ts), so they
 * name it; `as-declared` leaves the ResellerHosting (and so the engine) to `build`.
 */
export type TestEngine = Engine | 'as-declared';

function declareEngine(stack: TerraformStack, engine: TestEngine): void {
  if (engine !== 'as-declared') new ResellerHosting(stack, 'reseller', { engine });
}

/** Builds a stack named MyStack, validates it and returns the synthesized JSON. */
export function synth(build: (stack: TerraformStack) => void, validate = true, engine: TestEngine = 'terraform_data'): Synthesized {
  const app = Testing.app();
  const stack = new TerraformStack(app, STACK);
  declareEngine(stack, engine);
  build(stack);
  const json = JSON.parse(Testing.synth(stack, validate));
  return { app, stack, json };
}

/** The resources of one type (`terraform_data` by default). */
export function resources(json: Json, type = 'terraform_data'): Record<string, Json> {
  return json.resource?.[type] ?? {};
}

/** The local-exec block of a resource that runs `handler <command>`. */
export function provisioner(resource: Json, command: string): Json {
  const found = (resource.provisioner ?? []).map((p: Json) => p['local-exec']).find((p: Json) => p?.command === command);
  if (!found) throw new Error(`no local-exec provisioner with command ${command}`);
  return found;
}

export function env(resource: Json, command: string): Record<string, string> {
  return provisioner(resource, command).environment;
}

/** RESELLER_SPEC of a provisioner, decoded (literal JSON only). */
export function specOf(resource: Json, command = 'ensure'): Json {
  return JSON.parse(env(resource, command).RESELLER_SPEC);
}

/** Every validation message of a stack, without throwing. */
export function validationMessages(stack: TerraformStack): string[] {
  return stack.node.findAll().flatMap((c) => c.node.validate());
}

/** Builds MyStack and returns the error synth throws (or undefined when it succeeds). */
export function synthError(build: (stack: TerraformStack) => void, engine: TestEngine = 'terraform_data'): string | undefined {
  const app = Testing.app();
  const stack = new TerraformStack(app, STACK);
  declareEngine(stack, engine);
  build(stack);
  try {
    Testing.fullSynth(stack);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

export function warnings(construct: IConstruct): string[] {
  return construct.node.metadata.filter((m) => m.type === '@cdktf/warn').map((m) => String(m.data));
}

/** The package root (where package.json and bin/ are). */
export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
export const HANDLER = path.join(PACKAGE_ROOT, 'bin', 'reseller-hosting.js');

/** Terraform's working directory for a stack of an app: `<outdir>/stacks/<name>`. */
export function stackDir(app: App, stackName = STACK): string {
  return path.join(path.resolve(app.outdir), 'stacks', stackName);
}

/** The local-exec commands of a resource, in order; destroy-time ones marked `(destroy)`. */
export function commands(resource: Json): string[] {
  return (resource.provisioner ?? []).map((p: Json) => {
    const exec = p['local-exec'];
    if (!exec) throw new Error(`not a local-exec provisioner: ${JSON.stringify(p)}`);
    return exec.when === 'destroy' ? `${exec.command} (destroy)` : exec.command;
  });
}
