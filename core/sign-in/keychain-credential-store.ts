// Sign-ins in the OS keychain: libsecret's `secret-tool` (GNOME Keyring, KWallet) on Linux, the
// `security` tool on macOS. The secret goes through standard input (secret-tool) or an argument of
// a process that runs only for the moment (security has no other way), never through a file.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { gatewayKey, isSignInRecord, type CredentialStore, type SignInRecord } from './sign-in-record.ts';

const SERVICE = 'gwctl';

/**
 * Runs the tool; `input` goes to its standard input, which it gets only then. A tool that exits
 * without reading its input (a refusal) breaks the pipe: that is its exit code's business, not a
 * crash of this process.
 */
function run(env: NodeJS.ProcessEnv, command: string, args: string[], input?: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.on('error', () => resolve({ code: 127, stdout: '' }));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
    if (child.stdin) {
      child.stdin.on('error', () => {});
      child.stdin.end(input);
    }
  });
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

export class KeychainCredentialStore implements CredentialStore {
  private constructor(
    private readonly tool: 'secret-tool' | 'security',
    readonly where: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The keychain of this machine when one answers, else undefined. */
  static async detect(env: NodeJS.ProcessEnv, platform = process.platform): Promise<KeychainCredentialStore | undefined> {
    if (platform === 'darwin' && onPath('security', env)) return new KeychainCredentialStore('security', 'the macOS keychain', env);
    if (platform === 'linux' && env.DBUS_SESSION_BUS_ADDRESS && onPath('secret-tool', env)) {
      // A locked or absent secret service fails here rather than at the first write.
      const probe = await run(env, 'secret-tool', ['search', 'service', SERVICE]);
      if (probe.code === 0 || probe.code === 1) return new KeychainCredentialStore('secret-tool', 'the keychain (secret-tool)', env);
    }
    return undefined;
  }

  async read(gateway: string): Promise<SignInRecord | undefined> {
    const account = gatewayKey(gateway);
    const result =
      this.tool === 'secret-tool'
        ? await run(this.env, 'secret-tool', ['lookup', 'service', SERVICE, 'gateway', account])
        : await run(this.env, 'security', ['find-generic-password', '-s', SERVICE, '-a', account, '-w']);
    if (result.code !== 0 || !result.stdout.trim()) return undefined;
    try {
      const record = JSON.parse(result.stdout.trim()) as unknown;
      return isSignInRecord(record) ? record : undefined;
    } catch {
      return undefined;
    }
  }

  async write(record: SignInRecord): Promise<void> {
    const account = gatewayKey(record.gateway);
    const secret = JSON.stringify(record);
    const result =
      this.tool === 'secret-tool'
        ? await run(this.env, 'secret-tool', ['store', '--label', `gwctl sign-in to ${account}`, 'service', SERVICE, 'gateway', account], secret)
        : await new Promise<{ code: number }>((resolve) =>
            execFile('security', ['add-generic-password', '-U', '-s', SERVICE, '-a', account, '-w', secret], { env: this.env }, (error) => resolve({ code: error ? 1 : 0 })),
          );
    if (result.code !== 0) throw new Error(`Could not store the sign-in in ${this.where}. Unlock the keychain, or set GWCTL_CREDENTIAL_STORE=file to keep it in a file only you can read.`);
  }

  async remove(gateway: string): Promise<boolean> {
    const account = gatewayKey(gateway);
    const result =
      this.tool === 'secret-tool'
        ? await run(this.env, 'secret-tool', ['clear', 'service', SERVICE, 'gateway', account])
        : await run(this.env, 'security', ['delete-generic-password', '-s', SERVICE, '-a', account]);
    return result.code === 0;
  }
}
