// POST /web/api/images: the image app draws through the image provider path, usage counted for the
// user; each picture is kept in the user's history (image-history-api.ts serves and deletes them).
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { UpstreamError } from '../../providers/provider.ts';
import { readBody } from '../../relay/read-body.ts';
import { usageFromJson } from '../../usage/usage-extractor.ts';
import { costOf } from '../../usage/request-cost-of.ts';
import { checkCsrf, requireApi } from '../session/web-session.ts';
import { historyItem, registerImageHistoryApi } from './image-history-api.ts';
import { RequestAbort } from '../../relay/request-abort.ts';
import { recordUsage } from '../../usage/record-usage.ts';

export const WEB_IMAGE_SIZES = ['256x256', '512x512', '768x768', '1024x1024', '1024x768', '768x1024'];

interface ImagesBody {
  prompt: string;
  size: string;
  n: number;
  model?: string;
}

export function registerImagesApi(app: FastifyInstance, deps: GatewayDeps): void {
  registerImageHistoryApi(app, deps);
  app.post<{ Body: ImagesBody }>(
    '/web/api/images',
    {
      onRequest: requireApi(deps),
      preHandler: checkCsrf,
      schema: {
        body: {
          type: 'object',
          required: ['prompt', 'size', 'n'],
          properties: {
            prompt: { type: 'string', minLength: 1, maxLength: 4000 },
            size: { type: 'string', enum: WEB_IMAGE_SIZES },
            n: { type: 'integer', minimum: 1, maximum: 4 },
            model: { type: 'string', minLength: 1 },
          },
        },
      },
    },
    async (request, reply) => {
      const user = request.webUser!;
      const modelName = request.body.model ?? deps.router.list('image')[0]?.id;
      const route = modelName ? deps.router.resolve(modelName) : undefined;
      if (!route || route.model.kind !== 'image') return reply.code(404).send({ error: { message: `The image model "${modelName ?? ''}" is not available.` } });
      const json = { model: route.model.upstreamModel, prompt: request.body.prompt, n: request.body.n, size: request.body.size, response_format: 'b64_json' };
      const abort = new RequestAbort();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      let status = 200;
      let tokens = { inputTokens: 0, outputTokens: 0 };
      try {
        const response = await route.provider.send({
          operation: 'images',
          upstreamModel: route.model.upstreamModel,
          body: Buffer.from(JSON.stringify(json)),
          json,
          stream: false,
          query: '',
          headers: {},
          signal: abort,
        });
        status = response.status;
        const parsed = JSON.parse((await readBody(response.body, 256 * 1024 * 1024)).toString('utf8'));
        if (status >= 400) return reply.code(status).send({ error: { message: String(parsed?.error?.message ?? `The image provider answered ${status}.`) } });
        tokens = usageFromJson('openai', parsed);
        const drawn = (parsed.data as Array<{ b64_json?: string; revised_prompt?: string }>).filter((d) => typeof d.b64_json === 'string');
        const saved = await deps.store.imageHistory
          .save(
            user.id,
            drawn.map((d) => ({ prompt: request.body.prompt, model: route.model.id, size: request.body.size, png: Buffer.from(d.b64_json!, 'base64') })),
          )
          .catch((error: unknown) => {
            // The pictures were drawn and paid for: show them even if the history cannot keep them.
            request.log.warn({ err: error }, 'image history not saved');
            return undefined;
          });
        const images = drawn.map((d, i) => ({ b64: d.b64_json, revisedPrompt: d.revised_prompt ?? null, ...(saved ? historyItem(saved[i]!) : { id: null }) }));
        return { model: route.model.id, size: request.body.size, images, ...(saved ? {} : { historyError: 'These pictures could not be saved to your history; download the ones you want to keep now.' }) };
      } catch (error) {
        status = error instanceof UpstreamError ? (error.failure === 'timeout' ? 504 : 502) : 502;
        return reply.code(status).send({ error: { message: 'The image provider failed. Try again in a moment.' } });
      } finally {
        const images = typeof request.body.n === 'number' && request.body.n > 0 ? request.body.n : 1;
        const cost = costOf(deps.prices, { model: route.model.id, provider: route.provider.name, inputTokens: tokens.inputTokens, outputTokens: tokens.outputTokens, estimated: false, billed: status < 400, images, imageSize: request.body.size, at: Date.now() });
        recordUsage(deps, { userId: user.id, keyId: '', model: route.model.id, status, ...tokens, costMicros: cost.costMicros, reachedProvider: true });
        // The pictures (paid for) reach the browser once their usage is in the journal, as API answers do.
        const journal = deps.usageJournal;
        if (journal) await new Promise<void>((resolve) => journal.afterWrite(resolve));
      }
    },
  );
}
