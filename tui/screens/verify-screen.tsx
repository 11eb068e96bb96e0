// Verify key: lints the key and the base URL, then GET /v1/models with `Authorization: Bearer`
// (the same checks as `gwctl verify`), for the messages, chat or image route.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { ByHand } from '../components/by-hand.tsx';
import { CheckList, CheckSummary } from '../components/check-list.tsx';
import { Problem } from '../components/problem.tsx';
import { ScrollBox } from '../components/scroll-box.tsx';
import { cycle, movement } from '../hooks/keys.ts';
import { useScreenKeys, useSession } from '../hooks/session.ts';
import { useScroll } from '../hooks/use-scroll.ts';
import { ROUTE_TYPES, useVerify, verifyCommandLine } from '../hooks/use-verify.ts';
import { BACK, HELP, ScreenFrame } from './screen-frame.tsx';
import { RunHeader } from './run-header.tsx';

const VERIFY_HELP = {
  about: [
    'Checks your key before any client is configured: the key variable is set, the key has',
    'no spaces, line breaks or quotes, the base URL has the /v1 shape the route needs, and',
    'GET …/v1/models answers with a model list. Each failure names its cause code and remedy.',
    'The key is read from the environment and only ever shown masked.',
  ],
  keys: [
    ['r', 'run again'],
    ['t', 'route type: messages → chat → images'],
    ['j k', 'scroll the results'],
  ] as const,
};

export function VerifyScreen() {
  const session = useSession();
  const theme = session.theme;
  const { state, start } = useVerify();
  const [typeIndex, setTypeIndex] = useState(0);
  const type = ROUTE_TYPES[typeIndex]!;
  const viewport = Math.max(3, session.bodyHeight - 4);
  const scroll = useScroll(viewport);
  const runFor = (which: typeof type) => {
    scroll.reset();
    void start(which);
  };
  useEffect(() => {
    void start(ROUTE_TYPES[0]!);
  }, [start]);
  useScreenKeys((input, key) => {
    const move = movement(input, key, viewport - 1);
    if (move !== null) {
      scroll.scrollBy(move);
      return true;
    }
    if (input === 'r' && state.phase !== 'running') {
      runFor(type);
      return true;
    }
    if (input === 't') {
      const next = cycle(typeIndex, 1, ROUTE_TYPES.length);
      setTypeIndex(next);
      runFor(ROUTE_TYPES[next]!);
      return true;
    }
    return false;
  });
  const report = state.report;
  return (
    <ScreenFrame
      title="Verify key"
      hints={[['r', 'run again'], ['t', `type: ${type}`], ['j/k', 'scroll'], BACK, HELP]}
      help={VERIFY_HELP}
    >
      <RunHeader what={report ? `${report.modelsUrl} · key from ${report.key.env}` : `Verifying (${type} route)…`} phase={state.phase} ok={report?.ok} startedAt={state.startedAt} endedAt={state.endedAt} theme={theme} />
      <ScrollBox height={viewport} offset={scroll.offset} contentHeight={scroll.contentHeight} onContentHeight={scroll.onContentHeight} theme={theme}>
        <CheckList results={state.results} running={state.running} theme={theme} idWidth={session.width >= 110 ? 24 : 16} />
        {state.problem && <Problem message={state.problem.message} remedy={state.problem.remedy} theme={theme} />}
        {report?.models && report.models.length > 0 && <Text color={theme.color('muted')}>Models: {report.models.join(', ')}</Text>}
      </ScrollBox>
      <Box flexDirection="column">
        {state.phase === 'done' ? <CheckSummary results={state.results} theme={theme} /> : <Text> </Text>}
        <ByHand command={verifyCommandLine(type)} theme={theme} />
      </Box>
    </ScreenFrame>
  );
}
