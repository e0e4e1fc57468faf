import { API_BASE } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from './document';
import { referencePage } from './page';

export function registerOpenApi(app: FastifyInstance): void {
  app.get(`${API_BASE}/openapi.json`, (_request, reply) => reply.send(openApiDocument()));
  app.get(`${API_BASE}/docs`, (_request, reply) => reply.type('text/html; charset=utf-8').send(referencePage()));
}
