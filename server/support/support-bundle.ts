// The support bundle `gwctl diagnose --report FILE` writes (core/support/support-bundle.ts), as the service side reads it: checked
// for its kind and version, the parts the verdict needs kept, everything else ignored. A bundle
// never holds a key, token or cookie (the client side guarantees it; nothing here needs one).
import { isCauseCode, type CauseCode } from '../../core/causes/catalogue.ts';
import { SUPPORT_BUNDLE_KIND } from '../../core/support/support-bundle.ts';
const MAX_REQUEST_IDS = 200;

export interface BundleCheck {
  id: string;
  status: string;
  cause: CauseCode | null;
  observed: string;
}

export interface ReadBundle {
  schemaVersion: number;
  createdAt: string | null;
  /** The client-side verdict of the diagnosis. */
  clientCause: CauseCode | null;
  clientObserved: string | null;
  checks: BundleCheck[];
  requestIds: string[];
  /** The ids of the failure the user met (a subset of requestIds): their cause comes first. */
  reportedRequestIds: string[];
}

export class BundleError extends Error {
  override readonly name = 'BundleError';
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Throws a BundleError that says what is wrong with the document and what to send instead. */
export function readSupportBundle(document: unknown): ReadBundle {
  if (!isRecord(document)) throw new BundleError('The support bundle is not a JSON object. Send the file `gwctl diagnose --report FILE` wrote, unchanged.');
  if (document.kind !== SUPPORT_BUNDLE_KIND) {
    throw new BundleError(`This JSON is not a support bundle (its "kind" is ${JSON.stringify(document.kind ?? null)}, not "${SUPPORT_BUNDLE_KIND}"). Ask the user for the file of \`gwctl diagnose --report FILE\`.`);
  }
  if (document.schemaVersion !== 1) {
    throw new BundleError(`Support bundle version ${JSON.stringify(document.schemaVersion)} is not known here (this gwctl reads version 1). Update gwctl on this side, or have the user run the same version.`);
  }
  const ids = document.requestIds;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 200)) {
    throw new BundleError('The support bundle\'s "requestIds" must be a list of request ids (strings); the file looks edited or cut off.');
  }
  const checks = Array.isArray(document.checks) ? document.checks.filter(isRecord) : [];
  const verdict = isRecord(document.verdict) ? document.verdict : {};
  return {
    schemaVersion: 1,
    createdAt: typeof document.createdAt === 'string' ? document.createdAt : null,
    clientCause: isCauseCode(verdict.cause) ? verdict.cause : null,
    clientObserved: typeof verdict.observed === 'string' ? verdict.observed : null,
    checks: checks.map((c) => ({
      id: String(c.id ?? ''),
      status: String(c.status ?? ''),
      cause: isCauseCode(c.cause) ? c.cause : null,
      observed: typeof c.observed === 'string' ? c.observed : '',
    })),
    requestIds: [...new Set(ids as string[])].slice(0, MAX_REQUEST_IDS),
    reportedRequestIds: Array.isArray(document.reportedRequestIds) ? document.reportedRequestIds.filter((id): id is string => typeof id === 'string').slice(0, MAX_REQUEST_IDS) : [],
  };
}
