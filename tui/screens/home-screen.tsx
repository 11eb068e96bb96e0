// Home: the status panel (filled in as each probe answers) and the menu of actions.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import { useState, type ReactNode } from 'react';
import { Field } from '../components/field.tsx';
import { Menu, type MenuItem } from '../components/menu.tsx';
import { Spinner } from '../components/spinner.tsx';
import { StatusMark } from '../components/status-mark.tsx';
import { cycle, movement } from '../hooks/keys.ts';
import { useScreenKeys, useSession, type ScreenId } from '../hooks/session.ts';
import { useHomeStatus } from '../hooks/use-home-status.ts';
import type { Theme } from '../theme.ts';
import { HELP, ScreenFrame } from './screen-frame.tsx';

export const HOME_MENU: ReadonlyArray<MenuItem & { screen: ScreenId | 'quit' }> = [
  { label: 'Verify key', hint: 'GET /v1/models with your key', screen: 'verify' },
  { label: 'Start client', hint: 'proxy when healthy, else direct', screen: 'start' },
  { label: 'Diagnose', hint: 'why a client gets 401/403/404/429/5xx', screen: 'diagnose' },
  { label: 'Proxy', hint: 'status, install/upgrade 4.2.1, service', screen: 'proxy' },
  { label: 'Acceptance', hint: 'the three proxy acceptance layers', screen: 'acceptance' },
  { label: 'Client config', hint: 'what to enter; pinned settings, backups', screen: 'client-config' },
  { label: 'Settings', hint: 'gwctl settings and their sources', screen: 'settings' },
  { label: 'Support', hint: 'a request id or key → cause (operators)', screen: 'support' },
  { label: 'Quit', hint: 'leave gwctl', screen: 'quit' },
];

const HOME_HELP = {
  about: [
    'The panel shows what gwctl sees now: the base URL and where it is set, your key (masked)',
    'and whether the service accepts it, the local proxy, and the route `gwctl start` would take.',
    'Pick an action from the menu; every action shows the command that does the same by hand.',
  ],
  keys: [
    ['1-9', 'jump to a menu entry'],
    ['r', 'look again (refresh the panel)'],
  ] as const,
};

function Loading({ theme, text }: { theme: Theme; text: string }) {
  return (
    <Text>
      <Spinner theme={theme} /> <Text color={theme.color('muted')}>{text}</Text>
    </Text>
  );
}

