// Turns the answer to the short real request in a client's own protocol (protocol-probe.ts) into a
// check outcome, with the causes of the catalogue: the key (401), the model (403/404), a budget or a
// rate limit (429), the service or its upstream (5xx), the address (network failures).
import type { ModelsCall } from '../client/gateway-client.ts';
import { causeRemedy } from '../causes/cause-remedy.ts';
import { outcome } from './check-result.ts';
import type { CheckOutcome } from './check.ts';
import { classifyModelsCall } from './classify-models-call.ts';
import type { TemplateVars } from './fill-template.ts';
import type { KeyFinding } from './key-lint.ts';
import { PROTOCOL_NAMES, type ProtocolCall } from './protocol-probe.ts';
import { tooManyRequestsOutcome } from './too-many-requests.ts';
import { unauthorizedCause } from './unauthorized-cause.ts';

export interface ProtocolExpectations {
  vars: TemplateVars;
  keyFindings: KeyFinding[];
  timeoutMs: number;
  /** The base URL the client uses, for address findings. */
  baseUrl: string;
}

const MODEL_CODES = new Set(['model_not_found', 'model_not_allowed', 'NOT_FOUND', 'PERMISSION_DENIED']);

export function classifyProtocolCall(call: ProtocolCall, exp: ProtocolExpectations): CheckOutcome {
  const name = PROTOCOL_NAMES[call.protocol];
  if (call.outcome.kind === 'error') {
    // The same network findings as the model list (the address is the same).
    const asModels: ModelsCall = { url: call.url, outcome: { kind: 'error', failure: call.outcome.failure } };
    const found = classifyModelsCall(asModels, { routeType: 'chat', baseUrl: exp.baseUrl, vars: exp.vars, keyFindings: exp.keyFindings, timeoutMs: exp.timeoutMs });
    return { ...found, observed: found.observed.replace(/^GET /, 'POST ') };
  }
  const { status, headers } = call.outcome;
  const said = [call.errorCode, call.errorMessage && call.errorMessage.length > 200 ? `${call.errorMessage.slice(0, 200)}…` : call.errorMessage].filter(Boolean).join(': ');
  const who = call.answeredBy.kind === 'provider' ? ` (answered by provider "${call.answeredBy.name}")` : '';
  const head = `POST ${call.url} (model ${call.model}) → ${status}${said ? ` ${said}` : ''}${who}`;
  if (status < 300 && call.isAnswer) return outcome.pass(`${head}: a ${name} answer. The client's protocol, key and model work on this route.`);
  if (status < 300) {
    const fix = causeRemedy('URL_NOT_FOUND', exp.vars);
    return outcome.fail('URL_NOT_FOUND', `${head}, but not a ${name} answer: something else answers this address`, fix.remedy, fix.commands);
  }
  if (status === 401) {
    const cause = unauthorizedCause({ errorCode: call.errorCode, errorMessage: call.errorMessage, keyFindings: exp.keyFindings });
    const fix = causeRemedy(cause, exp.vars);
    return outcome.fail(cause, head, fix.remedy, fix.commands);
  }
  if (status === 429) return tooManyRequestsOutcome({ head, headers, errorCode: call.errorCode, errorMessage: call.errorMessage, who: call.answeredBy, vars: exp.vars });
  if ((status === 403 || status === 404) && (MODEL_CODES.has(call.errorCode ?? '') || /\bmodel\b/i.test(call.errorMessage ?? ''))) {
    const fix = causeRemedy('MODEL_NOT_AVAILABLE', exp.vars);
    return outcome.fail('MODEL_NOT_AVAILABLE', head, fix.remedy, fix.commands);
  }
  if (status === 403) {
    const fix = causeRemedy('AUTH_FORBIDDEN', exp.vars);
    return outcome.fail('AUTH_FORBIDDEN', head, fix.remedy, fix.commands);
  }
  if (status === 404) {
    const fix = causeRemedy('URL_NOT_FOUND', exp.vars);
    return outcome.fail('URL_NOT_FOUND', head, fix.remedy, fix.commands);
  }
  if (status === 413) {
    const fix = causeRemedy('REQUEST_TOO_LARGE', exp.vars);
    return outcome.fail('REQUEST_TOO_LARGE', head, fix.remedy, fix.commands);
  }
  if (status === 529) {
    const fix = causeRemedy('UPSTREAM_OVERLOADED', exp.vars);
    return outcome.fail('UPSTREAM_OVERLOADED', head, fix.remedy, fix.commands);
  }
  if (status >= 500) {
    const fix = causeRemedy('UPSTREAM_FAULT', exp.vars);
    return outcome.fail('UPSTREAM_FAULT', head, fix.remedy, fix.commands);
  }
  const fix = causeRemedy('REQUEST_REJECTED', exp.vars);
  return outcome.fail('REQUEST_REJECTED', head, fix.remedy, fix.commands);
}
