// The stable cause codes of every check and diagnosis, with what each means in one sentence. Scripts
// and support match on these names, so they never change meaning. The words live in the catalogue
// (core/causes/catalogue.ts); this is its code → summary view for the places that need only that.
import { CAUSE_CODE_LIST, causeEntry, type CauseCode } from '../causes/catalogue.ts';

export type { CauseCode } from '../causes/catalogue.ts';

export const CAUSE_CODES: Readonly<Record<CauseCode, string>> = Object.fromEntries(CAUSE_CODE_LIST.map((code) => [code, causeEntry(code).summary])) as Record<CauseCode, string>;
