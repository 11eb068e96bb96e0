// Rule 5: never upgrade, kill or restart the proxy from inside a client session that talks through
// its port. A session shows in the environment of everything it runs: its base-address variable
// points at the proxy. Any *BASE_URL variable on loopback with the proxy's port counts, so clients
// whose variable is not the configured one are caught too.

export interface SessionFinding {
  inSession: boolean;
  variable?: string;
  value?: string;
  observed: string;
}

function loopbackPort(value: string): number | undefined {
  try {
    const url = new URL(value.trim());
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!(host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host))) return undefined;
    return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  } catch {
    return undefined;
  }
}

export function proxyPort(proxyUrl: string): number {
  return loopbackPort(proxyUrl) ?? Number(new URL(proxyUrl).port || 80);
}

export function detectClientSession(env: NodeJS.ProcessEnv, baseUrlVar: string, proxyUrl: string): SessionFinding {
  const port = proxyPort(proxyUrl);
  const names = [baseUrlVar, ...Object.keys(env).filter((n) => n !== baseUrlVar && /BASE_URL$/.test(n) && !n.startsWith('GWCTL_')).sort()];
  for (const name of names) {
    const value = env[name];
    if (!value) continue;
    if (loopbackPort(value) === port) {
      return {
        inSession: true,
        variable: name,
        value,
        observed: `${name}=${value} in this environment: this looks like a shell inside a client session that talks through the proxy port ${port}`,
      };
    }
  }
  return { inSession: false, observed: `no base-address variable points at the proxy port ${port}` };
}

/** The refusal inside a client session, for every action that would upgrade, restart or stop the proxy. */
export function sessionRefusal(finding: SessionFinding, what: string, command: string): { message: string; remedy: string; commands: string[] } {
  return {
    message: `Refusing to ${what}: ${finding.observed}. Restarting or replacing the proxy would cut off the session's own requests mid-conversation.`,
    remedy: 'Run it from an external terminal that is not inside a client session (a new terminal window or tab, or an ssh login). If this shell is not a client session, clear the variable for this one command.',
    commands: [`${command}   # in an external terminal`, `env -u ${finding.variable} ${command}   # only if this shell is not a client session`],
  };
}
