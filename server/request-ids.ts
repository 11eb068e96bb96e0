// Request ids need to be unique, not secret: a random per-process prefix and a counter. Shared by
// fastify (genReqId), the fast lane and the raw client-error answers.
import { randomBase62 } from './auth/random-tokens.ts';

const REQUEST_ID_PREFIX = `req_${randomBase62(10)}`;
let requestCounter = 0;

export const nextRequestId = (): string => REQUEST_ID_PREFIX + (++requestCounter).toString(36).padStart(6, '0');
