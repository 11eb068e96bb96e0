// Diagnose: pick the status the client showed (or none), then the checks run in order, each with its
// cause code, what was observed, the remedy and the commands, then the verdict (as `gwctl diagnose`).
// One check sends a short real request (it may cost a few tokens); `x` leaves it out.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { ByHand } from '../components/by-hand.tsx';
import { CheckList, CheckSummary } from '../components/check-list.tsx';
import { Menu } from '../components/menu.tsx';
import { Problem } from '../components/problem.tsx';
import { ScrollBox } from '../components/scroll-box.tsx';
import { cycle, movement } from '../hooks/keys.ts';
import { useScreenKeys, useSession } from '../hooks/session.ts';
import { CLIENT_KINDS, CLIENT_LABELS, DIAGNOSE_STATUSES, diagnoseCommandLine, statusMeaning, useDiagnose } from '../hooks/use-diagnose.ts';
import { useScroll } from '../hooks/use-scroll.ts';
import { BACK, HELP, ScreenFrame } from './screen-frame.tsx';
import { RunHeader } from './run-header.tsx';

const DIAGNOSE_HELP = {
  about: [
    'Finds why a client fails: same execution plane, proxy health, the client\'s base address, pinned',
    "settings, the credential in this shell, the key's format, the proxy's upstream, one short real",
    'request (POST /v1/messages, max_tokens 1, may cost a few tokens) through the route the client',
    'would take, then a direct request. With a status only the checks that can explain it run, and',
    'the status is classified against the error table. The verdict names the one root cause.',
  ],
  keys: [
    ['enter', 'run with the chosen status'],
    ['x', 'send the short real request or leave it out'],
    ['c', 'client kind: messages (proxy checks), chat or images'],
    ['s', 'choose another status'],
    ['r', 'run again'],
    ['j k', 'move / scroll the results'],
  ] as const,
};

const CHOICES: Array<number | undefined> = [undefined, ...DIAGNOSE_STATUSES];

export function DiagnoseScreen() {
  const session = useSession();
  const theme = session.theme;
  const { state, start } = useDiagnose();
  // Back from a client that failed: diagnose at once, with every check.
  const failedClient = session.resume?.screen === 'diagnose' ? session.resume.lastClient : undefined;
  const [picking, setPicking] = useState(!failedClient);
  const [choice, setChoice] = useState(0);
  const [sendRequest, setSendRequest] = useState(true);
  const [clientIndex, setClientIndex] = useState(0);
  const client = CLIENT_KINDS[clientIndex]!;
  const messages = client === 'messages';
  const status = CHOICES[choice];
  const viewport = Math.max(3, session.bodyHeight - 4 - (failedClient ? 1 : 0));
  const scroll = useScroll(viewport);
  const run = () => {
    setPicking(false);
    scroll.reset();
    void start(status, sendRequest, client);
  };
  useEffect(() => {
    if (failedClient) void start(undefined, true);
    // Once, when the screen opens after the failed client.
  }, []);
  useScreenKeys((input, key) => {
    const move = movement(input, key, viewport - 1);
    if (picking) {
      if (move !== null) {
        setChoice((c) => cycle(c, move, CHOICES.length));
        return true;
      }
      if (key.return) {
        run();
        return true;
      }
      if (input === 'x') {
        setSendRequest((v) => !v);
        return true;
      }
      if (input === 'c') {
        setClientIndex((i) => (i + 1) % CLIENT_KINDS.length);
        return true;
      }
      return false;
    }
    if (move !== null) {
      scroll.scrollBy(move);
      return true;
    }
    if (state.phase === 'running') return false;
    if (input === 'r') {
      run();
      return true;
    }
    if (input === 's') {
      setPicking(true);
      return true;
    }
    return false;
  });
  const items = CHOICES.map((s) => (s === undefined ? { label: 'No status', hint: 'check everything' } : { label: String(s), hint: statusMeaning(s) }));
  if (picking) {
    return (
      <ScreenFrame title="Diagnose" hints={[['↑↓', 'choose'], ['enter', 'run'], ['x', 'real request'], ['c', 'client'], BACK, HELP]} help={DIAGNOSE_HELP}>
        <Text>What did the client show?</Text>
        <Menu items={items} selected={choice} theme={theme} hintWidth={session.width < 60 ? 0 : undefined} />
        <Box marginTop={1} flexDirection="column">
          <Text wrap="truncate-end">Client: {CLIENT_LABELS[client]}. c: another kind</Text>
          {messages ? (
            <Text color={theme.color(sendRequest ? 'warn' : 'muted')} wrap="truncate-end">
              {sendRequest ? 'Sends one short real request (POST /v1/messages, max_tokens 1): it may cost a few tokens. x: leave it out' : 'The short real request is left out. x: send it'}
            </Text>
          ) : (
            <Text color={theme.color('muted')} wrap="truncate-end">
              Checks the base URL this client uses and its key; the proxy is for messages clients only.
            </Text>
          )}
          <ByHand command={diagnoseCommandLine(status, sendRequest, client)} theme={theme} />
        </Box>
      </ScreenFrame>
    );
  }
  return (
    <ScreenFrame title="Diagnose" hints={[['r', 'run again'], ['s', 'status'], ['j/k', 'scroll'], BACK, HELP]} help={DIAGNOSE_HELP}>
      {failedClient && (
        <Text color={theme.color('warn')} wrap="truncate-end">
          {theme.symbols.warn} {failedClient.command} exited with code {failedClient.exitCode}: diagnosing what it saw
        </Text>
      )}
      <RunHeader what={status === undefined ? 'Diagnosis (no status given)' : `Diagnosis for ${status}`} phase={state.phase} ok={state.report?.ok} startedAt={state.startedAt} endedAt={state.endedAt} theme={theme} />
      <ScrollBox height={viewport} offset={scroll.offset} contentHeight={scroll.contentHeight} onContentHeight={scroll.onContentHeight} theme={theme}>
        <CheckList results={state.results} running={state.running} theme={theme} idWidth={session.width >= 110 ? 24 : 22} />
        {state.report && (
          <CheckList
            results={[
              {
                ...state.report.verdict,
                id: 'verdict',
                status: state.report.verdict.check ? 'fail' : 'pass',
                observed: `${state.report.verdict.check ? `from ${state.report.verdict.check}: ` : ''}${state.report.verdict.observed}`,
              },
            ]}
            running={null}
            theme={theme}
            idWidth={session.width >= 110 ? 24 : 22}
          />
        )}
        {state.problem && <Problem message={state.problem.message} remedy={state.problem.remedy} theme={theme} />}
      </ScrollBox>
      <Box flexDirection="column">
        {state.phase === 'done' ? <CheckSummary results={state.results} theme={theme} /> : <Text> </Text>}
        <ByHand command={diagnoseCommandLine(status, sendRequest, client)} theme={theme} />
      </Box>
    </ScreenFrame>
  );
}
