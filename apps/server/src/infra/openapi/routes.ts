import { API_BASE } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { fixedAnswer } from '../web/compression';
import { openApiDocument } from './document';
import { referencePage } from './page';

export function registerOpenApi(app: FastifyInstance): void {
  // ~215 KB of JSON, the same until the server restarts: compressed once (brotli or gzip).
  app.get(
    `${API_BASE}/openapi.json`,
    fixedAnswer(() => JSON.stringify(openApiDocument()), 'application/json; charset=utf-8'),
  );
  app.get(`${API_BASE}/docs`, (_request, reply) => reply.type('text/html; charset=utf-8').send(referencePage()));
}
