import { IConstruct } from 'constructs';
import { registryOf } from '../registry';
import { carrierSynthesizer } from './carriers';
import { DEFAULT_ENGINE, Engine, EngineSynthesizer } from './engine';
import { providerSynthesizer } from './provider';

export * from './engine';

/** The one place an engine name becomes its synthesizer. */
const SYNTHESIZERS: Record<Engine, EngineSynthesizer> = {
  provider: providerSynthesizer,
  terraform_data: carrierSynthesizer,
  null_resource: carrierSynthesizer,
};

/** The engine of the stack holding `scope`: its ResellerHosting's, else the default (`provider`). */
export function engineOf(scope: IConstruct): Engine {
  return registryOf(scope).hosting?.engine ?? DEFAULT_ENGINE;
}

/** The synthesizer of the stack's engine. */
export function synthesizerFor(scope: IConstruct): EngineSynthesizer {
  return SYNTHESIZERS[engineOf(scope)] ?? carrierSynthesizer;
}
