// GET /managed/settings for Claude Code's Cloud gateway sign-in: authenticated with the person's
// access token (or a key, x-api-key too), never counted as usage. ETag + If-None-Match → 304;
// 404 when there is no policy for the person.
import type { FastifyInstance } from 'fastify';
import { extractApiKey } from '../auth/credential-parser.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { checkExpiry } from '../limits/key-enforcement.ts';
import { managedSettingsFor } from './managed-settings.ts';

export function registerManagedSettings(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/managed/settings', async (request, reply) => {
    const credential = extractApiKey({ authorization: request.headers.authorization, xApiKey: request.headers['x-api-key'] as string | undefined, allowXApiKey: true });
    const auth = await deps.authenticator.authenticate(credential);
    checkExpiry(auth, (deps.now ?? Date.now)());
    const envelope = managedSettingsFor(auth, deps.settings.claudeManagedSettings);
    reply.header('cache-control', 'private, no-cache');
    if (!envelope) {
      return reply.code(404).send({ error: { message: 'No managed settings apply to this account.', type: 'not_found_error', code: 'no_managed_settings' } });
    }
    const etag = `"${envelope.checksum}"`;
    reply.header('etag', etag);
    const sent = request.headers['if-none-match'];
    if (sent && sent.split(',').map((t) => t.trim().replace(/^W\//, '')).includes(etag)) return reply.code(304).send();
    return reply.send(envelope);
  });
}
