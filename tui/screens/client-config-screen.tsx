// Client config: what to enter in each kind of client (key only as <API_KEY>), the base addresses
// and credentials pinned in client settings and shell startup files, and the two file changes gwctl
// offers: back up + remove those entries, or put the last backups back. Both confirm first.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { ByHand } from '../components/by-hand.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Field } from '../components/field.tsx';
import { Problem } from '../components/problem.tsx';
import { ScrollBox } from '../components/scroll-box.tsx';
import { StatusMark } from '../components/status-mark.tsx';
import { movement } from '../hooks/keys.ts';
import { useScreenKeys, useSession } from '../hooks/session.ts';
import type { ClientEntry } from '../../core/config/client-entries.ts';
import { useClientConfig, type ClientChange } from '../hooks/use-client-config.ts';
import { useScroll } from '../hooks/use-scroll.ts';
import { describeEntry } from '../hooks/use-start-client.ts';
import { BACK, HELP, ScreenFrame } from './screen-frame.tsx';

const CLIENT_HELP = {
  about: [
    'What to enter in a client: a chat-completions client uses {base_url}/v1, a messages client',
    '{base_url} without /v1 (it appends /v1/messages), a Responses client (the Codex CLI) {base_url}/v1',
    'with a provider block for its config.toml, an image client {image_base_url}/v1.',
    'A base address or credential fixed in a client settings file wins over the shell, and would keep',
    'the client on a proxy that is down: gwctl can back such files up and remove only those entries,',
    'and put the backups back later. Last, the variables gwctl start sets for the client under the',
    'active profile (setting client.profile).',
  ],
  keys: [
    ['c', 'back up and remove the pinned entries'],
    ['R', 'restore the files of the last clean-up'],
    ['j k', 'scroll'],
  ] as const,
};

type Mode = { kind: 'view' } | { kind: 'confirm'; preview: ClientChange };

