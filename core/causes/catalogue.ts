// The one catalogue of causes: for each stable code, what happened, why, what the person using the
// key does, what the service operator does, and the commands of each. The gateway's refusal texts,
// verify, diagnose, explain, the proxy checks and the support desk all read it, so they cannot drift
// apart. The topic files hold the words; this file joins them and answers lookups.
import { ADDRESS_CAUSES } from './address-causes.ts';
import type { CauseText } from './cause-text.ts';
import { KEY_CAUSES } from './key-causes.ts';
import { ROUTE_CAUSES } from './route-causes.ts';
import { SERVICE_CAUSES } from './service-causes.ts';

const CAUSES = { ...KEY_CAUSES, ...ADDRESS_CAUSES, ...SERVICE_CAUSES, ...ROUTE_CAUSES } as const;

export type CauseCode = keyof typeof CAUSES;

export interface CauseEntry extends CauseText {
  code: CauseCode;
}

/** Every code, in catalogue order. */
export const CAUSE_CODE_LIST = Object.keys(CAUSES) as CauseCode[];

export function isCauseCode(value: unknown): value is CauseCode {
  return typeof value === 'string' && Object.hasOwn(CAUSES, value);
}

export function causeEntry(code: CauseCode): CauseEntry {
  if (!isCauseCode(code)) throw new Error(`unknown cause code ${JSON.stringify(code)}; known: ${CAUSE_CODE_LIST.join(', ')}`);
  return { code, ...(CAUSES[code] as CauseText) };
}
