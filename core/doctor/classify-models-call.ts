// Turns the answer to GET …/models into a check outcome: error-table row, cause code, remedy, commands.
// Shared by `gwctl verify` (models.list) and `gwctl diagnose` (direct.request).
import type { ModelsCall } from '../client/gateway-client.ts';
import type { NetworkFailure } from '../client/http-get.ts';
import { outcome } from './check-result.ts';
import type { CheckOutcome } from './check.ts';
import type { TemplateVars } from './fill-template.ts';
import type { KeyFinding } from './key-lint.ts';
import { notFoundRemedy, rootFromHint, rootOf } from './known-good-base.ts';
import { causeRemedy } from '../causes/cause-remedy.ts';
import { answeredBy } from './messages-probe.ts';
import { statusRows } from './status-row.ts';
import { tooManyRequestsOutcome } from './too-many-requests.ts';
import { unauthorizedCause } from './unauthorized-cause.ts';

export type RouteType = 'chat' | 'messages' | 'images';

export interface CallExpectations {
  routeType: RouteType;
  /** The base URL as the user gave it. */
  baseUrl: string;
  /** A configured base address known apart from the one tried, for a 404's remedy. */
  configuredBase?: string;
  vars: TemplateVars;
  keyFindings: KeyFinding[];
  timeoutMs: number;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
}

function networkOutcome(call: ModelsCall, failure: NetworkFailure, exp: CallExpectations): CheckOutcome {
  const url = new URL(call.url);
  const head = `GET ${call.url} →`;
  const probe = `curl -sS -o /dev/null -w '%{http_code}\\n' ${call.url}   # 401 here means the address works`;
  switch (failure.kind) {
    case 'dns':
      return outcome.fail('URL_UNREACHABLE', `${head} the name ${url.hostname} does not resolve (${failure.code})`, 'Check the host name for typos, and DNS/VPN on this machine.', ['gwctl config get baseUrl', `getent hosts ${url.hostname}`]);
    case 'refused':
      return outcome.fail('URL_UNREACHABLE', `${head} connection refused (${failure.code}): nothing listens on ${url.host}`, 'Check the port and scheme of the address, and that the service is up.', ['gwctl config get baseUrl', probe]);
    case 'connect-timeout':
      return outcome.fail('URL_UNREACHABLE', `${head} no connection within ${exp.timeoutMs} ms (${failure.code})`, 'A firewall, VPN or a required HTTP proxy is in the way, or the host is down.', [probe]);
    case 'timeout':
      return outcome.fail('UPSTREAM_FAULT', `${head} connected, but no answer within ${exp.timeoutMs} ms`, 'The service is slow or stuck; try again later. If it persists, report it with the time.', [probe]);
    case 'tls': {
      const plain = /WRONG_VERSION_NUMBER|EPROTO|packet length/i.test(`${failure.code} ${failure.message}`);
      return outcome.fail(
        'TLS_ERROR',
        `${head} TLS handshake failed (${failure.code})`,
        plain
          ? 'The port speaks plain HTTP, not HTTPS: use the https address of the service (or http:// for a local one).'
          : 'The certificate is not trusted or does not match the host: check the host name, the system clock, and for a company CA set NODE_EXTRA_CA_CERTS.',
        plain ? ['gwctl config get baseUrl'] : [`openssl s_client -connect ${url.hostname}:${url.port || 443} -servername ${url.hostname} </dev/null`, 'export NODE_EXTRA_CA_CERTS=/path/to/company-ca.pem'],
      );
    }
    case 'invalid':
      if (exp.keyFindings.some((f) => f.cause === 'KEY_WHITESPACE')) {
        const fix = causeRemedy('KEY_WHITESPACE', exp.vars);
        return outcome.fail('KEY_WHITESPACE', `${head} not sent: the key contains a line break, which no HTTP header can carry`, fix.remedy, fix.commands);
      }
      return outcome.fail('URL_UNREACHABLE', `${head} not sent (${failure.message})`, 'Check the address.', ['gwctl config get baseUrl']);
    default:
      return outcome.fail('URL_UNREACHABLE', `${head} connection failed (${failure.code}: ${failure.message})`, 'Check the address and the network.', [probe]);
  }
}

