// gwctl's own settings file (conf): owner-only (file 0600, directory 0700); never created by a read.
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type Conf from 'conf';
import { defaultConfigDir } from '../paths.ts';
import { SettingError } from './setting-error.ts';

let confClass: typeof Conf | undefined;
function loadConf(): typeof Conf {
  confClass ??= (createRequire(import.meta.url)('conf') as { default: typeof Conf }).default;
  return confClass;
}

export class SettingsFile {
  readonly dir: string;
  readonly path: string;

  constructor(env: NodeJS.ProcessEnv) {
    this.dir = defaultConfigDir(env);
    this.path = join(this.dir, 'config.json');
  }

  exists(): boolean {
    return existsSync(this.path);
  }

  private open(): Conf<Record<string, unknown>> {
    try {
      // Loaded on first use: conf installs process exit hooks, which long-running commands
      // that never touch settings (gwctl serve) should not carry.
      const ConfClass = loadConf();
      return new ConfClass<Record<string, unknown>>({ projectName: 'gwctl', cwd: this.dir, configFileMode: 0o600 });
    } catch (error) {
      throw new SettingError(`Cannot read ${this.path}: ${(error as Error).message}`, `Fix or move the file; gwctl never overwrites it. \`gwctl config path\` shows where it is.`);
    }
  }

  /** The value stored for a dotted key, or undefined (also when there is no file). */
  get(key: string): unknown {
    if (!this.exists()) return undefined;
    return this.open().get(key);
  }

  set(key: string, value: unknown): void {
    this.prepare();
    this.open().set(key, value);
    chmodSync(this.path, 0o600);
  }

  unset(key: string): void {
    if (!this.exists()) return;
    this.prepare();
    const conf = this.open();
    conf.delete(key);
    // Drop an emptied group ("client": {}) so the file stays tidy.
    const group = key.includes('.') ? key.slice(0, key.indexOf('.')) : undefined;
    const rest = group ? conf.get(group) : undefined;
    if (group && rest && typeof rest === 'object' && Object.keys(rest).length === 0) conf.delete(group);
    chmodSync(this.path, 0o600);
  }

  private prepare(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
  }
}
