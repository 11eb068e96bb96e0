// Real-shaped traffic for the round-trip property tests (test/server/protocols/round-trip.test.ts):
// requests as Claude Code, Codex/OpenCode and the Gemini CLI send them (system prompts, tool
// declarations, tool round trips, thinking with signatures, images), and Gemini answers and stream
// chunks as the Gemini API sends them. Identifiers and signatures are made up.
type Json = Record<string, any>;

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const CLAUDE_SIG = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds9dwX6tVlk6eJTEpPcYH+3DQmuKdvX6SVbZ6Yl9ieX0=';
const GEMINI_SIG = 'CiQBcsjafFcBTpWmQYu2hYrPv1gMQ0Fx5kWqUj3nbr9QbMzHh0sKXwFyyNp8+ggN/Hx5Fm0a0Bq7Yk2vC8QmDw==';

const bashTool = { name: 'Bash', description: 'Executes a given bash command in a persistent shell session.', input_schema: { type: 'object', properties: { command: { type: 'string', description: 'The command to execute' }, timeout: { type: 'number' } }, required: ['command'], additionalProperties: false, $schema: 'http://json-schema.org/draft-07/schema#' } };
const readTool = { name: 'Read', description: 'Reads a file from the local filesystem.', input_schema: { type: 'object', properties: { file_path: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } }, required: ['file_path'] } };

export const MESSAGES_REQUESTS: Array<[string, Json]> = [
  [
    'Claude Code: system blocks with cache markers, tools, a tool round trip with thinking and its signature',
    {
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 32000,
      stream: true,
      system: [
        { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Working directory: /home/dev/project\nIs directory a git repo: Yes', cache_control: { type: 'ephemeral' } },
      ],
      tools: [bashTool, readTool],
      tool_choice: { type: 'auto' },
      thinking: { type: 'enabled', budget_tokens: 31999 },
      metadata: { user_id: 'user_3f2a_account__session_9c1e' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: '<system-reminder>As you answer, use the tools.</system-reminder>' }, { type: 'text', text: 'run the tests — and tell me what fails', cache_control: { type: 'ephemeral' } }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'The user wants the tests run. npm test it is.', signature: CLAUDE_SIG },
            { type: 'text', text: "I'll run the test suite." },
            { type: 'tool_use', id: 'toolu_01QmF3o9vGbyZ8dWkF1tHq2s', name: 'Bash', input: { command: 'npm test', timeout: 120000 } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01QmF3o9vGbyZ8dWkF1tHq2s', content: 'FAIL test/a.test.ts\n  ✗ adds numbers (3 ms)', is_error: true }] },
      ],
    },
  ],
  [
    'an image and a PDF, a tool result with an image, temperature and stop sequences',
    {
      model: 'claude-opus-4-1',
      max_tokens: 1024,
      temperature: 0.7,
      top_k: 40,
      stop_sequences: ['\n\nHuman:'],
      messages: [
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } }, { type: 'text', text: 'What is in these?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01Shot', name: 'screenshot', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01Shot', content: [{ type: 'text', text: 'captured' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] }] },
      ],
    },
  ],
];

