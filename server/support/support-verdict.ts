// `gwctl admin support FILE` and POST /admin/api/v1/support: one verdict from both halves of a
// failure, the user's diagnosis (the bundle) and what the gateway recorded of the requests it names.
// What the gateway saw decides what happened at the gateway; a cause on the user's machine (a key
// missing in the shell, a proxy, an address) decides when the gateway saw nothing wrong or nothing.
import { causeEntry, type CauseCode } from '../../core/causes/catalogue.ts';
import { fillTemplate } from '../../core/doctor/fill-template.ts';
import type { Store } from '../store/store.ts';
import type { RequestVerdict, SupportVerdict } from '../../core/support/support-documents.ts';
import { explainRequest, type ExplainOptions } from './explain-request.ts';
import type { ReadBundle } from './support-bundle.ts';

const NOT_A_FAILURE = new Set<CauseCode>(['OK', 'FAILURE_NOT_REPRODUCED']);

export async function supportVerdict(store: Store, bundle: ReadBundle, options: ExplainOptions = {}): Promise<SupportVerdict> {
  const requests: RequestVerdict[] = [];
  const unknownRequestIds: string[] = [];
  for (const id of bundle.requestIds) {
    const found = await explainRequest(store, id, options);
    if (found) requests.push(found);
    else unknownRequestIds.push(id);
  }
  // The failure the user reported first (newest first), then what the diagnosis's own requests met.
  const reported = new Set(bundle.reportedRequestIds);
  requests.sort((a, b) => Number(reported.has(b.requestId)) - Number(reported.has(a.requestId)) || b.at.localeCompare(a.at));
  const failing = requests.filter((r) => !NOT_A_FAILURE.has(r.cause));
  const facts: string[] = [];
  if (bundle.requestIds.length > 0 && requests.length === 0) {
    facts.push(
      `None of the ${bundle.requestIds.length} request ids of the bundle is in this gateway's request log: the user's requests were answered elsewhere (another instance or service, or a proxy sending them to its default upstream), or before the log's retention.`,
    );
  } else if (unknownRequestIds.length > 0) {
    facts.push(`${unknownRequestIds.length} of ${bundle.requestIds.length} request ids are not in this gateway's request log.`);
  }
  let cause: CauseCode;
  let source: 'service' | 'client';
  if (failing.length > 0) {
    const newest = failing[0]!;
    cause = newest.cause;
    source = 'service';
    const which = reported.has(newest.requestId) ? 'the one the user reported' : 'the newest';
    facts.unshift(`The gateway recorded ${failing.length} failing request(s); ${which}, ${newest.requestId}: ${newest.cause}.`, ...newest.facts);
    if (bundle.clientCause && !NOT_A_FAILURE.has(bundle.clientCause) && bundle.clientCause !== cause) {
      facts.push(`The user's diagnosis named ${bundle.clientCause}${bundle.clientObserved ? ` (${bundle.clientObserved})` : ''}; what the gateway recorded is more precise.`);
    }
  } else {
    cause = bundle.clientCause ?? (requests.length > 0 ? 'OK' : 'FAILURE_NOT_REPRODUCED');
    source = 'client';
    if (requests.length > 0) facts.unshift(`The gateway answered all ${requests.length} request(s) it recorded normally.`);
    if (bundle.clientObserved) facts.push(`The user's diagnosis: ${bundle.clientObserved}`);
  }
  const text = causeEntry(cause);
  return {
    verdict: {
      cause,
      summary: text.summary,
      remedy: fillTemplate(text.operatorRemedy, { base_url: options.publicUrl }),
      userRemedy: fillTemplate(text.userRemedy, { base_url: options.publicUrl }),
      source,
      facts,
    },
    client: { cause: bundle.clientCause, observed: bundle.clientObserved, createdAt: bundle.createdAt },
    requests,
    unknownRequestIds,
  };
}

export type { SupportVerdict };
