// `gwctl login` as an operation: discovery, a device code, the approval address shown (and opened
// when the caller can), then polling at the gateway's pace until someone approves or denies it or
// the code expires. Returns the record to keep; never prints a token.
import { DEVICE_CODE_GRANT, discover, requestDeviceAuthorization, requestTokens, SignInError, type DeviceAuthorization } from './gateway-oauth-client.ts';
import { gatewayKey, type SignInRecord } from './sign-in-record.ts';

export interface DeviceLoginDeps {
  /** Shows the code and address to the person (and opens a browser when it can). */
  show: (authorization: DeviceAuthorization) => void | Promise<void>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function deviceLogin(baseUrl: string, deps: DeviceLoginDeps): Promise<SignInRecord> {
  const gateway = gatewayKey(baseUrl);
  const sleep = deps.sleep ?? defaultSleep;
  const now = deps.now ?? Date.now;
  const meta = await discover(gateway);
  const authorization = await requestDeviceAuthorization(meta, 'gwctl');
  await deps.show(authorization);
  let intervalMs = Math.max(1, authorization.interval ?? 5) * 1000;
  const deadline = now() + authorization.expires_in * 1000;
  while (now() < deadline) {
    await sleep(intervalMs);
    const answer = await requestTokens(meta.token_endpoint, { grant_type: DEVICE_CODE_GRANT, device_code: authorization.device_code, client_id: 'gwctl' });
    if (answer.ok) {
      return {
        gateway,
        tokenEndpoint: meta.token_endpoint,
        ...(meta.revocation_endpoint ? { revocationEndpoint: meta.revocation_endpoint } : {}),
        refreshToken: answer.tokens.refresh_token,
        accessToken: answer.tokens.access_token,
        accessExpiresAt: now() + answer.tokens.expires_in * 1000,
      };
    }
    if (answer.error === 'authorization_pending') continue;
    if (answer.error === 'slow_down') {
      intervalMs += 5000;
      continue;
    }
    if (answer.error === 'access_denied') throw new SignInError('The sign-in was denied on the approval page.', 'Run `gwctl login` again and press Approve.');
    if (answer.error === 'expired_token') break;
    throw new SignInError(`The gateway refused the sign-in: ${answer.description}`, 'Run `gwctl login` again.');
  }
  throw new SignInError('Nobody approved the sign-in before the code expired.', 'Run `gwctl login` again and approve it within ten minutes.');
}