function StatusPanel({ theme }: { theme: Theme }) {
  const status = useHomeStatus();
  const { baseUrl, key, verify, health, proxy, route } = status;
  let keyVerdict: ReactNode = null;
  if (key.variable && !key.masked) keyVerdict = <Text color={theme.color('fail')}> {theme.symbols.fail} not set in this shell</Text>;
  else if (!key.verifiable && key.variable) keyVerdict = <Text color={theme.color('muted')}> (not a key of this service: not verified here)</Text>;
  else if (verify.phase === 'running') keyVerdict = <Text> <Spinner theme={theme} /> verifying…</Text>;
  else if (verify.phase === 'done') {
    const failed = verify.value.checks.find((c) => c.status === 'fail');
    keyVerdict = failed ? (
      <Text>
        {' '}
        <StatusMark status="fail" theme={theme} /> <Text color={theme.color('fail')}>{failed.cause}</Text>
        <Text color={theme.color('muted')}> (Verify key for details)</Text>
      </Text>
    ) : (
      <Text>
        {' '}
        <StatusMark status="pass" theme={theme} /> verified{verify.value.models ? `: ${verify.value.models.length} model${verify.value.models.length === 1 ? '' : 's'}` : ''}
      </Text>
    );
  } else if (verify.phase === 'failed') keyVerdict = <Text color={theme.color('fail')}> {theme.symbols.fail} {verify.problem.message}</Text>;

  const proxyView = proxy.phase === 'done' ? proxy.value : null;
  let proxyLine: ReactNode;
  if (health.phase === 'running' || health.phase === 'idle') proxyLine = <Loading theme={theme} text="probing /health…" />;
  else if (health.phase === 'failed') proxyLine = <Text color={theme.color('fail')}>{health.problem.message}</Text>;
  else {
    const h = health.value;
    const mark = h.state === 'ok' ? (h.slow ? 'warn' : 'pass') : h.state === 'degraded' ? 'warn' : 'fail';
    const word = h.state === 'ok' ? (h.slow ? 'ok, but slow to answer /health' : 'ok') : h.state === 'degraded' ? `degraded${h.failedExtensions.length ? ` (${h.failedExtensions.join(', ')})` : ''}` : h.state === 'down' ? 'down' : h.state;
    proxyLine = (
      <Text>
        <StatusMark status={mark} theme={theme} /> <Text color={theme.color(mark)}>{word}</Text>
        {proxyView?.version ? <Text color={theme.color(proxyView.versionOk ? 'muted' : 'warn')}> · {proxyView.version}{proxyView.versionOk ? '' : ' (not 4.2.1)'}</Text> : null}
        {proxyView?.service ? <Text color={theme.color('muted')}> · service {proxyView.service}</Text> : null}
        {proxy.phase === 'running' ? <Text color={theme.color('muted')}> · <Spinner theme={theme} /></Text> : null}
      </Text>
    );
  }

  let routeLine: ReactNode;
  if (route.phase === 'running' || route.phase === 'idle') routeLine = <Loading theme={theme} text="deciding…" />;
  else if (route.phase === 'failed') routeLine = <Text color={theme.color('warn')}>{theme.symbols.warn} {route.problem.message}</Text>;
  else {
    const plan = route.value;
    routeLine = (
      <Box flexDirection="column">
        <Text>
          <Text bold>{plan.route.kind}</Text> → {plan.route.baseUrl ?? "the client's default upstream"}
          {plan.refused ? <Text color={theme.color('fail')}> · start refused: {plan.refused.cause}</Text> : null}
        </Text>
        <Text color={theme.color('muted')} wrap="truncate-end">
          {plan.route.reason}
        </Text>
      </Box>
    );
  }

  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('muted')} paddingX={1} flexShrink={0}>
      {status.settingsProblem ? (
        <Text color={theme.color('fail')}>
          {theme.symbols.fail} {status.settingsProblem.message} → {status.settingsProblem.remedy}
        </Text>
      ) : (
        <>
          <Field label="Base URL" theme={theme}>
            {baseUrl?.value ? (
              <Text>
                {baseUrl.value} <Text color={theme.color('muted')}>({baseUrl.source})</Text>
              </Text>
            ) : (
              <Text color={theme.color('fail')}>{theme.symbols.fail} not set · Settings, or gwctl config set baseUrl &lt;url&gt;</Text>
            )}
          </Field>
          <Field label="Key" theme={theme}>
            <Text>
              {key.variable ? `${key.variable}${key.masked ? ` ${key.masked}` : ''}` : 'subscription login (no key)'}
              {keyVerdict}
            </Text>
          </Field>
          <Field label="Proxy" theme={theme}>
            {proxyLine}
          </Field>
          <Field label="Route" theme={theme}>
            {routeLine}
          </Field>
        </>
      )}
    </Box>
  );
}

export function HomeScreen() {
  const session = useSession();
  const [selected, setSelected] = useState(0);
  const [panelKey, setPanelKey] = useState(0);
  const choose = (index: number) => {
    const item = HOME_MENU[index]!;
    if (item.screen === 'quit') session.quit(0);
    else session.open(item.screen);
  };
  useScreenKeys((input, key) => {
    const move = movement(input, key);
    if (move !== null) {
      setSelected((s) => cycle(s, move, HOME_MENU.length));
      return true;
    }
    if (key.return) {
      choose(selected);
      return true;
    }
    if (/^[1-9]$/.test(input) && Number(input) <= HOME_MENU.length) {
      const index = Number(input) - 1;
      setSelected(index);
      choose(index);
      return true;
    }
    if (input === 'r') {
      setPanelKey((k) => k + 1);
      return true;
    }
    return false;
  });
  const theme = session.theme;
  const wide = session.width >= 110;
  const menu = (
    <Box flexDirection="column" flexShrink={0}>
      <Menu items={HOME_MENU.map((m, i) => ({ ...m, label: `${i + 1} ${m.label}` }))} selected={selected} theme={theme} hintWidth={session.width < 60 ? 0 : undefined} />
    </Box>
  );
  return (
    <ScreenFrame
      title="Home"
      hints={[
        ['↑↓', 'move'],
        ['enter', 'open'],
        ['r', 'refresh'],
        HELP,
        ['q', 'quit'],
      ]}
      help={HOME_HELP}
    >
      {session.resume?.lastClient && (
        <Text color={theme.color(session.resume.lastClient.exitCode === 0 ? 'pass' : 'warn')}>
          {session.resume.lastClient.command} exited with code {session.resume.lastClient.exitCode}
        </Text>
      )}
      {wide ? (
        <Box>
          <Box flexDirection="column" width={Math.min(60, Math.floor(session.width * 0.42))} flexShrink={0} marginRight={2}>
            <Text bold>Actions</Text>
            {menu}
          </Box>
          <Box flexDirection="column" flexGrow={1}>
            <StatusPanel key={panelKey} theme={theme} />
          </Box>
        </Box>
      ) : (
        <>
          <StatusPanel key={panelKey} theme={theme} />
          {menu}
        </>
      )}
    </ScreenFrame>
  );
}
