import { claudeCodeFingerprint } from '../../../proxy/src/transforms/fingerprint-strip.ts';

export type Body = Record<string, any>;

export interface LongSessionOptions {
  turns?: number;
  toolResultBytes?: number;
  /** Resumed sessions carry the identity noise identity-normalization removes. */
  resumed?: boolean;
  /** Rotates the tool list, as a client does when an MCP server connects later. */
  toolRotation?: number;
  sessionId?: string;
}

const TOOL_NAMES = [
  'Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep', 'TodoWrite', 'WebFetch', 'WebSearch', 'Task',
  'NotebookEdit', 'ExitPlanMode', 'BashOutput', 'KillShell', 'SlashCommand', 'Skill',
  'mcp__github__create_issue', 'mcp__github__list_pulls', 'mcp__github__get_file', 'mcp__fs__read_file',
  'mcp__fs__write_file', 'mcp__fs__list_dir', 'mcp__db__query', 'mcp__db__schema', 'mcp__browser__open',
];

function tool(name: string): Body {
  return {
    name,
    description: `${name} tool. `.repeat(12),
    input_schema: {
      type: 'object',
      properties: { command: { type: 'string', description: 'what to run' }, description: { type: 'string' } },
      required: ['command'],
    },
  };
}

function filler(bytes: number, seed: number): string {
  const line = `src/module_${seed}/file.ts:${seed} export function handler${seed}(input: string): string { return input.trim(); } // ünïcödé ✓\n`;
  return line.repeat(Math.max(1, Math.ceil(bytes / Buffer.byteLength(line)))).slice(0, bytes);
}

/**
 * A Claude-Code-shaped long session: billing header, cached system prompt, 25 tools (MCP ones
 * included), reminders in the first message, then tool-loop turns with thinking blocks (some
 * empty, one redacted), tool results, stale cache markers, and a last turn still in its tool loop.
 */
export function longSessionBody(options: LongSessionOptions = {}): Body {
  const turns = options.turns ?? 6;
  const resultBytes = options.toolResultBytes ?? 600;
  const resumed = options.resumed ?? false;
  const rotation = options.toolRotation ?? 7;
  const sessionId = options.sessionId ?? '2b1c7a8e-4f1e-4c55-9a0e-1f2a3b4c5d6e';
  const names = [...TOOL_NAMES.slice(rotation), ...TOOL_NAMES.slice(0, rotation)];

  const skills = '<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n- review: Review a pull request\n- deploy: Deploy the service\n- analyze: Analyze logs\n</system-reminder>';
  const hook = resumed
    ? '<system-reminder>\nSessionStart:resume hook success: project loaded\n<session-id>' + sessionId + '</session-id>\nLast active: 2026-11-20T10:00:00Z\n</system-reminder>'
    : '<system-reminder>\nSessionStart:startup hook success: project loaded\n</system-reminder>';
  const firstMessage = [
    { type: 'text', text: skills },
    { type: 'text', text: hook },
    { type: 'text', text: 'Please refactor the parser in src/parse.ts so that it streams its input.' },
  ];
  const messages: Body[] = [{ role: 'user', content: firstMessage }];
  for (let i = 0; i < turns; i += 1) {
    const last = i === turns - 1;
    const thinking = i % 3 === 0 || last ? '' : `Step ${i}: I should inspect the module before editing it.`;
    const assistant: Body[] = [
      { type: 'thinking', thinking, signature: `sig_${i}_${'A'.repeat(40)}` },
      { type: 'text', text: `Running step ${i}.` },
      { type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `ls -la src/module_${i}`, description: 'List files' } },
    ];
    if (i === 1) assistant.unshift({ type: 'redacted_thinking', data: 'ENCRYPTED_REDACTED_THINKING_PAYLOAD' });
    messages.push({ role: 'assistant', content: assistant });
    const result: Body = { type: 'tool_result', tool_use_id: `toolu_${i}`, content: filler(resultBytes, i) };
    if (i === turns - 3) result.cache_control = { type: 'ephemeral' };
    const user: Body[] = [result];
    if (i === turns - 2) user.push({ type: 'text', text: 'Looks good, keep going.', cache_control: { type: 'ephemeral' } });
    messages.push({ role: 'user', content: user });
  }
  const realText = firstMessage[2].text;
  const fingerprint = claudeCodeFingerprint(resumed ? skills : realText, '2.1.150');
  return {
    model: 'claude-opus-4-8',
    max_tokens: 64000,
    stream: true,
    thinking: { type: 'enabled', budget_tokens: 16000 },
    metadata: { user_id: `user_0123abcd_account_9f8e7d6c_session_${sessionId}` },
    system: [
      { type: 'text', text: `x-anthropic-billing-header: cc_version=2.1.150.${fingerprint}; cc_entrypoint=cli;` },
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral' } },
      {
        type: 'text',
        text: `You are an interactive CLI tool that helps users with software engineering tasks.\n${'Follow the repository conventions. '.repeat(40)}\n${
          resumed ? '<session_knowledge id="k1">The user prefers tabs.</session_knowledge>\n' : ''
        }Environment: Primary working directory: /home/user/project`,
        cache_control: { type: 'ephemeral' },
      },
    ],
    tools: names.map(tool),
    messages,
  };
}

export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
