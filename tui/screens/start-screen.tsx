// Start client: the client to start (c chooses another profile) and the plan of a safe start (route
// and why, client, model, its temporary configuration, stripped vendor credentials, variables with
// the credential masked, warnings, settings to back up and clean), a confirmation when files will change, then the
// terminal goes to the client until it exits.
/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { ByHand } from '../components/by-hand.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Field } from '../components/field.tsx';
import { Problem } from '../components/problem.tsx';
import { ScrollBox } from '../components/scroll-box.tsx';
import { Spinner } from '../components/spinner.tsx';
import { movement } from '../hooks/keys.ts';
import { useScreenKeys, useSession } from '../hooks/session.ts';
import { useScroll } from '../hooks/use-scroll.ts';
import { describeEntry, modelSummary, useStartClient } from '../hooks/use-start-client.ts';
import { BACK, HELP, ScreenFrame } from './screen-frame.tsx';

const START_HELP = {
  about: [
    'A safe start: through the local proxy only when GET /health answers 200 {"status":"ok"},',
    'otherwise directly against the service. The key must be exported in this shell (in the',
    "client's variable or MSGAPI_AUTH_TOKEN); the client gets it in the one variable it reads. A model",
    'the service serves is set when it lists none of the client\'s own (setting client.model).',
    'Base addresses or credentials pinned in client settings files are backed up and removed',
    'first (you confirm that); `gwctl start --restore` puts them back. The client gets the terminal',
    'until it exits; then gwctl comes back, or exits with its code (setting tui.afterClient).',
  ],
  keys: [
    ['enter', 'start the client'],
    ['c', 'choose another client (claude, codex, gemini, opencode, qwen)'],
    ['r', 'look again'],
    ['j k', 'scroll'],
  ] as const,
};

