// Model aliases: a public name (exact, or a glob with `*`) that a served model answers to, so a
// client asking for its own default name (Gemini CLI's gemini-3.x, Claude Code's claude-opus-…) is
// served without configuring it by hand. Exact names are looked up first, then globs in file order.

export interface ModelAlias {
  /** An exact public name, or a glob where `*` matches any run of characters. */
  name: string;
  /** The served model that answers. */
  model: string;
}

function globPattern(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export class AliasTable {
  private readonly exact = new Map<string, string>();
  private readonly globs: Array<{ pattern: RegExp; model: string }> = [];

  constructor(aliases: readonly ModelAlias[] = []) {
    for (const alias of aliases) {
      if (alias.name.includes('*')) this.globs.push({ pattern: globPattern(alias.name), model: alias.model });
      else if (!this.exact.has(alias.name)) this.exact.set(alias.name, alias.model);
    }
  }

  /** The served model a name is an alias of, if it is one. */
  target(name: string): string | undefined {
    return this.exact.get(name) ?? this.globs.find((g) => g.pattern.test(name))?.model;
  }

  /** Exact aliases and their targets (globs name no model a list could show). */
  exactNames(): Array<[string, string]> {
    return [...this.exact.entries()];
  }
}

/**
 * The embedded default (demo provider only) answers the default model names of the Gemini CLI and
 * of Claude Code (claude-opus-…, with or without a [1m] suffix) with the demo model, so `gemini -p`
 * and `claude -p` work against a fresh gateway with nothing configured, even without a model set.
 */
export const EMBEDDED_ALIASES: readonly ModelAlias[] = [
  { name: 'gemini-*', model: 'demo-chat' },
  { name: 'claude-*', model: 'demo-chat' },
];
