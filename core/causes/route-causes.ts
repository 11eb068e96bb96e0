// Causes on the way from the client to the service: the local proxy, its upstream, the client's
// base address and settings, the client program and where it runs.
import type { CauseText } from './cause-text.ts';

const LATER = 'from a terminal outside any client session that uses the proxy';

export const ROUTE_CAUSES = {
  PROXY_DOWN: {
    summary: 'The local proxy does not answer its /health endpoint.',
    why: 'The proxy is not running (never started, crashed, or its service is not enabled), or something else listens on its port.',
    userRemedy: 'Start the proxy and confirm /health is 200 before routing a client through it; until then `gwctl start` starts the client directly.',
    operatorRemedy: 'Nothing on the service: the proxy runs on the user\'s machine.',
    commands: ['systemctl --user restart cache-fix-proxy   # or: cache-fix-proxy server', 'curl -s {proxy_url}/health', 'gwctl start'],
    operatorCommands: [],
  },
  PROXY_DEGRADED: {
    summary: 'The local proxy answers /health with 503 degraded: an extension failed to load.',
    why: 'An extension of the proxy failed to load, so the request-transform chain is incomplete and must not be used.',
    userRemedy: `Restart the proxy and check its log; if it stays degraded, start clients directly (gwctl start does so by itself). Do it ${LATER}.`,
    operatorRemedy: "Nothing on the service: the proxy runs on the user's machine.",
    commands: [
      'systemctl --user restart cache-fix-proxy   # macOS: launchctl kickstart -k gui/$(id -u)/com.cnighswonger.cache-fix-proxy',
      'journalctl --user -u cache-fix-proxy -n 50',
      'curl -s {proxy_url}/health',
      'gwctl start',
    ],
    operatorCommands: [],
  },
  PROXY_FAULT: {
    summary: 'The request fails through the proxy while the direct route works: the proxy is at fault.',
    why: 'The proxy answers for itself instead of relaying the service: it forwards to an address that does not answer, or it failed on the request.',
    userRemedy: `Start the client directly meanwhile (\`gwctl start\` does when the proxy is not healthy). Then, ${LATER}, check the address the proxy forwards to (CACHE_FIX_PROXY_UPSTREAM must be {base_url}) and its log, and restart it.`,
    operatorRemedy: "Nothing on the service: the request never reached it.",
    commands: ['export CACHE_FIX_PROXY_UPSTREAM={base_url}', 'cache-fix-proxy install-service --force', 'gwctl diagnose --status 502'],
    operatorCommands: [],
  },
  PROXY_UPSTREAM_DEFAULT: {
    summary: "The proxy's upstream is left at its default, so this service's key goes elsewhere (the classic 401).",
    why: "Without CACHE_FIX_PROXY_UPSTREAM the proxy forwards to the official vendor, which does not know this service's keys: requests bypass the service and answer 401 or reach a wrong account. A service definition made in a shell without the variable captures the default.",
    userRemedy: `For this service's keys, set CACHE_FIX_PROXY_UPSTREAM to {base_url} where the proxy runs (the step must not be omitted), regenerate the service definition, and restart the proxy ${LATER}.`,
    operatorRemedy: 'Nothing on the service: its keys never reach it. The refused requests are not in its request log.',
    commands: ['export CACHE_FIX_PROXY_UPSTREAM={base_url}', 'cache-fix-proxy install-service --force', 'gwctl diagnose --status 401'],
    operatorCommands: [],
  },
  PROXY_UPSTREAM_MISMATCH: {
    summary: "The proxy's upstream does not match the authentication path in use.",
    why: "The proxy forwards to another address than the one that issued the credential: another host or gateway instance, a chat-completions /v1 address, the proxy itself, or this service while the credential is a vendor key.",
    userRemedy: `Point the proxy's upstream at the address that issued the credential ({base_url} for this service's keys, the default for a vendor key or a subscription login), and restart the proxy ${LATER}.`,
    operatorRemedy: 'If the user reaches another instance of the service, tell them the public address; keys are valid only where they were created.',
    commands: ['export CACHE_FIX_PROXY_UPSTREAM={base_url}', 'cache-fix-proxy install-service --force', 'gwctl diagnose'],
    operatorCommands: [],
  },
  BASE_URL_NOT_PROXY: {
    summary: "The client's base-address variable is not the proxy address although the proxy route is meant.",
    why: 'The client was started by hand, or a settings file or startup file sets another base address.',
    userRemedy: 'Start the client with `gwctl start`: it sets {base_var} to the proxy when it is healthy, otherwise to {base_url}, for that session only.',
    operatorRemedy: 'Nothing on the service.',
    commands: ['gwctl start   # sets it for that session only', 'gwctl start --dry-run   # shows the address it would use'],
    operatorCommands: [],
  },
  BASE_URL_PINNED_IN_SETTINGS: {
    summary: 'A base address or credential is pinned in a client settings file or shell startup file.',
    why: "A settings file's env block wins over the shell, and a pinned proxy address strands the client when the proxy is down.",
    userRemedy: '`gwctl start` backs each file up (timestamped) and removes only these entries; `gwctl start --restore` puts the backups back.',
    operatorRemedy: 'Nothing on the service.',
    commands: ['gwctl start --dry-run   # lists what would change', 'gwctl start', 'gwctl start --restore   # undo'],
    operatorCommands: [],
  },
  CLIENT_NOT_FOUND: {
    summary: 'The client command is not found on PATH (not installed, or installed elsewhere).',
    why: 'The client is not installed for this user, or it is installed where this shell does not look.',
    userRemedy: 'Install the client, or name where it is (a path) for gwctl start.',
    operatorRemedy: 'Nothing on the service.',
    commands: ['gwctl config set client.command /path/to/client', 'gwctl start --dry-run'],
    operatorCommands: [],
  },
  EXECUTION_PLANE_MISMATCH: {
    summary: 'Client and proxy do not run in the same environment (WSL with a Windows client).',
    why: 'A Windows program started from WSL reads neither the WSL variables nor reaches the WSL proxy.',
    userRemedy: 'Run client, runtime, variables and proxy in the same WSL environment: install a WSL-native client, or drop the proxy route and start directly.',
    operatorRemedy: 'Nothing on the service.',
    commands: ['gwctl start   # goes direct while the client is a Windows program'],
    operatorCommands: [],
  },
} as const satisfies Record<string, CauseText>;