export function classifyModelsCall(call: ModelsCall, exp: CallExpectations): CheckOutcome {
  if (call.outcome.kind === 'error') return networkOutcome(call, call.outcome.failure, exp);
  const { status, body, headers } = call.outcome;
  const server = call.errorCode || call.errorMessage ? ` ${[call.errorCode, call.errorMessage && call.errorMessage.length > 200 ? `${call.errorMessage.slice(0, 200)}…` : call.errorMessage].filter(Boolean).join(': ')}` : body ? ` ${snippet(body)}` : '';
  const head = `GET ${call.url} → ${status}${server}`;
  if (status === 200 && call.models) {
    const list = call.models.slice(0, 8).join(', ') + (call.models.length > 8 ? `, … (${call.models.length} in all)` : '');
    return outcome.pass(`GET ${call.url} → 200, ${call.models.length} model${call.models.length === 1 ? '' : 's'}: ${list || '(none)'}. Address reachable, key recognised, compatible entry works.`);
  }
  if (status === 401) {
    const cause = unauthorizedCause({ errorCode: call.errorCode, errorMessage: call.errorMessage, keyFindings: exp.keyFindings });
    const fix = causeRemedy(cause, exp.vars);
    return outcome.fail(cause, head, fix.remedy, fix.commands);
  }
  if (status === 403) {
    const fix = causeRemedy('AUTH_FORBIDDEN', exp.vars);
    return outcome.fail('AUTH_FORBIDDEN', head, fix.remedy, fix.commands);
  }
  if (status === 404 || status === 200) {
    const path = new URL(call.url).pathname;
    const missingV1 = exp.routeType !== 'messages' && !/\/v1$/.test(exp.baseUrl);
    if (call.errorCode === 'doubled_v1' || /\/v1\/v1(\/|$)/.test(path)) {
      if (exp.routeType !== 'messages') {
        const fixed = `${rootOf(exp.baseUrl)}/v1`;
        return outcome.fail('URL_DOUBLE_V1', head, `Use ${fixed}: a ${exp.routeType === 'chat' ? 'chat-completions' : 'image'} base URL carries /v1 exactly once.`, [`gwctl verify --type ${exp.routeType} --base-url ${fixed}`]);
      }
      const fix = causeRemedy('URL_DOUBLE_V1', exp.vars);
      return outcome.fail('URL_DOUBLE_V1', head, `A messages client's base address carries no /v1. ${fix.remedy}`, fix.commands);
    }
    const notList = status === 200 ? ' (200, but not a model list: not this API)' : '';
    // Missing /v1 only when nothing says the address is wrong otherwise: a 404 of the gateway that
    // names another root means a wrong path (…/api), whose remedy comes from that answer.
    const hinted = rootFromHint(call.errorMessage);
    if (call.errorCode === 'missing_v1' || (missingV1 && (!hinted || hinted === rootOf(exp.baseUrl)))) {
      const fixed = `${hinted ?? exp.baseUrl.replace(/\/+$/, '')}/v1`;
      return outcome.fail('URL_MISSING_V1', head + notList, `Use ${fixed}: a ${exp.routeType === 'chat' ? 'chat-completions' : 'image'} base URL ends with /v1 once.`, [`gwctl verify --type ${exp.routeType} --base-url ${fixed}`]);
    }
    const fix = notFoundRemedy(exp.routeType, exp.baseUrl, call.errorMessage, exp.configuredBase);
    return outcome.fail('URL_NOT_FOUND', head + notList, fix.remedy, fix.commands);
  }
  if (status === 429) {
    return tooManyRequestsOutcome({ head, headers, errorCode: call.errorCode, errorMessage: call.errorMessage, who: answeredBy(call.outcome), vars: exp.vars });
  }
  if (status >= 500) {
    const row = statusRows.byId('5xx', exp.vars);
    return outcome.fail('UPSTREAM_FAULT', head, `The service or its upstream failed. ${row.remedy} \`gwctl diagnose --status ${status}\` compares the proxy route with the direct one.`, row.commands);
  }
  const fix = notFoundRemedy(exp.routeType, exp.baseUrl, call.errorMessage, exp.configuredBase);
  return outcome.fail('URL_NOT_FOUND', `${head} (unexpected for a model list)`, fix.remedy, fix.commands);
}
