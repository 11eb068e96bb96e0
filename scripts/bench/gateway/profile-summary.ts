// Summarises a V8 .cpuprofile (node --cpu-prof) as text: busy time by package or project file,
// the functions with the most self time, and the project functions with the most inclusive time.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

function where(url: string, root: string): { group: string; file: string } {
  if (!url) return { group: '(native / V8)', file: '' };
  if (url.startsWith('node:')) {
    const file = url.slice('node:'.length);
    return { group: `node:${file.replace(/^internal\//, '').split('/')[0].replace(/\.js$/, '')}`, file: url };
  }
  let path = url;
  try {
    if (url.startsWith('file:')) path = fileURLToPath(url);
  } catch {
    // keep the url
  }
  const pkg = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return { group: pkg[1], file: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length) };
  const rel = relative(root, path);
  return { group: rel.startsWith('..') ? path : rel, file: rel.startsWith('..') ? path : rel };
}

function table(title: string, rows: [string, number][], total: number, limit: number): string {
  const lines = rows
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, us]) => `  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
  return [title, ...lines].join('\n');
}

export interface SummaryOptions {
  /** Only samples taken this long after the profile started, ms. */
  fromMs?: number;
  /** Only samples taken before this, ms after the profile started. */
  toMs?: number;
  limit?: number;
}

export function summarizeProfile(profile: CpuProfile, root: string, options: SummaryOptions = {}): string {
  const { fromMs = 0, toMs = Number.POSITIVE_INFINITY, limit = 25 } = options;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) => {
    const { file } = where(n.callFrame.url, root);
    const name = n.callFrame.functionName || '(anonymous)';
    // tsx-compiled project files are one line long: a line number says nothing there.
    return file ? `${name}  ${file}${n.callFrame.lineNumber > 0 ? `:${n.callFrame.lineNumber + 1}` : ''}` : name;
  };

  const selfByGroup = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const inclusiveProject = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < fromMs * 1000 || at > toMs * 1000) continue;
    const us = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    total += us;
    const fn = node.callFrame.functionName;
    if (fn === '(idle)') {
      idle += us;
      continue;
    }
    const group = SPECIAL.has(fn) ? fn : where(node.callFrame.url, root).group;
    selfByGroup.set(group, (selfByGroup.get(group) ?? 0) + us);
    const self = label(node);
    selfByFunction.set(self, (selfByFunction.get(self) ?? 0) + us);
    // Inclusive time of project functions (server/, core/, cli/): once per sample per function.
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!;
      const { file } = where(frame.callFrame.url, root);
      if (!/^(server|core|cli)\//.test(file)) continue;
      const key = label(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusiveProject.set(key, (inclusiveProject.get(key) ?? 0) + us);
    }
  }
  const busy = total - idle;
  return [
    `Busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled (${(fromMs / 1000).toFixed(1)}-${Number.isFinite(toMs) ? (toMs / 1000).toFixed(1) : 'end'} s after start); percentages are of busy time.`,
    '',
    table('Self time by package / project file:', [...selfByGroup], busy, limit),
    '',
    table('Self time by function:', [...selfByFunction], busy, limit),
    '',
    table('Inclusive time of project functions:', [...inclusiveProject], busy, limit),
  ].join('\n');
}