export function ClientConfigScreen() {
  const session = useSession();
  const theme = session.theme;
  const config = useClientConfig();
  const { tilde } = config;
  const [mode, setMode] = useState<Mode>({ kind: 'view' });
  const [done, setDone] = useState<{ lines: string[]; ok: boolean } | null>(null);
  const viewport = Math.max(3, session.bodyHeight - 1);
  const scroll = useScroll(viewport);
  const removable = config.pins?.entries.filter((e) => e.removable) ?? [];
  useScreenKeys((input, key) => {
    if (mode.kind === 'confirm') {
      if (input === 'y' || key.return) {
        const result = mode.preview.kind === 'clean' ? config.clean(false) : config.restore(false);
        if (result.kind === 'clean') {
          setDone({ ok: true, lines: [...result.report.changed.map((f) => `${tilde(f.file)}: backed up to ${tilde(f.backup ?? '?')}; removed ${f.removed.map(describeEntry).join(', ')}`), 'Undo with: gwctl start --restore (or R here)'] });
        } else {
          const failed = result.report.files.some((f) => f.missingBackup);
          setDone({
            ok: !failed,
            lines: result.report.files.map((f) =>
              f.missingBackup ? `${tilde(f.file)}: backup ${tilde(f.backup)} is missing; not restored` : `${tilde(f.file)} ← ${tilde(f.backup)}${f.keptCurrentAs ? ` (its later edits were saved to ${tilde(f.keptCurrentAs)})` : ''}`,
            ),
          });
        }
        setMode({ kind: 'view' });
      } else if (input === 'n' || key.escape) setMode({ kind: 'view' });
      return true;
    }
    const move = movement(input, key, viewport - 1);
    if (move !== null) {
      scroll.scrollBy(move);
      return true;
    }
    if (input === 'c') {
      setDone(removable.length ? null : { ok: true, lines: ['Nothing to clean: no removable pinned entry was found.'] });
      if (removable.length) setMode({ kind: 'confirm', preview: config.clean(true) });
      return true;
    }
    if (input === 'R') {
      const preview = config.restore(true);
      if (preview.kind === 'restore' && !preview.report.operationId) setDone({ ok: true, lines: ['Nothing to restore: no clean-up by gwctl is on record.'] });
      else {
        setDone(null);
        setMode({ kind: 'confirm', preview });
      }
      return true;
    }
    return false;
  });
  if (mode.kind === 'confirm') {
    const p = mode.preview;
    const changes =
      p.kind === 'clean'
        ? p.report.changed.map((f) => `${tilde(f.file)}: back up (timestamped copy), then remove ${f.removed.map(describeEntry).join(', ')}`)
        : p.report.files.map((f) =>
            f.missingBackup ? `${tilde(f.file)}: its backup is missing, it cannot be restored` : `${tilde(f.file)}: replaced by ${tilde(f.backup)} (${f.removed.join(', ')} back)${f.keptCurrentAs ? '; it was edited since, that version is backed up first' : ''}`,
          );
    return (
      <ScreenFrame title="Client config" hints={[['y', 'go ahead'], ['n', 'cancel']]} help={CLIENT_HELP}>
        <ConfirmDialog
          title={p.kind === 'clean' ? `Back up and clean ${changes.length} file${changes.length === 1 ? '' : 's'}?` : `Restore the files changed at ${p.report.createdAt}?`}
          changes={changes}
          notes={p.kind === 'clean' ? ['Only these entries are removed; everything else in the files stays as it is.'] : []}
          confirmLabel={p.kind === 'clean' ? 'back up and clean' : 'restore'}
          theme={theme}
        />
      </ScreenFrame>
    );
  }
  // Entries with a settings file to copy are long: they come after the pinned entries.
  const entryBlock = (e: ClientEntry) => (
    <Box key={e.type} flexDirection="column" marginBottom={1}>
      <Text bold>{e.title}</Text>
      <Field label="  Provider" width={12} theme={theme}>
        {e.providerType}
      </Field>
      <Field label="  Base URL" width={12} theme={theme}>
        <Text>
          {e.baseUrl} <Text color={theme.color('muted')}>({e.baseUrlNote})</Text>
        </Text>
      </Field>
      <Field label="  API key" width={12} theme={theme}>
        <Text>
          {e.apiKey} <Text color={theme.color('muted')}>(your own key; never share it)</Text>
        </Text>
      </Field>
      {e.env && (
        <Field label="  Variables" width={12} theme={theme}>
          {Object.entries(e.env)
            .map(([k, v]) => `${k}=${v}`)
            .join('  ')}
        </Field>
      )}
      {e.files?.map((f) => (
        <Box key={f.path} flexDirection="column">
          <Field label={`  ${f.client}`} width={12} theme={theme}>
            <Text>
              {f.path} <Text color={theme.color('muted')}>({f.note})</Text>
            </Text>
          </Field>
          <Text color={theme.color('muted')}>{f.text.replace(/^(?=.)/gm, '    ')}</Text>
        </Box>
      ))}
    </Box>
  );
  return (
    <ScreenFrame title="Client config" hints={[['c', 'clean pinned'], ['R', 'restore'], ['j/k', 'scroll'], BACK, HELP]} help={CLIENT_HELP}>
      <ScrollBox height={viewport} offset={scroll.offset} contentHeight={scroll.contentHeight} onContentHeight={scroll.onContentHeight} theme={theme}>
        {done && (
          <Box flexDirection="column" marginBottom={1}>
            {done.lines.map((l, i) => (
              <Text key={i} color={theme.color(done.ok ? 'pass' : 'fail')}>
                {done.ok ? theme.symbols.pass : theme.symbols.fail} {l}
              </Text>
            ))}
          </Box>
        )}
        {config.entriesProblem && <Problem message={config.entriesProblem.message} remedy={config.entriesProblem.remedy} theme={theme} />}
        {config.entries?.entries.filter((e) => !e.files).map(entryBlock)}
        {config.entries?.notes.map((n, i) => (
          <Text key={i} color={theme.color('muted')}>
            note: {n}
          </Text>
        ))}
        <Text bold>Pinned in client settings and shell startup files</Text>
        {config.pins && config.pins.entries.length === 0 && (
          <Text>
            <StatusMark status="pass" theme={theme} /> none: no base address or credential is fixed
          </Text>
        )}
        {config.pins?.entries.map((e, i) => (
          <Text key={i}>
            <StatusMark status={e.fileKind === 'settings' ? 'fail' : 'warn'} theme={theme} /> {tilde(e.file)}
            {e.line ? `:${e.line}` : ''} {describeEntry(e)}
            {e.removable ? '' : <Text color={theme.color('muted')}> ({e.note})</Text>}
          </Text>
        ))}
        {config.pins?.problems.map((p, i) => (
          <Text key={`p${i}`} color={theme.color('warn')}>
            {theme.symbols.warn} {tilde(p.file)}: {p.reason}
          </Text>
        ))}
        <Text color={theme.color('muted')} wrap="truncate-end">
          Settings files looked at: {config.profileFiles.map(tilde).join(', ') || '(none)'}
        </Text>
        {config.entries?.entries.filter((e) => e.files).map(entryBlock)}
        {config.start && !config.start.problem && (
          <Box flexDirection="column" marginTop={1}>
            <Text bold>
              gwctl start runs {config.start.command} with <Text color={theme.color('muted')}>(profile {config.start.profile.name})</Text>
            </Text>
            {config.start.variables.map((v) => (
              <Field key={v.name} label={`  ${v.name}`} width={34} theme={theme}>
                <Text>
                  {v.value} <Text color={theme.color('muted')}>({v.note})</Text>
                </Text>
              </Field>
            ))}
          </Box>
        )}
      </ScrollBox>
      <ByHand command="gwctl config client · gwctl start --dry-run · gwctl start --restore" theme={theme} />
    </ScreenFrame>
  );
}
