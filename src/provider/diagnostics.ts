import { SEVERITY } from './wire/messages';
import type { AttributePath, Diagnostic } from './wire/rpc';

export type { Diagnostic } from './wire/rpc';

/** An attribute path: `extra_domain_names`, then an index or a map key. */
export function attributePath(attribute: string, ...elements: (string | number)[]): AttributePath {
  return {
    steps: [
      { attributeName: attribute },
      ...elements.map((e) => (typeof e === 'number' ? { elementKeyInt: e } : { elementKeyString: e })),
    ],
  };
}

export function error(summary: string, detail = '', attribute?: Diagnostic['attribute']): Diagnostic {
  return { severity: SEVERITY.error, summary, detail, attribute };
}

export function warning(summary: string, detail = '', attribute?: Diagnostic['attribute']): Diagnostic {
  return { severity: SEVERITY.warning, summary, detail, attribute };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === SEVERITY.error);
}

/** An error's message for a diagnostic (errors of the client never carry the API key). */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
