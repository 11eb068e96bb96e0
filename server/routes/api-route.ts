// Registers a route shared by fastify and the fast lane: fastify always serves it (app.inject,
// and every request the lane leaves to it); the lane, when there is one, answers it on node:http.
import type { FastifyInstance } from 'fastify';
import type { ApiRoute } from '../api-exchange.ts';
import type { FastLane } from '../fast-lane/fast-lane.ts';

export function registerApiRoute(app: FastifyInstance, route: ApiRoute, lane: FastLane | undefined): void {
  app.post(route.url, { onRequest: route.authenticate, schema: { body: route.bodySchema } }, route.handler);
  lane?.add(route);
}
