// Proxy: what is installed and running (version against 4.2.1, service definition, supervisor,
// /health, the port, the upstream) with findings, and the actions that change it. Each action shows
// what will change and asks first; its output streams into a scrollable pane; esc cancels it.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { ByHand } from '../components/by-hand.tsx';
import { CheckList, type CheckRow } from '../components/check-list.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Menu } from '../components/menu.tsx';
import { OutputPane, paneStart } from '../components/output-pane.tsx';
import { Problem } from '../components/problem.tsx';
import { ScrollBox } from '../components/scroll-box.tsx';
import { Spinner } from '../components/spinner.tsx';
import { StatusMark } from '../components/status-mark.tsx';
import { cycle, movement } from '../hooks/keys.ts';
import { useScreenKeys, useSession } from '../hooks/session.ts';
import { useScroll } from '../hooks/use-scroll.ts';
import { commandFor, NO_OPTIONS, optionsOf, PROXY_ACTIONS, useProxy, type ActionOptions } from '../hooks/use-proxy.ts';
import type { Theme } from '../theme.ts';
import { BACK, HELP, ScreenFrame } from './screen-frame.tsx';
import { RunHeader } from './run-header.tsx';

const PROXY_HELP = {
  about: [
    'The local cache proxy: installed version (only 4.2.1 is documented), the service',
    'definition and what it captured, the supervisor, GET /health, who listens on the port, and',
    "whether its upstream matches your auth path. Actions change files or services: each shows what",
    'will change and asks first; long ones stream their output, esc cancels. Restart the proxy only',
    'from a terminal outside any client session that uses it.',
  ],
  keys: [
    ['enter', 'plan the selected action'],
    ['r', 'refresh the status'],
    ['f d r', 'in the confirmation: force, debug logs, regression run'],
    ['esc / c', 'cancel a running action'],
    ['j k · G', 'scroll the output · follow the end'],
  ] as const,
};

const TOGGLE_KEYS: Record<string, keyof ActionOptions | undefined> = { f: 'force', d: 'debug', r: 'regress' };
const TOGGLE_LABELS: Record<keyof ActionOptions, string> = { force: 'force', debug: 'debug logs', regress: 'regression run' };

function StatusRows({ rows, theme }: { rows: Array<{ label: string; value: string; tone: 'pass' | 'warn' | 'fail' | null }>; theme: Theme }) {
  return (
    <Box flexDirection="column">
      {rows.map((r) => (
        <Box key={r.label}>
          <Box width={2} flexShrink={0}>
            {r.tone ? <StatusMark status={r.tone} theme={theme} /> : <Text> </Text>}
          </Box>
          <Box width={11} flexShrink={0}>
            <Text color={theme.color('muted')}>{r.label}</Text>
          </Box>
          <Text wrap="truncate-end">{r.value}</Text>
        </Box>
      ))}
    </Box>
  );
}

