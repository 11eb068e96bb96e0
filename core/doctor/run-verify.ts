// `gwctl verify` as one operation: lint the key and the base URL, then ask for the model list.
import { keyLintCheck } from './checks/key-lint-check.ts';
import { keyPresent } from './checks/key-present.ts';
import { modelsList } from './checks/models-list.ts';
import { urlShape } from './checks/url-shape.ts';
import { maskCredential } from './mask-credential.ts';
import { toReport, type DoctorReport } from './report.ts';
import { runChecks, type RunOptions } from './runner.ts';
import { modelsUrlFor, type VerifyContext } from './verify-context.ts';

export interface VerifyReport extends DoctorReport {
  baseUrl: string;
  type: VerifyContext['routeType'];
  modelsUrl: string;
  key: { env: string; masked: string | null };
  /** Model ids when the request succeeded. */
  models: string[] | null;
}

export async function runVerify(ctx: VerifyContext, options: RunOptions = {}): Promise<VerifyReport> {
  const results = await runChecks([keyPresent, keyLintCheck, urlShape, modelsList], ctx, options);
  return {
    ...toReport(results),
    baseUrl: ctx.baseUrl,
    type: ctx.routeType,
    modelsUrl: modelsUrlFor(ctx),
    key: { env: ctx.keyVar, masked: ctx.key ? maskCredential(ctx.key) : null },
    models: ctx.call?.models ?? null,
  };
}
