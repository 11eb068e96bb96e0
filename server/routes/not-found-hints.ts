// 404 answers that say what the caller probably meant: a doubled /v1, the other listener,
// or a missing /v1 in a chat-completions or AI-SDK messages base URL.
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewaySettings } from '../gateway-deps.ts';

const TEXT_PATHS = /^\/(v1\/)?(chat\/completions|completions|messages|embeddings|responses)(\/|$)/;
const IMAGE_PATHS = /^\/(v1\/)?images\//;

function doubledV1(path: string, request: FastifyRequest, settings: GatewaySettings, imageApi: boolean): GatewayError | undefined {
  if (!/^\/v1\/v1(\/|$)/.test(path)) return undefined;
  const fixed = path.replace(/^(\/v1)+/, '/v1');
  const base = imageApi ? settings.publicImageUrl : settings.publicUrl;
  const advice =
    request.gateway?.surface === 'messages'
      ? `A messages-protocol client adds /v1/messages itself: set its base address to ${settings.publicUrl} (without /v1).`
      : `Set the client's base URL to ${base}/v1 (once), so requests go to ${base}${fixed}.`;
  return new GatewayError(404, 'doubled_v1', `The URL ${path} carries /v1 twice: the base URL already ends in /v1 and the client added another. ${advice}`);
}

/** The path as echoed in messages: a long one is cut, so an answer never grows with the URL. */
function requestPath(request: FastifyRequest): string {
  const path = request.url.split('?', 1)[0]!;
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

/** A Gemini client whose base URL carries a version: the client adds /v1beta itself. */
function geminiVersionTwice(path: string, settings: GatewaySettings): GatewayError | undefined {
  if (!/^\/v1(beta)?\/v1beta\//.test(path)) return undefined;
  return new GatewayError(
    404,
    'doubled_version',
    `The URL ${path} carries the API version twice: a Gemini client adds /v1beta itself. Set its base URL (GOOGLE_GEMINI_BASE_URL) to ${settings.publicUrl}, without /v1 or /v1beta.`,
  );
}

export function textNotFound(settings: GatewaySettings) {
  return (request: FastifyRequest): GatewayError => {
    const path = requestPath(request);
    const geminiDoubled = geminiVersionTwice(path, settings);
    if (geminiDoubled) return geminiDoubled;
    const doubled = doubledV1(path, request, settings, false);
    if (doubled) return doubled;
    if (IMAGE_PATHS.test(path)) {
      return new GatewayError(404, 'wrong_address', `Image generation is not served on the text API address. Use the image API: ${settings.publicImageUrl}/v1/images/generations.`);
    }
    if (/^\/messages(\/|$)/.test(path)) {
      // AI-SDK clients (OpenCode, Kilo, Cline with @ai-sdk/anthropic) append /messages to their base URL.
      return new GatewayError(
        404,
        'missing_v1',
        `Unknown path ${path}: messages are served at ${settings.publicUrl}/v1/messages. Add /v1 to this client's base URL (${settings.publicUrl}/v1): it appends /messages itself. Clients that append /v1/messages (the Anthropic SDK) take ${settings.publicUrl} without /v1.`,
      );
    }
    if (!path.startsWith('/v1/') && TEXT_PATHS.test(path)) {
      return new GatewayError(404, 'missing_v1', `Unknown path ${path}. The API lives under /v1: use ${settings.publicUrl}/v1 as a chat-completions base URL (requests go to ${settings.publicUrl}/v1${path}).`);
    }
    return new GatewayError(
      404,
      'not_found',
      `Unknown path: ${request.method} ${path}. This address serves ${settings.publicUrl}/v1/models, /v1/chat/completions, /v1/responses, /v1/embeddings and /v1/messages.`,
    );
  };
}

export function imageNotFound(settings: GatewaySettings) {
  return (request: FastifyRequest): GatewayError => {
    const path = requestPath(request);
    const doubled = doubledV1(path, request, settings, true);
    if (doubled) return doubled;
    if (TEXT_PATHS.test(path)) {
      return new GatewayError(
        404,
        'wrong_address',
        `This is the image API (${settings.publicImageUrl}); text requests go to the text API: ${settings.publicUrl}/v1 for chat-completions clients, ${settings.publicUrl} for messages clients.`,
      );
    }
    return new GatewayError(404, 'not_found', `Unknown path: ${request.method} ${path}. The image API serves ${settings.publicImageUrl}/v1/images/generations and /v1/models.`);
  };
}