export function ProxyScreen() {
  const session = useSession();
  const theme = session.theme;
  const proxy = useProxy();
  const { action, status } = proxy;
  const [selected, setSelected] = useState(0);
  const [follow, setFollow] = useState(true);
  const [offset, setOffset] = useState(0);
  const wide = session.width >= 110;
  const findingsHeight = Math.max(3, session.bodyHeight - (wide ? 8 : 15));
  const findingsScroll = useScroll(findingsHeight);
  // Rows under the header line that the result takes (one row each, cut to the width), so the
  // output pane gets exactly what is left: header, result rows, pane border and title, By hand.
  const resultRows =
    action.phase === 'done'
      ? (action.result.ok ? 0 : (action.result.cause ? 1 : 0) + (action.result.remedy ? 1 : 0) + (action.result.commands?.length ?? 0)) + action.result.notes.length + (action.result.health ? 1 : 0) + action.result.steps.length
      : action.phase === 'failed'
        ? 2
        : 0;
  const paneHeight = Math.max(3, session.bodyHeight - 1 - resultRows - 3 - 1);
  const lines = action.phase === 'running' || action.phase === 'done' || action.phase === 'failed' ? action.lines : [];

  const scrollOutput = (move: number) => {
    const start = paneStart(lines.length, paneHeight, offset, follow);
    const next = Number.isFinite(move) ? start + move : move < 0 ? 0 : lines.length;
    setFollow(next >= lines.length - paneHeight);
    setOffset(Math.max(0, Math.min(next, Math.max(0, lines.length - paneHeight))));
  };

  useScreenKeys((input, key) => {
    const move = movement(input, key, paneHeight - 1);
    switch (action.phase) {
      case 'menu':
        if (move !== null && !(input === 'g' || input === 'G')) {
          setSelected((s) => cycle(s, move, PROXY_ACTIONS.length));
          return true;
        }
        if (key.return) {
          void proxy.plan(PROXY_ACTIONS[selected]!.action, NO_OPTIONS);
          return true;
        }
        if (input === 'r') {
          void proxy.refresh();
          return true;
        }
        if (input === 'J' || input === 'K') {
          findingsScroll.scrollBy(input === 'J' ? 1 : -1);
          return true;
        }
        return false;
      case 'planning':
        if (key.escape) {
          proxy.toMenu();
          return true;
        }
        return false;
      case 'confirm':
        if ((input === 'y' || key.return) && !action.plan.refused) {
          setFollow(true);
          setOffset(0);
          void proxy.confirm();
        } else if (input === 'f') void proxy.plan(action.action, { ...action.options, force: !action.options.force });
        else if (input === 'd') void proxy.plan(action.action, { ...action.options, debug: !action.options.debug });
        else if (input === 'n' || key.escape) proxy.toMenu();
        return true;
      case 'running':
        if (key.escape || input === 'c') {
          proxy.cancel();
          return true;
        }
        if (move !== null) {
          scrollOutput(move);
          return true;
        }
        return input !== 'q';
      default:
        if (move !== null) {
          scrollOutput(move);
          return true;
        }
        if (key.return || key.escape) {
          proxy.toMenu();
          return true;
        }
        return false;
    }
  });

  const title = 'Proxy';
  if (action.phase === 'planning') {
    return (
      <ScreenFrame title={title} hints={[['esc', 'back'], HELP]} help={PROXY_HELP}>
        <Text>
          <Spinner theme={theme} /> Working out what {PROXY_ACTIONS.find((a) => a.action === action.action)!.label.toLowerCase()} would change…
        </Text>
      </ScreenFrame>
    );
  }
  if (action.phase === 'confirm') {
    const { plan, options } = action;
    const label = PROXY_ACTIONS.find((a) => a.action === action.action)!.label;
    const toggles = Object.entries(TOGGLE_KEYS)
      .filter(([, name]) => optionsOf(action.action).includes(name!))
      .map(([k, name]) => [k, `${TOGGLE_LABELS[name!]}: ${options[name!] ? 'on' : 'off'}`] as const);
    return (
      <ScreenFrame title={title} hints={plan.refused ? [['esc', 'back'], ...toggles.map(([k, l]) => [k, l.split(':')[0]!] as const), HELP] : [['y', 'go ahead'], ['n', 'cancel'], ...toggles.map(([k, l]) => [k, l.split(':')[0]!] as const), HELP]} help={PROXY_HELP}>
        {plan.refused ? (
          <Box flexDirection="column">
            <Problem message={`${label} refused [${plan.refused.cause}]: ${plan.refused.message}`} remedy={plan.refused.remedy} commands={plan.refused.commands} theme={theme} />
            <Text color={theme.color('muted')}>Nothing was changed.{toggles.length ? ` ${toggles.map(([k]) => k).join(' / ')} change the options and plan again;` : ''} esc goes back.</Text>
          </Box>
        ) : (
          <ConfirmDialog
            title={`${label}?`}
            changes={plan.changes}
            notes={[
              ...plan.notes,
              ...plan.commands.map((c) => `  $ ${c}`),
              ...(options.debug ? ['Debug logs can hold sensitive request context: confirm nothing sensitive is logged.'] : []),
            ]}
            toggles={toggles}
            confirmLabel={options.debug ? 'go ahead (debug confirmed)' : 'go ahead'}
            theme={theme}
          />
        )}
        <ByHand command={commandFor(action.action, options)} theme={theme} />
      </ScreenFrame>
    );
  }
  if (action.phase === 'running' || action.phase === 'done' || action.phase === 'failed') {
    const label = PROXY_ACTIONS.find((a) => a.action === action.action)!.label;
    const result = action.phase === 'done' ? action.result : null;
    return (
      <ScreenFrame
        title={title}
        hints={action.phase === 'running' ? [['esc', 'cancel'], ['j/k', 'scroll'], ['G', 'follow'], HELP] : [['enter', 'done'], ['j/k', 'scroll output'], HELP]}
        help={PROXY_HELP}
      >
        {action.phase === 'running' ? (
          <RunHeader what={`${label}${action.cancelling ? ' (cancelling…)' : '…'}`} phase="running" startedAt={action.startedAt} endedAt={null} theme={theme} />
        ) : action.phase === 'done' ? (
          <RunHeader what={`${label}: ${action.result.summary}`} phase="done" ok={action.result.ok} startedAt={action.startedAt} endedAt={action.endedAt} theme={theme} />
        ) : (
          <Problem message={action.problem.message} remedy={action.problem.remedy} theme={theme} />
        )}
        {result && !result.ok && (
          <Box flexDirection="column">
            {result.cause && (
              <Text color={theme.color('fail')} bold>
                {result.cause}
              </Text>
            )}
            {result.remedy && <Text wrap="truncate-end">remedy  {result.remedy}</Text>}
            {(result.commands ?? []).map((c, i) => (
              <Text key={i} color={theme.color('accent')} wrap="truncate-end">
                {'  $ '}
                {c}
              </Text>
            ))}
          </Box>
        )}
        {result && (
          <Box flexDirection="column">
            {result.notes.map((n, i) => (
              <Text key={`n${i}`} color={theme.color('muted')} wrap="truncate-end">
                {n}
              </Text>
            ))}
            {result.health && (
              <Text color={theme.color(result.health.state === 'ok' ? 'pass' : 'warn')} wrap="truncate-end">
                health: {result.health.observed}
              </Text>
            )}
            {result.steps.map((s, i) => (
              <Text key={i} wrap="truncate-end">
                <StatusMark status={s.exitCode === 0 ? 'pass' : 'fail'} theme={theme} /> {s.command} <Text color={theme.color('muted')}>→ exit {s.exitCode ?? 'none'}</Text>
              </Text>
            ))}
          </Box>
        )}
        <OutputPane lines={lines} height={paneHeight} offset={offset} follow={follow} title="output" theme={theme} />
        <ByHand command={commandFor(action.action, action.options)} theme={theme} />
      </ScreenFrame>
    );
  }

  const view = status.phase === 'done' ? status.value : null;
  const findings = (view?.findings ?? []) as CheckRow[];
  const statusBlock = (
    <Box flexDirection="column" flexGrow={1}>
      {(status.phase === 'running' || status.phase === 'idle') && !view && (
        <Text>
          <Spinner theme={theme} /> Looking at the installation, the service, /health and the port…
        </Text>
      )}
      {status.phase === 'failed' && <Problem message={status.problem.message} remedy={status.problem.remedy} theme={theme} />}
      {view && <StatusRows rows={view.rows} theme={theme} />}
      {view && (
        <ScrollBox height={findingsHeight} offset={findingsScroll.offset} contentHeight={findingsScroll.contentHeight} onContentHeight={findingsScroll.onContentHeight} keys="J/K" theme={theme}>
          {findings.length === 0 ? (
            <Text color={theme.color('pass')}>
              {theme.symbols.pass} No findings{status.phase === 'running' ? ' (refreshing…)' : ''}
            </Text>
          ) : (
            <CheckList results={findings} running={null} theme={theme} idWidth={3} />
          )}
        </ScrollBox>
      )}
    </Box>
  );
  const menu = (
    <Box flexDirection="column" flexShrink={0} width={wide ? 30 : undefined} marginRight={wide ? 2 : 0}>
      <Text bold>Actions</Text>
      <Menu items={PROXY_ACTIONS.map((a) => ({ label: a.label }))} selected={selected} theme={theme} />
    </Box>
  );
  return (
    <ScreenFrame title={title} hints={[['↑↓', 'choose'], ['enter', 'plan'], ['r', 'refresh'], ['J/K', 'findings'], BACK, HELP]} help={PROXY_HELP}>
      {wide ? (
        <Box>
          {menu}
          {statusBlock}
        </Box>
      ) : (
        <>
          {statusBlock}
          {menu}
        </>
      )}
      <ByHand command={commandFor(PROXY_ACTIONS[selected]!.action, NO_OPTIONS)} theme={theme} />
    </ScreenFrame>
  );
}
