// How the local proxy is run on this machine: by a service definition (systemd/launchd) or by hand.
import type { DiagnoseContext } from './diagnose-context.ts';
import type { ProxyInstall } from './proxy-commands.ts';

export function proxyInstall(ctx: DiagnoseContext): ProxyInstall {
  return ctx.upstream().kind ?? 'foreground';
}
