// Causes on the service's side of a request: limits, budgets, models, refusals and failures of the
// service or its upstream, and the verdicts "all fine" and "not reproduced".
import type { CauseText } from './cause-text.ts';

const FIND_REQUEST = 'gwctl admin request <request-id of the answer>';

export const SERVICE_CAUSES = {
  OK: {
    summary: 'The check passed.',
    why: 'What was checked works.',
    userRemedy: 'Nothing to do.',
    operatorRemedy: 'Nothing to do.',
    commands: [],
    operatorCommands: [],
  },
  RATE_LIMITED: {
    summary: "The service answered 429 (rate_limit_exceeded, or an upstream's rate limit): too many requests per minute.",
    why: 'The service limits how many requests one key may send per minute, and an upstream account has its own rate limit; a client in a loop or several sessions on one key reach it.',
    userRemedy:
      "Wait for the Retry-After interval the answer names, then retry; spread requests out. `gwctl diagnose --status 429` shows who answered: an answer naming an upstream provider (header x-gateway-provider) is the upstream account's rate limit: ask the service operator. One from the service itself is your key's rate limit: wait, or ask the service operator for a higher limit.",
    operatorRemedy: "Raise the key's requests-per-minute limit if its use is legitimate, or the gateway-wide default; for an upstream's limit, raise the provider account's limit or add a provider.",
    commands: ['gwctl diagnose --status 429   # who answered: the service or its upstream', 'gwctl verify   # again after the Retry-After interval'],
    operatorCommands: ['gwctl admin key update <id> --rate-limit <requests per minute>', 'gwctl serve --rate-limit <requests per minute>', 'gwctl admin usage'],
  },
  QUOTA_EXCEEDED: {
    summary: 'The service answered 429 quota_exceeded: a budget of the key or its account is used up.',
    why: 'The key or its account has a budget of requests or tokens per UTC day or month; once it is used up, every request is refused until the period ends.',
    userRemedy: 'This is a quota, not a rate limit: retrying sooner will not help. Wait until it resets, or ask the key owner or the service operator to raise it.',
    operatorRemedy: "Raise the key's or the account's budget if the use is legitimate; `gwctl admin usage` shows what used it.",
    commands: ['gwctl verify   # after the reset'],
    operatorCommands: ['gwctl admin usage', 'gwctl admin key update <id> --budget-tokens-day <tokens>', 'gwctl admin user set <name> --budget-tokens-month <tokens>'],
  },
  UPSTREAM_FAULT: {
    summary: 'The service or its upstream answered 5xx (or stopped answering).',
    why: 'The service or the provider behind it failed or timed out; nothing on this machine causes it.',
    userRemedy: 'Retry once. If it repeats, note the time and the request-id header of the answer and report both to the service operator; nothing on this machine causes it.',
    operatorRemedy: 'Read the failed request by its id: it names the provider and the error; check that provider and its health.',
    commands: ['gwctl diagnose --status 500   # shows the request id of a fresh short request'],
    operatorCommands: [FIND_REQUEST],
  },
  UPSTREAM_OVERLOADED: {
    summary: 'The upstream answered 529 (overloaded): it is busy, not broken; the request may be retried later.',
    why: 'The provider behind the service has no capacity right now; it passes.',
    userRemedy:
      'Wait a little and retry; the client retries by itself a few times. If it lasts, use another model the service lists (`gwctl config set client.model <id>`), or ask the service operator whether another provider can take over.',
    operatorRemedy: 'If it lasts, route the model to another provider in the providers file.',
    commands: ['gwctl diagnose --status 529', 'gwctl verify   # lists the models this key may use'],
    operatorCommands: [FIND_REQUEST],
  },
  REQUEST_REJECTED: {
    summary: 'The service or its upstream answered 400: it refused the request itself (its message names what).',
    why: 'A field, header, model or value of the request is not accepted, often a client version newer than the upstream supports.',
    userRemedy:
      'Read the error message: `gwctl diagnose` sends one short real request and shows the message and who answered. If it names the model, pick one the service lists (`gwctl verify` shows them) and set it with `gwctl config set client.model <id>`. If it names a field, block type or beta header, the upstream does not accept what this client version sends: ask the service operator which client versions it supports, or update the client.',
    operatorRemedy: 'Read the refused request: it shows what the upstream refused and which provider answered.',
    commands: ['gwctl diagnose   # one short real request; shows the message and who answered', 'gwctl verify   # lists the models this key may use', 'gwctl config set client.model <model id>'],
    operatorCommands: [FIND_REQUEST],
  },
  REQUEST_TOO_LARGE: {
    summary: 'The service answered 413: the request body is larger than it accepts.',
    why: 'Long conversations and pasted files or images make the body grow past the limit the operator set.',
    userRemedy:
      'Make the request smaller: start a new session or compact the conversation (/compact in the Claude Code CLI), and attach fewer or smaller files. The limit is set by the service operator; ask them if it must be raised.',
    operatorRemedy: 'Raise the body limit if such requests are expected.',
    commands: ['gwctl diagnose --status 413'],
    operatorCommands: ['gwctl serve --body-limit <bytes>'],
  },
  MODEL_NOT_AVAILABLE: {
    summary: 'The model the client asks for is not served to this key (or the gateway serves no text model).',
    why: 'Clients ask for their own default model (the Claude Code CLI asks for claude-… models) unless told otherwise, and the service may serve other names.',
    userRemedy:
      "Pick a model the service lists (`gwctl verify` shows them) and let gwctl start set it: `gwctl config set client.model <id>`. Without that setting, gwctl start picks a served text model by itself when the service lists none of the client's own.",
    operatorRemedy: 'Serve the model in the providers file, or tell users which models to use.',
    commands: ['gwctl verify   # lists the models this key may use', 'gwctl config set client.model <model id>', 'gwctl start'],
    operatorCommands: [FIND_REQUEST],
  },
  MODEL_NOT_ALLOWED: {
    summary: "The model is served, but not to this key: it is outside the key's or its account's allowed models (403).",
    why: 'The key owner or an operator limited the key, or an operator limited the account, to some models.',
    userRemedy: "Use a model the key may use, or have the key owner change the key's models on the keys page, within what an operator allows the account.",
    operatorRemedy: "Widen the account's allowed models if the user should have this one; the key owner widens the key's own list.",
    commands: ['gwctl verify   # lists the models this key may use', 'gwctl config set client.model <model id>'],
    operatorCommands: ['gwctl admin user set <name> --models <model,model>', 'gwctl admin key update <id> --models <model,model>'],
  },
  MODEL_UNKNOWN: {
    summary: 'The service serves no model of that name.',
    why: 'The name is mistyped, a client default the service does not serve, or a model that was removed.',
    userRemedy: 'Pick a model the service lists (`gwctl verify` shows them) and set it with `gwctl config set client.model <id>`.',
    operatorRemedy: 'Add the model to the providers file if it should be served, or tell users its served name.',
    commands: ['gwctl verify   # lists the models this key may use', 'gwctl config set client.model <model id>'],
    operatorCommands: [FIND_REQUEST],
  },
  CLIENT_ABORTED: {
    summary: 'The client went away before the answer was complete.',
    why: 'The user interrupted the client, the client timed out, or the connection dropped; the service stops the upstream call and counts what was used.',
    userRemedy: "Nothing is wrong with the service: if you did not stop the client yourself, check the network and the client's own timeout, and retry.",
    operatorRemedy: 'Nothing to fix unless many requests end this way: then look for a proxy or load balancer timeout in front of the gateway.',
    commands: ['gwctl diagnose'],
    operatorCommands: [FIND_REQUEST],
  },
  FAILURE_NOT_REPRODUCED: {
    summary: 'The client failed, but every check passes now and the same short request gets a normal answer.',
    why: 'A passing fault of the service or its upstream, a problem with the prompt or its files, or an error inside the client.',
    userRemedy: "Read the client's own message; run it again. If the failure comes back, note the time and report it.",
    operatorRemedy: 'Read the requests of that time for the key.',
    commands: ['gwctl start   # again', 'gwctl diagnose'],
    operatorCommands: [FIND_REQUEST],
  },
} as const satisfies Record<string, CauseText>;
