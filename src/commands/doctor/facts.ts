import { AccountReads, AssumptionName, DoctorArea, Fact, FactResult, notReadOnlyVerdict, unknowable, Verdict } from './fact';
import { CONVENTIONS } from './facts-conventions';
import { DNS } from './facts-dns';
import { DOMAINS } from './facts-domains';
import { MAIL } from './facts-mail';
import { MYSQL } from './facts-mysql';
import { PACKAGES } from './facts-packages';
import { SERVERS } from './facts-servers';
import { USERS } from './facts-users';
import { WEB } from './facts-web';

/**
 * Every fact the doctor holds up against a live account, area by area (the order of
 * the report). Each area is a module facts-<area>.ts: what it reads (GETs
 * only) and its facts, each naming the functions of src/client/assumptions.ts it
 * checks. A new area is its module plus one line here; a new fact for an area that
 * reads the right answer already is one entry in that area's `facts` (fact.ts
 * says how). test/doctor/assumption-coverage.test.ts holds every exported function of
 * assumptions.ts to having a fact here.
 */
const AREAS = [
  area(PACKAGES),
  area(MAIL),
  area(USERS),
  area(SERVERS),
  area(DNS),
  area(WEB),
  area(MYSQL),
  area(CONVENTIONS),
  area(DOMAINS),
];

/** What a fact is, without its check: for the coverage test and the docs. */
export interface FactEntry {
  readonly fact: string;
  readonly basis: 'assumed' | 'documented';
  readonly assumptions: readonly AssumptionName[];
  readonly whyNotReadOnly?: string;
}

export const FACTS: readonly FactEntry[] = AREAS.flatMap((a) => a.facts);

/**
 * Reads each area and checks its facts. Without `api` (the key was not accepted)
 * nothing is read: every fact is not verifiable.
 */
export async function checkFacts(api: AccountReads | undefined): Promise<FactResult[]> {
  const out: FactResult[] = [];
  for (const a of AREAS) out.push(...(await a.run(api)));
  return out;
}

/** An area with its sample type hidden, so that areas of different samples share one list. */
function area<S>(definition: DoctorArea<S>) {
  const result = (f: Fact<S>, verdict: Verdict): FactResult => ({
    fact: f.fact, basis: f.basis, says: f.says, ...verdict, assumptions: f.assumptions,
  });
  return {
    facts: definition.facts.map(({ fact, basis, assumptions, whyNotReadOnly }): FactEntry => ({ fact, basis, assumptions, whyNotReadOnly })),
    async run(api: AccountReads | undefined): Promise<FactResult[]> {
      if (!api) {
        return definition.facts.map((f) => result(f, f.whyNotReadOnly ? notReadOnlyVerdict(f.whyNotReadOnly) : unknowable('nothing was read: the key was not accepted')));
      }
      const sample = await definition.read(api);
      return definition.facts.map((f) => result(f, f.check(sample)));
    },
  };
}
