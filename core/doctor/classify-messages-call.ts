// Turns the answer to the short real POST /v1/messages into a check outcome: what the client would
// see, who gave that answer (the service, an upstream it relayed, or whatever the proxy forwards
// to), the cause code and a remedy built from what is known to work (served models, {base_url}).
import { outcome } from './check-result.ts';
import type { CheckOutcome } from './check.ts';
import type { TemplateVars } from './fill-template.ts';
import type { KeyFinding } from './key-lint.ts';
import type { Answerer, MessagesCall } from './messages-probe.ts';
import { doubledV1, PROBE_MAX_TOKENS } from './messages-probe.ts';
import { proxyCommands, type ProxyInstall } from './proxy-commands.ts';
import { proxyAnsweredItself, proxyForwardFault } from './proxy-forward-fault.ts';
import { notFoundRemedy } from './known-good-base.ts';
import { causeRemedy } from '../causes/cause-remedy.ts';
import { statusRows } from './status-row.ts';
import { tooManyRequestsOutcome } from './too-many-requests.ts';
import { unauthorizedCause } from './unauthorized-cause.ts';

export interface MessagesExpectations {
  vars: TemplateVars;
  keyFindings: KeyFinding[];
  timeoutMs: number;
  /** Text models the service lists for this key, when known (for a model remedy). */
  served: string[] | null;
  /** The direct model-list request with the same key answered 200. */
  directWorks: boolean;
  /**
   * The proxy's upstream is known (its process or service definition) to be left at its default:
   * a refusal or a proxy-made 5xx through it is that classic, not a bad key or a proxy fault.
   */
  upstreamDefault?: (observed: string) => CheckOutcome;
  proxyInstall: ProxyInstall;
  /** The variable the key is exported in, for remedies. */
  keyVar: string;
  /** The client's base-address variable and command, for a direct start in remedies. */
  baseUrlVar?: string;
  command?: string;
}

export const REAL_REQUEST_LABEL = 'real request, may cost a few tokens';

