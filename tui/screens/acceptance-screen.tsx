// Acceptance: the three proxy acceptance layers (proxy_running, claude_routed, cache_observed),
// each with a spinner while it runs, then its result, cause code, remedy and evidence.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import { ByHand } from '../components/by-hand.tsx';
import { CheckList, CheckSummary, type CheckRow } from '../components/check-list.tsx';
import { Problem } from '../components/problem.tsx';
import { ScrollBox } from '../components/scroll-box.tsx';
import { Spinner } from '../components/spinner.tsx';
import { StatusMark } from '../components/status-mark.tsx';
import { movement } from '../hooks/keys.ts';
import { useScreenKeys, useSession } from '../hooks/session.ts';
import { ACCEPTANCE_LAYERS, useAcceptance } from '../hooks/use-acceptance.ts';
import { useScroll } from '../hooks/use-scroll.ts';
import { BACK, HELP, ScreenFrame } from './screen-frame.tsx';
import { RunHeader } from './run-header.tsx';

const ACCEPTANCE_HELP = {
  about: [
    'The three layers that show the proxy works: proxy_running (GET /health is 200 ok),',
    'claude_routed (a new client session with a one-word request gets a normal reply through the',
    "proxy), cache_observed (the proxy's files in ~/.claude/quota-status/ appear or are updated).",
    'A failing layer runs the diagnosis and names the cause it finds.',
  ],
  keys: [
    ['enter', 'run the acceptance'],
    ['esc', 'cancel while it runs'],
    ['j k', 'scroll the results'],
  ] as const,
};

export function AcceptanceScreen() {
  const session = useSession();
  const theme = session.theme;
  const { state, started, start, cancel, available } = useAcceptance();
  const viewport = Math.max(3, session.bodyHeight - 4);
  const scroll = useScroll(viewport);
  const running = state.phase === 'running';
  useScreenKeys((input, key) => {
    if (running && (key.escape || input === 'c')) {
      cancel();
      return true;
    }
    const move = movement(input, key, viewport - 1);
    if (move !== null) {
      scroll.scrollBy(move);
      return true;
    }
    if ((key.return || input === 'r') && !running) {
      scroll.reset();
      start();
      return true;
    }
    return false;
  });
  const report = state.phase === 'done' ? state.value : null;
  const results = (report?.checks ?? []) as CheckRow[];
  return (
    <ScreenFrame title="Acceptance" hints={running ? [['esc', 'cancel'], HELP] : [['enter', state.phase === 'idle' ? 'run' : 'run again'], ['j/k', 'scroll'], BACK, HELP]} help={ACCEPTANCE_HELP}>
      {state.phase === 'idle' ? (
        <Box flexDirection="column">
          <Text>Three layers, in order:</Text>
          {ACCEPTANCE_LAYERS.map((id) => (
            <Text key={id}>
              {'  '}
              {theme.symbols.pending} {id}
            </Text>
          ))}
          <Text color={theme.color('muted')}>claude_routed starts the client once through the proxy with a one-word request.</Text>
          {!available && <Text color={theme.color('warn')}>{theme.symbols.warn} The proxy operations are not available in this build.</Text>}
          <Text>
            Press{' '}
            <Text bold color={theme.color('accent')}>
              enter
            </Text>{' '}
            to run.
          </Text>
        </Box>
      ) : (
        <>
          <RunHeader what="Proxy acceptance" phase={state.phase} ok={report?.ok} startedAt={state.startedAt} endedAt={state.phase === 'running' ? null : state.endedAt} theme={theme} />
          <ScrollBox height={viewport} offset={scroll.offset} contentHeight={scroll.contentHeight} onContentHeight={scroll.onContentHeight} theme={theme}>
            {running &&
              ACCEPTANCE_LAYERS.map((id) => {
                const index = started.indexOf(id);
                const current = index !== -1 && index === started.length - 1;
                return (
                  <Text key={id}>
                    {current ? <Spinner theme={theme} /> : index === -1 ? <Text color={theme.color('muted')}>{theme.symbols.pending}</Text> : <StatusMark status="pending" theme={theme} />} {id}
                    <Text color={theme.color('muted')}>{current ? ' running…' : index === -1 ? ' waiting' : ' done'}</Text>
                  </Text>
                );
              })}
            {report && <CheckList results={results} running={null} theme={theme} />}
            {report?.layers
              .filter((l) => l.evidence.length > 0)
              .map((l) => (
                <Box key={l.id} flexDirection="column">
                  <Text color={theme.color('muted')}>Evidence · {l.id}</Text>
                  {l.evidence.map((e, i) => (
                    <Text key={i}>  {e}</Text>
                  ))}
                </Box>
              ))}
            {state.phase === 'failed' && <Problem message={state.problem.message} remedy={state.problem.remedy} theme={theme} />}
          </ScrollBox>
          <Box flexDirection="column">{report ? <CheckSummary results={results} theme={theme} /> : <Text> </Text>}</Box>
        </>
      )}
      <ByHand command="gwctl proxy accept" theme={theme} />
    </ScreenFrame>
  );
}
