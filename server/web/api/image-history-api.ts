// The images app's history: GET /web/api/images (paged, metadata only), GET /web/api/images/{id}
// (the PNG; `?download=1` as an attachment) and DELETE /web/api/images/{id}. Only the owner reaches
// a picture; anyone else's id, like an unknown one, is 404.
import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../../gateway-deps.ts';
import { IMAGE_HISTORY_KEEP, type ImageHistoryEntry } from '../../store/image-history-repo.ts';
import { checkCsrf, requireApi } from '../session/web-session.ts';

const NOT_FOUND = { error: { message: 'No such picture in your history: it was deleted, fell out of the history, or the id is wrong.' } };
const ID_PARAMS = { type: 'object', properties: { id: { type: 'string', minLength: 1, maxLength: 64 } }, required: ['id'] } as const;

/** A file name made only of safe characters: the start of the prompt and the picture's id. */
export function downloadName(entry: Pick<ImageHistoryEntry, 'id' | 'prompt'>): string {
  const words = entry.prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `${words || 'image'}-${entry.id.replace(/[^A-Za-z0-9_]/g, '')}.png`;
}

export function historyItem(entry: ImageHistoryEntry) {
  return { ...entry, url: `/web/api/images/${entry.id}`, downloadUrl: `/web/api/images/${entry.id}?download=1` };
}

/** A query parameter as a whole number within bounds; undefined when it is anything else. */
function whole(value: string | undefined, fallback: number, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return fallback;
  if (!/^[0-9]{1,7}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

export function registerImageHistoryApi(app: FastifyInstance, deps: GatewayDeps): void {
  const onRequest = requireApi(deps);

  app.get<{ Querystring: { limit?: string; offset?: string } }>(
    '/web/api/images',
    { onRequest, schema: { querystring: { type: 'object', properties: { limit: { type: 'string' }, offset: { type: 'string' } } } } },
    async (request, reply) => {
      const limit = whole(request.query.limit, 24, 1, IMAGE_HISTORY_KEEP);
      const offset = whole(request.query.offset, 0, 0, 100_000);
      if (limit === undefined) return reply.code(400).send({ error: { message: `Check the query: limit must be a whole number from 1 to ${IMAGE_HISTORY_KEEP}.` } });
      if (offset === undefined) return reply.code(400).send({ error: { message: 'Check the query: offset must be a whole number from 0.' } });
      const { entries, total } = await deps.store.imageHistory.list(request.webUser!.id, { limit, offset });
      return { images: entries.map(historyItem), total, keep: IMAGE_HISTORY_KEEP, nextOffset: offset + entries.length < total ? offset + entries.length : null };
    },
  );

  app.get<{ Params: { id: string }; Querystring: { download?: string } }>(
    '/web/api/images/:id',
    {
      onRequest,
      schema: {
        params: ID_PARAMS,
        querystring: { type: 'object', properties: { download: { type: 'string', enum: ['0', '1'] } }, additionalProperties: false },
      },
    },
    async (request, reply) => {
      const found = await deps.store.imageHistory.find(request.webUser!.id, request.params.id);
      if (!found) return reply.code(404).send(NOT_FOUND);
      reply.type('image/png').header('cache-control', 'private, max-age=3600');
      if (request.query.download === '1') reply.header('content-disposition', `attachment; filename="${downloadName(found)}"`);
      return reply.send(found.png);
    },
  );

  app.delete<{ Params: { id: string } }>('/web/api/images/:id', { onRequest, preHandler: checkCsrf, schema: { params: ID_PARAMS } }, async (request, reply) => {
    if (!(await deps.store.imageHistory.delete(request.webUser!.id, request.params.id))) return reply.code(404).send(NOT_FOUND);
    return reply.code(204).send();
  });
}
