// Reads the API key from a request's headers and names any form problem without echoing the key.
import { GatewayError } from '../errors/gateway-error.ts';

export interface CredentialSources {
  authorization?: string;
  xApiKey?: string;
  /** Whether x-api-key is accepted on this route (messages protocol and model list). */
  allowXApiKey: boolean;
}

const REMEDY = 'Copy the key again from the keys page and send it as `Authorization: Bearer <API_KEY>`.';

function unauthorized(code: string, message: string): GatewayError {
  return new GatewayError(401, code, message);
}

/** Returns the key value, or throws a 401 that names the form problem. */
export function extractApiKey(sources: CredentialSources): string {
  const { authorization, xApiKey, allowXApiKey } = sources;
  if (allowXApiKey && xApiKey !== undefined && xApiKey !== '') return checkKeyForm(xApiKey, 'x-api-key header');
  if (authorization === undefined || authorization === '') {
    const forms = allowXApiKey ? '`Authorization: Bearer <API_KEY>` or `x-api-key: <API_KEY>`' : '`Authorization: Bearer <API_KEY>`';
    throw unauthorized('missing_api_key', `No API key was sent. Send the header ${forms}.`);
  }
  const match = /^(\S+)( +)([\s\S]*)$/.exec(authorization);
  if (!match || match[1]!.toLowerCase() !== 'bearer') {
    const looksLikeKey = /^["'“”‘’]?sk-/.test(authorization.trim());
    const detail = looksLikeKey
      ? 'it carries the key without the word "Bearer" in front'
      : `its scheme is "${(match?.[1] ?? authorization).slice(0, 12).replace(/[^\x20-\x7e]/g, '?')}" instead of "Bearer"`;
    throw unauthorized('malformed_authorization', `The Authorization header must have the form \`Bearer <API_KEY>\`, but ${detail}. ${REMEDY}`);
  }
  if (match[2]!.length > 1) {
    throw unauthorized('malformed_authorization', `The Authorization header has more than one space after "Bearer". ${REMEDY}`);
  }
  return checkKeyForm(match[3]!, 'Authorization header');
}

export interface GeminiCredentialSources {
  authorization?: string;
  googApiKey?: string;
  /** The `key` query parameter. */
  queryKey?: string;
}

/**
 * The key of a Gemini API request: `x-goog-api-key` (what the Gemini SDKs and CLI send), the `key`
 * query parameter, or `Authorization: Bearer`. The problem is named, never the value.
 */
export function extractGeminiKey(sources: GeminiCredentialSources): string {
  if (sources.googApiKey !== undefined && sources.googApiKey !== '') return checkKeyForm(sources.googApiKey, 'x-goog-api-key header');
  if (sources.queryKey !== undefined && sources.queryKey !== '') return checkKeyForm(sources.queryKey, '`key` query parameter');
  if (sources.authorization === undefined || sources.authorization === '') {
    throw unauthorized('missing_api_key', 'No API key was sent. Send it as the header `x-goog-api-key: <API_KEY>` (GEMINI_API_KEY for Gemini clients), as `?key=<API_KEY>`, or as `Authorization: Bearer <API_KEY>`.');
  }
  return extractApiKey({ authorization: sources.authorization, allowXApiKey: false });
}

function checkKeyForm(value: string, where: string): string {
  if (value === '') throw unauthorized('missing_api_key', `The ${where} carries no key. ${REMEDY}`);
  if (/[\r\n]/.test(value)) throw unauthorized('malformed_api_key', `The key in the ${where} contains a line break. ${REMEDY}`);
  if (/^["'“”‘’].*["'“”‘’]$/s.test(value)) {
    throw unauthorized('malformed_api_key', `The key in the ${where} is wrapped in quotes; send the bare key. ${REMEDY}`);
  }
  // Node decodes header bytes as latin1, so a UTF-8 typographic quote arrives as "â\x80\x9c".
  if (/[“”‘’]|â\x80[\x98\x99\x9c\x9d]/.test(value)) {
    throw unauthorized('malformed_api_key', `The key in the ${where} contains a typographic quote (“ ” ‘ ’), usually pasted from a document. ${REMEDY}`);
  }
  if (/\s/.test(value)) throw unauthorized('malformed_api_key', `The key in the ${where} contains a space or tab. ${REMEDY}`);
  if (/[^\x21-\x7e]/.test(value)) {
    throw unauthorized('malformed_api_key', `The key in the ${where} contains non-ASCII characters. ${REMEDY}`);
  }
  return value;
}
