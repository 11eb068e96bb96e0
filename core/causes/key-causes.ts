// Causes about the key and the credential: missing, mangled, unknown, deleted, expired, refused.
import type { CauseText } from './cause-text.ts';

const FIND_KEY = 'gwctl admin key find <key id, masked key sk-…a1b2 or fingerprint>';
const FIND_REQUEST = 'gwctl admin request <request-id of the refused answer>';

export const KEY_CAUSES = {
  KEY_MISSING: {
    summary: 'No key in the variable that should carry it.',
    why: 'Keys come from an environment variable of the shell that starts the client; a new terminal, another user or a clean shell does not have it.',
    userRemedy: 'Put the key in the variable for this shell only (never on the command line or in a shared file), then check it with `gwctl verify`.',
    operatorRemedy: 'Nothing on the service: the request carried no key at all.',
    commands: ['read -rs {token_var} && export {token_var}   # paste the key', 'gwctl verify'],
    operatorCommands: [],
  },
  KEY_WHITESPACE: {
    summary: 'The key value contains a space, tab or line break (often from copying).',
    why: 'Copying from a web page, a chat or a wrapped terminal line picks up spaces or line breaks; the service compares the whole value, so it no longer matches.',
    userRemedy: 'Copy the key again from where you saved it (a password manager) and export it bare, with nothing around it.',
    operatorRemedy: 'Nothing on the service: the key arrives with extra characters.',
    commands: ['read -rs {token_var} && export {token_var}   # paste the key', 'gwctl verify'],
    operatorCommands: [],
  },
  KEY_QUOTES: {
    summary: 'The key value is wrapped in quotes or contains typographic quotes.',
    why: 'Quotes around a value in a settings file or typographic quotes from a document become part of the key, which then matches no key.',
    userRemedy: 'Remove the quotes: copy the key again from where you saved it and export it bare (no straight or typographic quotes in the value).',
    operatorRemedy: 'Nothing on the service: the key arrives with quotes in it.',
    commands: ['read -rs {token_var} && export {token_var}   # paste the key without quotes', 'gwctl verify'],
    operatorCommands: [],
  },
  KEY_PREFIX: {
    summary: 'The key does not start with `sk-` (a warning: keys of this service normally do).',
    why: 'A value without the prefix is often another credential (a vendor key, a login token) or a key copied incompletely.',
    userRemedy: 'Check that this is a key of this service, copied whole; `gwctl verify` tells for sure.',
    operatorRemedy: 'Nothing on the service.',
    commands: ['gwctl verify'],
    operatorCommands: [],
  },
  KEY_REJECTED: {
    summary: 'The service answered 401: the key is wrong, incomplete or deleted.',
    why: 'The service knows keys only by their whole value; a deleted key, a mistyped or truncated one, or a key of another service or instance matches none of its keys.',
    userRemedy:
      'A deleted key is gone for good: create a new one on {base_url}/keys and export it. Otherwise copy the key again from where you saved it (a password manager), export it bare for this shell, and check it with `gwctl verify`.',
    operatorRemedy: 'Look the key up by its masked form to tell a deleted key from one that never existed, and check that the user reaches this instance.',
    commands: ['read -rs {token_var} && export {token_var}   # paste the key (a new one from {base_url}/keys if it was deleted)', 'gwctl verify'],
    operatorCommands: [FIND_KEY, FIND_REQUEST],
  },
  KEY_DELETED: {
    summary: 'The key was deleted: the service answers 401 to it for good.',
    why: 'Deleting a key (by its owner, or by an operator after a suspected leak) cannot be undone; its value is never valid again.',
    userRemedy: 'A deleted key cannot come back: create a new one on the keys page.',
    operatorRemedy: 'Confirm when and by whom it was deleted; the user creates a new key (a deleted one is never restored).',
    commands: ['gwctl verify   # after exporting the new key'],
    operatorCommands: [FIND_KEY, 'gwctl admin audit'],
  },
  KEY_UNKNOWN: {
    summary: 'The service has never had a key with this value: it is mistyped or copied incompletely.',
    why: 'Only the whole value matches; a key missing characters at either end, with a typo, or from another service is unknown here.',
    userRemedy: 'An unknown key is mistyped or incomplete: copy it again, whole, from where you saved it and send it bare (no spaces, line breaks or quotes). A key that was never saved cannot be shown again: create a new one on the keys page.',
    operatorRemedy: 'Nothing to fix on the service: no key ever had this value. Check the masked form the user sees against their keys.',
    commands: ['read -rs {token_var} && export {token_var}   # paste the whole key', 'gwctl verify'],
    operatorCommands: ['gwctl admin key list --user <name>', FIND_KEY],
  },
  KEY_EXPIRED: {
    summary: 'The key has passed its expiry time: the service answers 401 to it.',
    why: 'The key owner or an operator gave the key an expiry; after it the key stays listed but is refused.',
    userRemedy: 'The key owner can set a later expiry on the keys page, or create a new key.',
    operatorRemedy: 'Set a later expiry on the key, or have the user create a new one.',
    commands: ['gwctl verify   # after the change'],
    operatorCommands: ['gwctl admin key update <id> --expires 30d', 'gwctl admin key list --user <name>'],
  },
  USER_DISABLED: {
    summary: 'The account that owns the key is disabled: all its keys answer 401.',
    why: 'An operator disabled the account; its keys and web sessions stop working until it is enabled again (nothing is deleted).',
    userRemedy: 'Ask the service operator why the account is disabled and to enable it again; a new key does not help.',
    operatorRemedy: 'Enable the account again if it was disabled by mistake or the reason is settled.',
    commands: [],
    operatorCommands: ['gwctl admin user list', 'gwctl admin user enable <name>'],
  },
  TOKEN_MISSING_IN_SHELL: {
    summary: "The client's token variable is not set in this shell: the client would get 401 (missing authentication).",
    why: 'The client reads its credential from the shell that starts it; without it the request carries no key, on the direct route as through the proxy.',
    userRemedy: 'Supply the credential in the shell that starts the client (this is missing authentication, not a fault of the service).',
    operatorRemedy: 'Nothing on the service: the request carried no key.',
    commands: ['read -rs {token_var} && export {token_var}', 'gwctl start'],
    operatorCommands: [],
  },
  AUTH_FORBIDDEN: {
    summary: 'The service answered 403: the credential does not match the upstream or lacks permission.',
    why: 'The credential was recognised but is not allowed here: a key sent to another upstream than the one that issued it, or a key without permission for this request.',
    userRemedy:
      'Check that the credential matches where the request goes: a key of this service works only against {base_url} (directly, or through a proxy whose CACHE_FIX_PROXY_UPSTREAM is {base_url}); a vendor key only against the vendor. If it matches, the key lacks permission for this model or account: ask the service operator.',
    operatorRemedy: "Read the refused request to see which rule refused it, and change the key's or the account's limits if the user should be allowed.",
    commands: ['gwctl verify', 'gwctl diagnose --status 403'],
    operatorCommands: [FIND_REQUEST, 'gwctl admin key list --user <name>'],
  },
  UPSTREAM_AUTH: {
    summary: "An upstream provider refused the gateway's own credential: the user's key is fine.",
    why: "The gateway calls its providers with the operator's credential for each provider; when that one is wrong, expired or revoked, every request routed to that provider fails, whatever the user's key.",
    userRemedy: 'Nothing is wrong with your key: report the time and the request-id of the answer to the service operator, or use another model the service lists until it is fixed.',
    operatorRemedy: "Fix the provider's credential: put a valid key in the provider's key variable named in the providers file, then restart the gateway.",
    commands: ['gwctl verify   # lists the models this key may use', 'gwctl config set client.model <model id>'],
    operatorCommands: [FIND_REQUEST, 'gwctl serve --config <providers file>   # after fixing the key variable it names'],
  },
} as const satisfies Record<string, CauseText>;
