// Runnable commands to restart or reconfigure the local proxy, for the way it is installed.
// Remedies say to run them outside any client session using the proxy.

export type ProxyInstall = 'systemd' | 'launchd' | 'foreground';

const PLIST = '~/Library/LaunchAgents/com.cnighswonger.cache-fix-proxy.plist';

export const proxyCommands = {
  restart(install: ProxyInstall, baseUrl: string): string[] {
    if (install === 'systemd') return ['systemctl --user restart cache-fix-proxy', 'journalctl --user -u cache-fix-proxy -n 50 --no-pager'];
    if (install === 'launchd') return ['launchctl kickstart -k gui/$(id -u)/com.cnighswonger.cache-fix-proxy', 'tail -n 50 ~/Library/Logs/cache-fix-proxy.err'];
    return [`CACHE_FIX_PROXY_UPSTREAM=${baseUrl} cache-fix-proxy server   # in its own terminal`];
  },
  setUpstream(install: ProxyInstall, upstream: string): string[] {
    const head = [`export CACHE_FIX_PROXY_UPSTREAM=${upstream}`];
    if (install === 'systemd') return [...head, 'cache-fix-proxy install-service --force', 'systemctl --user daemon-reload && systemctl --user restart cache-fix-proxy'];
    if (install === 'launchd') return [...head, 'cache-fix-proxy install-service --force', `launchctl bootout gui/$(id -u) ${PLIST}; launchctl bootstrap gui/$(id -u) ${PLIST}`];
    return [...head, 'cache-fix-proxy server   # restart it in its own terminal'];
  },
  unsetUpstream(install: ProxyInstall): string[] {
    const head = ['unset CACHE_FIX_PROXY_UPSTREAM'];
    if (install === 'systemd') return [...head, 'cache-fix-proxy install-service --force', 'systemctl --user daemon-reload && systemctl --user restart cache-fix-proxy'];
    if (install === 'launchd') return [...head, 'cache-fix-proxy install-service --force', `launchctl bootout gui/$(id -u) ${PLIST}; launchctl bootstrap gui/$(id -u) ${PLIST}`];
    return [...head, 'cache-fix-proxy server   # restart it in its own terminal'];
  },
};
