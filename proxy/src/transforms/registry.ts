import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { BuiltinExtension, Extension, ExtensionServices, RouteName } from './types.ts';
import { errorMessage } from '../errors.ts';
import { readExtensionSettings } from './extension-config.ts';
import { loadFileExtensions, type LoadFailure } from './file-extension-loader.ts';

export const DEGRADED_HINT =
  'restart the proxy through its supervisor (systemctl --user restart cache-fix-proxy, or launchctl kickstart -k) ' +
  'after fixing the file; a running process cannot reliably re-import a module, and until then clients should ' +
  'start against the upstream directly';

export type HealthBody =
  | { status: 'ok' }
  | { status: 'degraded'; failed_extensions: LoadFailure[]; hint: string };

export interface RegistryOptions {
  builtins: readonly BuiltinExtension[];
  extensionsDir: string;
  configPath: string;
  services: ExtensionServices;
}

const RELOAD_DEBOUNCE_MS = 100;

/**
 * Holds the enabled extensions in order. A load builds a complete new chain and swaps it in, so a
 * request that started earlier keeps the chain it began with.
 */
export class ExtensionRegistry {
  private byRoute = new Map<RouteName, readonly Extension[]>();
  private loaded: readonly Extension[] = [];
  private failed: LoadFailure[] = [];
  private generation = 0;
  private watchers: FSWatcher[] = [];
  private reloadTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RegistryOptions) {}

  async load(): Promise<void> {
    const { services } = this.options;
    this.generation += 1;
    const settings = readExtensionSettings(this.options.configPath, services.warn);
    const failures: LoadFailure[] = [];
    const candidates: Extension[] = [];
    for (const builtin of this.options.builtins) {
      try {
        const made = builtin.create(services);
        candidates.push({
          ...made,
          routes: made.routes ?? ['messages'],
          name: builtin.name,
          order: builtin.order,
          enabled: made.enabled ?? true,
          file: `builtin:${builtin.name}`,
          builtin: true,
        });
      } catch (error) {
        failures.push({ file: `builtin:${builtin.name}`, error: errorMessage(error), lastAttempt: services.now().toISOString() });
      }
    }
    const fromFiles = await loadFileExtensions(this.options.extensionsDir, this.generation, services.now);
    failures.push(...fromFiles.failures);
    for (const ext of fromFiles.extensions) {
      // A file extension with a built-in's name replaces it, which is how users patch one.
      const index = candidates.findIndex((c) => c.name === ext.name);
      if (index >= 0) candidates.splice(index, 1);
      candidates.push(ext);
    }
    const chain = candidates
      .map((ext) => {
        const setting = settings.get(ext.name);
        return { ...ext, enabled: setting?.enabled ?? ext.enabled, order: setting?.order ?? ext.order };
      })
      .filter((ext) => ext.enabled)
      // Array.prototype.sort is stable, so equal orders keep built-in-then-file order.
      .sort((a, b) => a.order - b.order);
    for (const failure of failures) {
      services.warn(`[CRITICAL] extension load failed: ${failure.file}: ${failure.error} — ${DEGRADED_HINT}`);
    }
    const previous = this.loaded;
    this.loaded = chain;
    this.byRoute = new Map((['messages', 'bootstrap'] as const).map((route) => [route, chain.filter((e) => e.routes.includes(route))]));
    this.failed = failures;
    // Requests already running keep their snapshot; pending work of the old chain is finished.
    void closeAll(previous, services.warn);
  }

  forRoute(route: RouteName): readonly Extension[] {
    return this.byRoute.get(route) ?? [];
  }

  get extensions(): readonly Extension[] {
    return this.loaded;
  }

  get failures(): readonly LoadFailure[] {
    return this.failed;
  }

  health(): HealthBody {
    if (this.failed.length === 0) return { status: 'ok' };
    return { status: 'degraded', failed_extensions: [...this.failed], hint: DEGRADED_HINT };
  }

  /** Opt-in (CACHE_FIX_HOT_RELOAD=on): reload on changes to extension files or extensions.json. */
  watch(): void {
    const schedule = (): void => {
      clearTimeout(this.reloadTimer);
      this.reloadTimer = setTimeout(() => {
        this.load().catch((error: unknown) => this.options.services.warn(`[extensions] reload failed: ${errorMessage(error)}`));
      }, RELOAD_DEBOUNCE_MS);
    };
    const configName = basename(this.options.configPath);
    const targets: Array<[string, (name: string | null) => boolean]> = [
      [this.options.extensionsDir, (name) => name === null || name.endsWith('.mjs')],
      [dirname(this.options.configPath), (name) => name === null || name === configName],
    ];
    for (const [dir, relevant] of targets) {
      try {
        const watcher = watch(dir, (_event, name) => {
          if (relevant(name === null ? null : String(name))) schedule();
        });
        watcher.on('error', () => watcher.close());
        this.watchers.push(watcher);
      } catch {
        // A directory that does not exist cannot change; nothing to watch.
      }
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.reloadTimer);
    for (const watcher of this.watchers) watcher.close();
    this.watchers = [];
    await closeAll(this.loaded, this.options.services.warn);
  }
}

async function closeAll(chain: readonly Extension[], warn: (line: string) => void): Promise<void> {
  await Promise.all(
    chain.map(async (ext) => {
      try {
        await ext.close?.();
      } catch (error) {
        warn(`[pipeline] ${ext.name}.close error: ${errorMessage(error)}`);
      }
    }),
  );
}
