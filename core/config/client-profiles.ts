// Named client profiles: which variables a coding client reads, which protocol it speaks, where it
// keeps its settings, and which model names it asks for by itself. A profile only supplies defaults;
// every value is also a setting, and a setting given explicitly (file, environment, flag) wins.
import { CLAUDE } from './profiles/claude.ts';
import { CODEX } from './profiles/codex.ts';
import { CUSTOM } from './profiles/custom.ts';
import { GEMINI } from './profiles/gemini.ts';
import { OPENCODE } from './profiles/opencode.ts';
import { QWEN } from './profiles/qwen.ts';
import type { ProfileDefaults, ProfileName } from './profiles/profile-defaults.ts';

export type { ClientProtocol, IsolationKind, ProfileDefaults, ProfileName } from './profiles/profile-defaults.ts';
export { NEUTRAL_VARS, VENDOR_CREDENTIALS } from './profiles/profile-defaults.ts';

export const CLIENT_PROFILES: Readonly<Record<ProfileName, ProfileDefaults>> = { claude: CLAUDE, codex: CODEX, gemini: GEMINI, opencode: OPENCODE, qwen: QWEN, custom: CUSTOM };

export const PROFILE_NAMES = Object.keys(CLIENT_PROFILES) as ProfileName[];
