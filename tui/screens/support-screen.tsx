// Support: type a request id a user reported, a key (id, masked sk-…a1b2, fingerprint) or the path
// of a user's support bundle, and read the verdict: the cause, what the gateway recorded, the
// operator's remedy and the one to send the user. Reads the gateway's operator API.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import { useState, type JSX } from 'react';
import { ByHand } from '../components/by-hand.tsx';
import { Problem } from '../components/problem.tsx';
import { ScrollBox } from '../components/scroll-box.tsx';
import { Spinner } from '../components/spinner.tsx';
import { TextField } from '../components/text-field.tsx';
import { movement } from '../hooks/keys.ts';
import { useScreenKeys, useSession } from '../hooks/session.ts';
import { useScroll } from '../hooks/use-scroll.ts';
import { OPERATOR_TOKEN_VAR, supportCommandLine, useSupport } from '../hooks/use-support.ts';
import { useTextEdit } from '../hooks/use-text-edit.ts';
import type { SupportAnswer } from '../../core/support/support-lookup.ts';
import type { Theme } from '../theme.ts';
import { BACK, HELP, ScreenFrame } from './screen-frame.tsx';

const SUPPORT_HELP = {
  about: [
    'Looks up what the gateway recorded: a request id a user reported (req_…, from the answer\'s',
    'x-request-id or request-id header), a key by id, masked form (sk-…a1b2) or fingerprint, or a',
    `support bundle file (gwctl diagnose --report FILE). Needs an operator token in ${OPERATOR_TOKEN_VAR}.`,
  ],
  keys: [
    ['enter', 'type a query; enter again looks it up'],
    ['e', 'edit the last query'],
    ['j k', 'scroll the verdict'],
  ] as const,
};

interface VerdictText {
  cause: string;
  summary: string;
  facts: readonly string[];
  remedy: string;
  userRemedy: string;
}

/** A verdict: the cause and what it means, where it was seen, the facts, both remedies. */
function Verdict({ verdict: v, where, commands, theme }: { verdict: VerdictText; where: string; commands: readonly string[]; theme: Theme }): JSX.Element {
  return (
    <Box flexDirection="column">
      <Text bold color={v.cause === 'OK' ? theme.color('pass') : theme.color('fail')}>
        {v.cause} <Text color={undefined}>{v.summary}</Text>
      </Text>
      <Text color={theme.color('muted')}>{where}</Text>
      {v.facts.map((f, i) => (
        <Text key={i}>- {f}</Text>
      ))}
      <Text bold>Operator:</Text>
      <Text>{v.remedy}</Text>
      {commands.map((c, i) => (
        <Text key={i} color={theme.color('accent')}>
          {'  '}$ {c}
        </Text>
      ))}
      <Text bold>Tell the user:</Text>
      <Text>{v.userRemedy}</Text>
    </Box>
  );
}

function Lines({ answer, theme }: { answer: SupportAnswer; theme: Theme }): JSX.Element {
  const muted = theme.color('muted');
  if (answer.kind === 'request') {
    const v = answer.verdict;
    const r = v.request;
    const where = `${v.requestId} · ${r.method} ${r.path} → ${v.status}${r.errorCode ? ` ${r.errorCode}` : ''}${r.user ? ` · ${r.user}` : ''}${r.provider ? ` · provider ${r.provider}${r.upstreamStatus ? ` ${r.upstreamStatus}` : ''}` : ''}`;
    return <Verdict verdict={v} where={where} commands={v.operatorCommands} theme={theme} />;
  }
  if (answer.kind === 'bundle') {
    const v = answer.verdict.verdict;
    const where = `${answer.file} · decided by ${v.source === 'service' ? 'what the gateway recorded' : "the user's diagnosis"} · ${answer.verdict.requests.length} request(s) found`;
    return <Verdict verdict={v} where={where} commands={[]} theme={theme} />;
  }
  const { result } = answer;
  if (result.keys.length === 0 && result.refusedValues.length === 0) return <Text>Nothing matches {result.query} (read as a {result.kind}).</Text>;
  return (
    <Box flexDirection="column">
      {result.keys.map((k) => (
        <Box key={k.keyId} flexDirection="column">
          <Text bold>
            {k.keyId} {k.hint} · {k.owner ?? '?'} · {k.state.toUpperCase()}
          </Text>
          {k.deletedAt && <Text color={muted}>  deleted {k.deletedAt}{k.deletedBy ? ` by ${k.deletedBy}` : ''}</Text>}
          {k.recentFailures.length === 0 ? <Text color={muted}>  no failures in {result.days} days</Text> : k.recentFailures.map((f) => <Text key={f.cause}>  {f.count} × {f.cause}{f.lastRequestId ? ` (last ${f.lastRequestId})` : ''}</Text>)}
        </Box>
      ))}
      {result.refusedValues.map((v) => (
        <Text key={v.fingerprint}>
          never a key: {v.hint ?? ''} fingerprint {v.fingerprint} · {v.requests} request(s){v.lastRequestId ? ` (last ${v.lastRequestId})` : ''}
        </Text>
      ))}
    </Box>
  );
}

export function SupportScreen() {
  const session = useSession();
  const theme = session.theme;
  const task = useSupport();
  const text = useTextEdit();
  const [editing, setEditing] = useState(false);
  const [query, setQuery] = useState('');
  const viewport = Math.max(3, session.bodyHeight - 6);
  const scroll = useScroll(viewport);
  useScreenKeys((input, key) => {
    if (editing) {
      const { outcome, value } = text.handle(input, key);
      if (outcome === 'submit' && value.trim()) {
        setQuery(value);
        setEditing(false);
        scroll.reset();
        void task.run(value);
        return true;
      }
      if (outcome === 'cancel') setEditing(false);
      return true;
    }
    if (input === 'e' || input === '/' || key.return) {
      text.begin(query);
      setEditing(true);
      return true;
    }
    const move = movement(input, key, viewport - 1);
    if (move !== null) {
      scroll.scrollBy(move);
      return true;
    }
    return false;
  });
  const state = task.state;
  return (
    <ScreenFrame title="Support" hints={editing ? [['enter', 'look up'], ['esc', 'cancel']] : [['enter', query ? 'new lookup' : 'type'], ['j/k', 'scroll'], BACK, HELP]} help={SUPPORT_HELP}>
      <Box>
        <Text>Look up: </Text>
        {editing ? (
          <TextField value={text.value} cursor={text.cursor} placeholder="req_…, sk-…a1b2, key id, fingerprint or bundle.json" theme={theme} />
        ) : query ? (
          <Text>{query}</Text>
        ) : (
          <Text color={theme.color('muted')}>press enter to type a request id, a key or a bundle path</Text>
        )}
      </Box>
      <ScrollBox height={viewport} offset={scroll.offset} contentHeight={scroll.contentHeight} onContentHeight={scroll.onContentHeight} theme={theme}>
        {state.phase === 'running' && (
          <Text>
            <Spinner theme={theme} /> asking the gateway…
          </Text>
        )}
        {state.phase === 'failed' && <Problem message={state.problem.message} remedy={state.problem.remedy} theme={theme} />}
        {state.phase === 'done' && <Lines answer={state.value} theme={theme} />}
        {state.phase === 'idle' && <Text color={theme.color('muted')}>Needs an operator token in {OPERATOR_TOKEN_VAR} (gwctl admin token create on the gateway).</Text>}
      </ScrollBox>
      <ByHand command={supportCommandLine(editing ? text.value : query)} theme={theme} />
    </ScreenFrame>
  );
}
