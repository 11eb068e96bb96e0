// Causes about the address a client uses: /v1 doubled or missing, a wrong path, no answer, TLS.
import type { CauseText } from './cause-text.ts';

export const ADDRESS_CAUSES = {
  URL_DOUBLE_V1: {
    summary: 'The base address carries /v1 and the client adds another: /v1/v1/… answers 404.',
    why: 'A messages client appends /v1/messages to its base address itself, so its base address is {base_url} without /v1; chat-completions and image base URLs carry /v1 exactly once.',
    userRemedy: 'Use the address without /v1 ({base_url}): the client appends /v1/messages itself.',
    operatorRemedy: 'Nothing on the service: the client builds the doubled path.',
    commands: ['export {base_var}={base_url}', 'gwctl start', 'gwctl verify --base-url {base_url}'],
    operatorCommands: [],
  },
  URL_MISSING_V1: {
    summary: 'A chat-completions or image base URL lacks the /v1 it must end with.',
    why: 'Chat-completions and image clients append only the last part of the path (/models, /chat/completions), so their base URL must end with /v1.',
    userRemedy: 'Use {base_url}/v1 as the base URL of a chat-completions client (and the image address followed by /v1 for images).',
    operatorRemedy: 'Nothing on the service.',
    commands: ['gwctl verify --type chat --base-url {base_url}/v1'],
    operatorCommands: [],
  },
  URL_NOT_FOUND: {
    summary: 'The address answered 404 (or something that is not this API): the URL is written wrongly.',
    why: 'The host answers, but not as this API at that path: a wrong host or path, or an address of another service.',
    userRemedy: 'Use {base_url}/v1/models to check the address: take the base address from the service, not from the address that answered 404.',
    operatorRemedy: 'Nothing on the service, unless the public address changed: then tell users the new one.',
    commands: ['gwctl verify --base-url {base_url}'],
    operatorCommands: [],
  },
  URL_WRONG_PATH: {
    summary: 'The request went to a path this API does not have (not a doubled /v1).',
    why: 'A client or script built the path by hand, or a base address carries an extra path segment (…/api, …/openai), so requests land beside the API.',
    userRemedy: 'Use the service address followed by /v1 as the base URL of chat-completions clients and the bare service address for messages clients; the paths of the API are /v1/models, /v1/chat/completions and /v1/messages.',
    operatorRemedy: 'Nothing on the service: read the refused request to tell the user which path their client asked for.',
    commands: ['gwctl verify --base-url {base_url}', 'gwctl diagnose --status 404'],
    operatorCommands: ['gwctl admin request <request-id of the 404>'],
  },
  URL_UNREACHABLE: {
    summary: 'No answer from the address: name not resolved, connection refused or timed out.',
    why: 'The host name does not resolve, nothing listens on that port, or a firewall, VPN or required HTTP proxy is in the way.',
    userRemedy: 'Check the host name, the port and the scheme of the address, and DNS, VPN and firewall on this machine.',
    operatorRemedy: 'Check that the gateway listens on the public address and that it is reachable from outside.',
    commands: ['gwctl config get baseUrl', "curl -sS -o /dev/null -w '%{http_code}\\n' {base_url}/v1/models   # 401 here means the address works"],
    operatorCommands: ['curl -s {base_url}/ready'],
  },
  TLS_ERROR: {
    summary: 'The TLS handshake failed (certificate, or https spoken to a plain-http port).',
    why: 'The certificate is not trusted here (a company CA, a wrong host name, a wrong clock), or the port speaks plain HTTP.',
    userRemedy: 'Check the scheme (https for the service, http only for a local one) and the host name; for a company CA set NODE_EXTRA_CA_CERTS.',
    operatorRemedy: 'Check the certificate and the host names it covers on the public address.',
    commands: ['gwctl config get baseUrl', 'export NODE_EXTRA_CA_CERTS=/path/to/company-ca.pem'],
    operatorCommands: [],
  },
} as const satisfies Record<string, CauseText>;