export const CHAT_REQUESTS: Array<[string, Json]> = [
  [
    'OpenCode: system, tools, parallel tool calls and their results, stream with usage',
    {
      model: 'gpt-5',
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 8192,
      messages: [
        { role: 'system', content: 'You are opencode, an interactive CLI tool that helps users with software engineering tasks.' },
        { role: 'user', content: 'What files are here, and what is in package.json?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_Xk2m9QpL4tR7vW1zB3nC8dE5', type: 'function', function: { name: 'list', arguments: '{"path":"."}' } },
            { id: 'call_Ab3c4D5e6F7g8H9i0J1k2L3m', type: 'function', function: { name: 'read', arguments: '{"filePath":"package.json"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_Xk2m9QpL4tR7vW1zB3nC8dE5', content: 'package.json\nsrc/\nREADME.md' },
        { role: 'tool', tool_call_id: 'call_Ab3c4D5e6F7g8H9i0J1k2L3m', content: '{"name":"demo","version":"1.0.0"}' },
      ],
      tools: [
        { type: 'function', function: { name: 'list', description: 'List files', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } },
        { type: 'function', function: { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { filePath: { type: 'string' } }, required: ['filePath'] } } },
      ],
      tool_choice: 'auto',
      temperature: 0.2,
    },
  ],
  [
    'an image as a data URL, a stop string, reasoning effort, a caller id',
    {
      model: 'gpt-5',
      messages: [
        { role: 'developer', content: 'Answer in one line.' },
        { role: 'user', content: [{ type: 'text', text: 'Describe this 🙂' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] },
      ],
      stop: ['END'],
      reasoning_effort: 'low',
      user: 'user-1234',
      max_tokens: 300,
    },
  ],
];

const geminiTools = [
  {
    functionDeclarations: [
      { name: 'list_directory', description: 'Lists the names of files and subdirectories directly within a specified directory path.', parametersJsonSchema: { type: 'object', properties: { dir_path: { type: 'string', description: 'The path to the directory to list' } }, required: ['dir_path'] } },
      { name: 'read_file', description: 'Reads and returns the content of a specified file.', parametersJsonSchema: { type: 'object', properties: { file_path: { type: 'string' }, offset: { type: 'number' } }, required: ['file_path'] } },
    ],
  },
];

export const GEMINI_REQUESTS: Array<[string, Json]> = [
  [
    'Gemini CLI: system instruction, tools, a signed call and its response, thinking config',
    {
      contents: [
        { role: 'user', parts: [{ text: 'This is the Gemini CLI. We are setting up the context for our chat.\nToday is Friday.' }, { text: 'list the files here' }] },
        { role: 'model', parts: [{ functionCall: { id: 'list_directory-1764201000000-0', name: 'list_directory', args: { dir_path: '/home/dev/work' } }, thoughtSignature: GEMINI_SIG }] },
        { role: 'user', parts: [{ functionResponse: { id: 'list_directory-1764201000000-0', name: 'list_directory', response: { output: 'Directory listing for /home/dev/work:\nmarker-file.txt' } } }] },
      ],
      systemInstruction: { role: 'user', parts: [{ text: 'You are an interactive CLI agent specializing in software engineering tasks.' }] },
      tools: geminiTools,
      generationConfig: { temperature: 0, topP: 1, thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 } },
    },
  ],
  [
    'genai SDK: parallel calls without ids answered by name, an image, forced calling, OpenAPI parameters',
    {
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Oslo and Rome? Here is a map.' }, { inlineData: { mimeType: 'image/png', data: PNG } }] },
        { role: 'model', parts: [{ text: 'Checking both.' }, { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: GEMINI_SIG }, { functionCall: { name: 'get_weather', args: { city: 'Rome' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 7 } } }, { functionResponse: { name: 'get_weather', response: { temp: 21 } } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Current weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
      generationConfig: { maxOutputTokens: 512, stopSequences: ['STOP!'], thinkingConfig: { thinkingBudget: 0 } },
    },
  ],
  [
    'structured output with a JSON schema (the CLI\'s model router)',
    {
      contents: [{ role: 'user', parts: [{ text: 'Classify: "fix the failing test"' }] }],
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: { type: 'object', properties: { reasoning: { type: 'string' }, model_choice: { type: 'string', enum: ['flash', 'pro'] } }, required: ['reasoning', 'model_choice'] }, thinkingConfig: { thinkingLevel: 'LOW' } },
    },
  ],
];

const usage = (prompt: number, candidates: number, extra: Json = {}) => ({ promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + candidates + (extra.thoughtsTokenCount ?? 0), ...extra });
const candidate = (parts: Json[], finishReason?: string) => ({ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 });

export const GEMINI_ANSWERS: Array<[string, Json]> = [
  ['text with cached tokens', { candidates: [candidate([{ text: 'Grüße aus Zürich ✓ — 東京 🙂' }], 'STOP')], usageMetadata: usage(120, 9, { cachedContentTokenCount: 100 }), modelVersion: 'gemini-2.5-flash', responseId: 'resp-a1' }],
  [
    'a thought, text and a signed call',
    { candidates: [candidate([{ text: 'I need the listing.', thought: true }, { text: 'Let me look.' }, { functionCall: { id: 'fc-1', name: 'list_directory', args: { dir_path: '.' } }, thoughtSignature: GEMINI_SIG }], 'STOP')], usageMetadata: usage(800, 20, { thoughtsTokenCount: 33 }), modelVersion: 'gemini-3-pro-preview', responseId: 'resp-a2' },
  ],
  ['cut at the token limit', { candidates: [candidate([{ text: 'The answer is' }], 'MAX_TOKENS')], usageMetadata: usage(10, 4), modelVersion: 'gemini-2.5-flash', responseId: 'resp-a3' }],
];

const chunk = (parts: Json[], finishReason?: string, usageMetadata: Json = { promptTokenCount: 500, totalTokenCount: 500 }) => ({ candidates: [candidate(parts, finishReason)], usageMetadata, modelVersion: 'gemini-2.5-pro', responseId: 'stream-1' });

export const GEMINI_STREAMS: Array<[string, Json[]]> = [
  ['text over chunks, multi-byte characters', [chunk([{ text: 'Grüße aus ' }]), chunk([{ text: 'Zürich ✓ — 東京' }]), chunk([{ text: ' 🙂' }], 'STOP', usage(500, 12, { cachedContentTokenCount: 300 }))]],
  [
    'thoughts with their signature, text, a signed function call (Gemini CLI tool turn)',
    [
      chunk([{ text: '**Listing the directory**\n\nI will ', thought: true }]),
      chunk([{ text: 'list it.', thought: true, thoughtSignature: GEMINI_SIG }]),
      chunk([{ text: 'Listing now.' }]),
      chunk([{ functionCall: { name: 'list_directory', args: { dir_path: '/home/dev/work' } }, thoughtSignature: GEMINI_SIG }]),
      chunk([{ functionCall: { name: 'read_file', args: { file_path: 'README.md' } } }], 'STOP', usage(500, 30, { thoughtsTokenCount: 64 })),
    ],
  ],
  ['cut before the finish', [chunk([{ text: 'partial ' }]), chunk([{ text: 'answer' }])]],
  ['an error mid-stream', [chunk([{ text: 'start' }]), { error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } }]],
];
