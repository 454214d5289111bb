import { SEVERITY } from './wire/messages';

/** A tfplugin6 Diagnostic, as the response encoders take it. */
export interface Diagnostic {
  readonly severity: number;
  readonly summary: string;
  readonly detail?: string;
  readonly attribute?: { readonly steps: readonly Record<string, unknown>[] };
}

/** An attribute path: `extra_domain_names`, then an index or a map key. */
export function attributePath(attribute: string, ...elements: (string | number)[]) {
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