export function StartScreen() {
  const session = useSession();
  const theme = session.theme;
  const { preview, reviewed, refresh, go, goProblem, tilde, nextClient } = useStartClient();
  const [confirming, setConfirming] = useState(false);
  const [going, setGoing] = useState(false);
  const viewport = Math.max(3, session.bodyHeight - 2);
  const scroll = useScroll(viewport);
  const changes = reviewed?.changes?.changed ?? [];
  const proceed = async () => {
    setConfirming(false);
    setGoing(true);
    await go();
    setGoing(false);
  };
  useScreenKeys((input, key) => {
    if (confirming) {
      if (input === 'y' || key.return) void proceed();
      else if (input === 'n' || key.escape) setConfirming(false);
      return true;
    }
    const move = movement(input, key, viewport - 1);
    if (move !== null) {
      scroll.scrollBy(move);
      return true;
    }
    if (going) return false;
    if (input === 'r') {
      refresh();
      return true;
    }
    if (input === 'c') {
      nextClient();
      return true;
    }
    if (key.return && reviewed && !reviewed.plan.refused) {
      if (changes.length > 0) setConfirming(true);
      else void proceed();
      return true;
    }
    return false;
  });
  const last = session.resume?.screen === 'start' ? session.resume.lastClient : undefined;
  const plan = reviewed?.plan;
  let body;
  if ((preview.phase === 'running' || preview.phase === 'idle') && !reviewed) {
    body = (
      <Text>
        <Spinner theme={theme} /> Checking the proxy and the client settings…
      </Text>
    );
  } else if (preview.phase === 'failed' && !reviewed) {
    body = <Problem message={preview.problem.message} remedy={preview.problem.remedy} theme={theme} />;
  } else if (plan && reviewed) {
    body = (
      <>
        {reviewed.changedSinceReview && <Text color={theme.color('warn')}>{theme.symbols.warn} The situation changed since you looked: review the plan again.</Text>}
        <Field label="Route" theme={theme}>
          <Text>
            <Text bold>{plan.route.kind}</Text> → {plan.route.baseUrl ?? "the client's default upstream"}
          </Text>
        </Field>
        <Field label="Why" theme={theme}>
          {plan.route.reason}
        </Field>
        <Field label="Client" theme={theme}>
          <Text>
            <Text bold>{plan.profile}</Text> {[plan.client.path ?? `${plan.client.command} (not installed)`, ...plan.client.args].join(' ')}
          </Text>
        </Field>
        {!plan.refused && (
          <Field label="Model" theme={theme}>
            {modelSummary(plan.model)}
          </Field>
        )}
        <Field label="Variables" theme={theme}>
          {Object.entries(plan.client.env)
            .map(([k, v]) => (v === null ? `${k} unset` : `${k}=${v}`))
            .join('  ')}
        </Field>
        {plan.isolation && (
          <Field label="Isolated" theme={theme}>
            {`${Object.keys(plan.isolation.env).join(', ')} → a temporary ${plan.isolation.files.join(', ')} (removed when the client exits)${plan.isolation.carried.length ? `; kept: ${plan.isolation.carried.map(tilde).join('; ')}` : ''}`}
          </Field>
        )}
        {plan.stripped.length > 0 && (
          <Field label="Stripped" theme={theme}>
            {`${plan.stripped.join(', ')} (vendor credentials in this shell, kept away from the client)`}
          </Field>
        )}
        {plan.warnings
          .filter((w) => !w.removedByStart)
          .map((w, i) => (
            <Field key={i} label="Warning" theme={theme}>
              <Text color={theme.color('warn')}>
                {theme.symbols.warn} {w.cause}: {w.message}
              </Text>
            </Field>
          ))}
        {plan.refused ? (
          <Box flexDirection="column" marginTop={1}>
            <Problem message={`Start refused [${plan.refused.cause}]: ${plan.refused.message}`} remedy={plan.refused.remedy} commands={plan.refused.commands} theme={theme} />
            <Text color={theme.color('muted')}>Nothing was changed and the client was not started.</Text>
          </Box>
        ) : (
          <>
            {changes.length === 0 ? (
              <Field label="Settings" theme={theme}>
                no pinned base address or credential found
              </Field>
            ) : (
              changes.map((file) => (
                <Field key={file.file} label="Settings" theme={theme}>
                  {`${tilde(file.file)}: will be backed up; remove ${file.removed.map(describeEntry).join(', ')}`}
                </Field>
              ))
            )}
            <Field label="Afterwards" theme={theme}>
              {reviewed.afterClient === 'exit' ? "gwctl exits with the client's exit code" : 'back to gwctl'}
              {' (setting tui.afterClient)'}
            </Field>
            <Text>
              {going ? <Spinner theme={theme} /> : null}
              <Text bold color={theme.color('accent')}>
                {going ? ' starting…' : 'enter'}
              </Text>
              {going ? '' : ` start ${plan.client.command}${changes.length ? ' (asks before changing files)' : ''}`}
              {going ? '' : plan.client.path ? '' : ' (not installed: the start will fail)'}
            </Text>
          </>
        )}
        {goProblem && <Problem message={goProblem.message} remedy={goProblem.remedy} theme={theme} />}
      </>
    );
  }
  return (
    <ScreenFrame title="Start client" hints={confirming ? [['y', 'back up, clean and start'], ['n', 'cancel']] : [['enter', 'start'], ['c', 'client'], ['r', 'look again'], ['j/k', 'scroll'], BACK, HELP]} help={START_HELP}>
      {last && (
        <Text color={theme.color(last.exitCode === 0 ? 'pass' : 'warn')}>
          {last.exitCode === 0 ? theme.symbols.pass : theme.symbols.warn} {last.command} exited with code {last.exitCode}
        </Text>
      )}
      {confirming && reviewed ? (
        <ConfirmDialog
          title={`Back up and change ${changes.length} file${changes.length === 1 ? '' : 's'}, then start ${reviewed.plan.client.command}?`}
          changes={changes.map((f) => `${tilde(f.file)}: back up, then remove ${f.removed.map(describeEntry).join(', ')}`)}
          notes={['Undo later with: gwctl start --restore (or Client config → restore)']}
          confirmLabel="back up, clean and start"
          theme={theme}
        />
      ) : (
        <ScrollBox height={viewport - (last ? 1 : 0)} offset={scroll.offset} contentHeight={scroll.contentHeight} onContentHeight={scroll.onContentHeight} theme={theme}>
          {body}
        </ScrollBox>
      )}
      <ByHand command={`gwctl start${plan && plan.profile !== 'claude' ? ` --profile ${plan.profile}` : ''}   (--dry-run shows the plan only)`} theme={theme} />
    </ScreenFrame>
  );
}