function clip(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function answererText(who: Answerer, call: Pick<MessagesCall, 'route'>, root: string | undefined): string {
  if (who.kind === 'service') return `answered by the service${root ? ` at ${root}` : ''} itself${call.route === 'proxy' ? ', through the proxy' : ''}`;
  if (who.kind === 'provider') return `answered by the upstream provider "${who.name}", relayed by the service${call.route === 'proxy' ? ' and the proxy' : ''}`;
  if (who.kind === 'other') return call.route === 'proxy' ? 'answered by the proxy or whatever it forwards to, not recognisably this service' : 'answered by that address, not recognisably this service';
  return 'no answer';
}

function modelRemedy(exp: MessagesExpectations, call: MessagesCall): { remedy: string; commands: string[] } {
  const pick = exp.served?.[0];
  if (pick) {
    return {
      remedy: `Use a model the service serves to this key (${exp.served!.join(', ')}): set it once and gwctl start hands it to the client for every request, background ones included.`,
      commands: [`gwctl config set client.model ${pick}`, 'gwctl start'],
    };
  }
  const fix = causeRemedy('MODEL_NOT_AVAILABLE', exp.vars);
  return { remedy: `The model "${call.model}" is not served. ${fix.remedy}`, commands: fix.commands };
}

function networkOutcome(call: MessagesCall, head: string, exp: MessagesExpectations): CheckOutcome {
  if (call.outcome.kind !== 'error') throw new Error('not a network failure');
  const { failure } = call.outcome;
  if (failure.kind === 'timeout') {
    return outcome.fail('UPSTREAM_FAULT', `${head} connected, but no answer within ${exp.timeoutMs} ms`, 'The service or its upstream is slow or stuck: retry later, and report the time if it persists.', ['gwctl diagnose --status 504']);
  }
  if (call.route === 'proxy') {
    return outcome.fail('PROXY_FAULT', `${head} ${failure.code}: the proxy answered /health but not this request`, 'Restart the proxy from a terminal outside any client session using it and check its log; until then `gwctl start` goes direct when the proxy is not healthy.', proxyCommands.restart(exp.proxyInstall, exp.vars.base_url ?? '<base_url>'));
  }
  if (failure.kind === 'tls') return outcome.fail('TLS_ERROR', `${head} TLS handshake failed (${failure.code})`, 'Check the scheme and host of baseUrl (https for the service, http only for a local one) and the certificate trust.', ['gwctl verify']);
  return outcome.fail('URL_UNREACHABLE', `${head} ${failure.code}: ${failure.message}`, 'Check the address in baseUrl and the network (DNS, VPN, firewall); `gwctl verify` probes it.', ['gwctl config get baseUrl', 'gwctl verify']);
}

export function classifyMessagesCall(call: MessagesCall, exp: MessagesExpectations): CheckOutcome {
  const label = `${call.route === 'proxy' ? 'through the proxy' : 'direct'}, ${REAL_REQUEST_LABEL}`;
  const sent = `POST ${call.url} (model ${call.model}, max_tokens ${PROBE_MAX_TOKENS}; ${label}) →`;
  if (call.outcome.kind === 'error') return networkOutcome(call, sent, exp);
  const { status, headers } = call.outcome;
  const who = answererText(call.answeredBy, call, exp.vars.base_url);
  const message = call.errorMessage ? `: ${[call.errorType, clip(call.errorMessage)].filter(Boolean).join(': ')}` : call.outcome.body && status >= 400 ? `: ${clip(call.outcome.body, 120)}` : '';
  const requestId = headers['request-id'] ?? headers['x-request-id'];
  const head = `${sent} ${status}${message} (${who}${requestId ? `, request-id ${requestId}` : ''})`;

  if (status === 200 && call.isMessage) return outcome.pass(`${sent} 200, a normal reply${call.reply ? ` ("${clip(call.reply, 40)}")` : ''} (${who}). The client's requests work on this route with this model.`);
  if (status === 200) {
    const fix = notFoundRemedy('messages', call.url.replace(/\/v1\/messages$/, ''), call.errorMessage, exp.vars.base_url);
    return outcome.fail('URL_NOT_FOUND', `${head}: 200, but not a messages-protocol reply (not this API)`, fix.remedy.replace('(it answered 404', '(it does not answer as this API'), fix.commands);
  }
  if (status === 400) {
    if (/model/i.test(call.errorMessage ?? '') && (call.errorMessage ?? '').includes(call.model)) {
      const fix = modelRemedy(exp, call);
      return outcome.fail('MODEL_NOT_AVAILABLE', head, fix.remedy, fix.commands);
    }
    const fix = causeRemedy('REQUEST_REJECTED', exp.vars);
    const by = call.answeredBy.kind === 'provider' ? `the upstream provider "${call.answeredBy.name}"` : call.answeredBy.kind === 'service' ? 'the service' : 'the address the request reached';
    return outcome.fail(
      'REQUEST_REJECTED',
      head,
      `${by[0]!.toUpperCase()}${by.slice(1)} refused the request as sent${call.errorMessage ? ` ("${clip(call.errorMessage, 160)}")` : ''}; the client's own requests are refused the same way. ` +
        `If the message names the model, use one the service serves${exp.served?.length ? ` (${exp.served.join(', ')})` : ''}: \`gwctl config set client.model <id>\`. ` +
        'If it names a field, block type or beta header, the upstream does not accept what this client version sends: ask the service operator which client versions it supports, or update the client.',
      exp.served?.length ? [`gwctl config set client.model ${exp.served[0]}   # if the message names the model`, 'gwctl explain 400'] : [fix.commands[2]!, 'gwctl explain 400'],
    );
  }
  if (status === 401) {
    // The same key works directly, so whoever refused it through the proxy is not the service at
    // {base_url}: another upstream, or another gateway instance that answers like this one.
    if (call.route === 'proxy' && exp.directWorks) {
      const elsewhere = call.answeredBy.kind === 'service' || call.answeredBy.kind === 'provider' ? 'to another gateway instance than the one configured (it answers like this service but does not know the key)' : 'somewhere else';
      return outcome.fail(
        'PROXY_UPSTREAM_MISMATCH',
        `${head}; the same key works directly against ${exp.vars.base_url}, so the proxy forwards it ${elsewhere}`,
        `The key is fine: the proxy's upstream is the cause. Set it to ${exp.vars.base_url}, where this key is valid, and restart the proxy from a terminal outside any client session using it.`,
        proxyCommands.setUpstream(exp.proxyInstall, exp.vars.base_url ?? '<base_url>'),
      );
    }
    const cause = unauthorizedCause({ errorCode: call.errorType, errorMessage: call.errorMessage, keyFindings: exp.keyFindings });
    const fix = causeRemedy(cause, { ...exp.vars, token_var: exp.keyVar });
    return outcome.fail(cause, head, fix.remedy, fix.commands);
  }
  if (status === 403) {
    // A key limited to some models: the service names the model it refused.
    if ((call.errorMessage ?? '').includes(`"${call.model}"`)) {
      const fix = modelRemedy(exp, call);
      return outcome.fail('MODEL_NOT_AVAILABLE', head, fix.remedy, fix.commands);
    }
    const fix = causeRemedy('AUTH_FORBIDDEN', exp.vars);
    return outcome.fail('AUTH_FORBIDDEN', head, fix.remedy, fix.commands);
  }
  if (status === 404) {
    if (doubledV1(call) && call.route === 'proxy') {
      // The client's base address is the proxy's (no /v1), so the second /v1 comes from where the proxy forwards to.
      return outcome.fail(
        'PROXY_UPSTREAM_MISMATCH',
        `${head}; the client's base address is the proxy's, so the proxy forwards to an address ending in /v1`,
        `Set the proxy's upstream to the service root ${exp.vars.base_url} (no /v1: the proxy appends /v1/messages), and restart the proxy outside any client session that uses it.`,
        proxyCommands.setUpstream(exp.proxyInstall, exp.vars.base_url ?? '<base_url>'),
      );
    }
    if (doubledV1(call)) {
      const fix = causeRemedy('URL_DOUBLE_V1', exp.vars);
      return outcome.fail('URL_DOUBLE_V1', head, fix.remedy, fix.commands);
    }
    // Only a message naming the model asked for: the gateway's unknown-path 404 mentions /v1/models.
    if ((call.errorMessage ?? '').includes(call.model)) {
      const fix = modelRemedy(exp, call);
      return outcome.fail('MODEL_NOT_AVAILABLE', head, fix.remedy, fix.commands);
    }
    if (call.route === 'proxy' && call.answeredBy.kind === 'other') {
      return outcome.fail('PROXY_UPSTREAM_MISMATCH', `${head}; the proxy forwards to an address without /v1/messages`, `Set the proxy's upstream to the service root ${exp.vars.base_url} (no /v1), and restart the proxy.`, proxyCommands.setUpstream(exp.proxyInstall, exp.vars.base_url ?? '<base_url>'));
    }
    const fix = notFoundRemedy('messages', call.url.replace(/\/v1\/messages$/, ''), call.errorMessage, exp.vars.base_url);
    return outcome.fail('URL_NOT_FOUND', head, `${fix.remedy} gwctl start sets the client's base address from the baseUrl setting.`, fix.commands);
  }
  if (status === 413) {
    const fix = causeRemedy('REQUEST_TOO_LARGE', exp.vars);
    return outcome.fail('REQUEST_TOO_LARGE', head, fix.remedy, fix.commands);
  }
  if (status === 429) {
    return tooManyRequestsOutcome({ head, headers, errorCode: call.errorType, errorMessage: call.errorMessage, who: call.answeredBy, vars: exp.vars });
  }
  if (status === 529) {
    const fix = causeRemedy('UPSTREAM_OVERLOADED', exp.vars);
    return outcome.fail('UPSTREAM_OVERLOADED', head, fix.remedy, exp.served && exp.served.length > 1 ? [`gwctl config set client.model ${exp.served.find((m) => m !== call.model) ?? exp.served[0]}`] : fix.commands);
  }
  if (status >= 500) {
    if (proxyAnsweredItself(call) && exp.upstreamDefault) {
      return exp.upstreamDefault(`${head}; the proxy's upstream is left at its default, so the request went to the vendor, which did not answer it here`);
    }
    if (proxyAnsweredItself(call)) {
      return proxyForwardFault(`${head}; the service never answered: the proxy failed to forward the request`, {
        install: exp.proxyInstall,
        root: exp.vars.base_url ?? '<base_url>',
        baseUrlVar: exp.baseUrlVar ?? exp.vars.base_var ?? 'ANTHROPIC_BASE_URL',
        command: exp.command ?? 'claude',
      });
    }
    const row = statusRows.forStatus(status, exp.vars)[0] ?? statusRows.byId('500', exp.vars);
    return outcome.fail('UPSTREAM_FAULT', head, `The service or its upstream failed, not this machine. ${row.remedy}`, row.commands);
  }
  return outcome.fail('REQUEST_REJECTED', `${head} (unexpected)`, 'The answer is not one a messages-protocol service gives; check the base address with `gwctl verify`.', ['gwctl verify']);
}
