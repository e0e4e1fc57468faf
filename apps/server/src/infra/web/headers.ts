import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The policy the built console passes: its only script is the bundled module (no inline script,
 * no eval; 'wasm-unsafe-eval' lets the label kernel compile its WebAssembly, which cannot run
 * JavaScript), antd writes its CSS-in-JS into <style> elements (hence 'unsafe-inline' for styles
 * only), images come from the server, data: (QR codes) and blob: (template image uploads), and
 * the notice WebSocket goes to the same origin. Nothing may frame a page.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const STATIC_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  'cross-origin-opener-policy': 'same-origin',
};

/** The handheld page (/pda/) scans barcodes with the phone's camera: the one page allowed it. */
export const PDA_PATH = '/pda';
const PDA_PERMISSIONS_POLICY = STATIC_HEADERS['permissions-policy']?.replace('camera=()', 'camera=(self)') ?? '';

/** Whether a path is the handheld page or below it (/pda, /pda/, /pda/…), not /pdafoo. */
export function isPdaPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path === PDA_PATH || path.startsWith(`${PDA_PATH}/`) || path === `${PDA_PATH}.html`;
}

/** One year; sent only on answers that went out over TLS (directly or through a proxy saying so). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Whether the client reached us over TLS: our own listener, or a trusted proxy's X-Forwarded-Proto
 * (Fastify reads the header into request.protocol only from a peer in TRUST_PROXY).
 */
export function overTls(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/** Security headers on every answer: API, console, uploads, OpenAPI page and errors alike. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(STATIC_HEADERS);
    if (isPdaPath(request.url)) reply.header('permissions-policy', PDA_PERMISSIONS_POLICY);
    if (overTls(request)) reply.header('strict-transport-security', HSTS);
  });
}

/**
 * Browsers always send Origin on a WebSocket handshake; a page of another site must not open our
 * notice socket with a token it got hold of. Clients outside a browser send no Origin and are let
 * through (the token still decides). `publicUrl` names the console's public address when it
 * differs from the Host header (behind a proxy that rewrites Host).
 */
export function sameOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  let host: string;
  try {
    host = withoutDefaultPort(new URL(origin).host);
  } catch {
    return false;
  }
  if (host === withoutDefaultPort(request.headers.host ?? '')) return true;
  if (!publicUrl) return false;
  try {
    return host === withoutDefaultPort(new URL(publicUrl).host);
  } catch {
    return false;
  }
}

/** `shop.example:443`, `shop.example:80` and `shop.example` name the same site for this check. */
function withoutDefaultPort(host: string): string {
  return host.toLowerCase().replace(/:(80|443)$/, '');
}
