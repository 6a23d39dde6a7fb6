import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { deviceSetupUrl, qrCodeSvg } from '../hosting/index.js';
import { authorityProfile, tlsOf } from '../tls/index.js';
import { tlsSetupPage } from './tls-setup-page.js';

/** The page's own styles only; nothing runs, nothing else loads, no one frames it. */
const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'";

const notFoundJson = (reply: FastifyReply) => reply.code(404).send(notFound().toJSON());

/**
 * The installation's certificate authority for devices to install, without
 * credentials (a device that does not trust the server yet cannot log in
 * safely): `GET /tls/ca.crt` (PEM), `GET /tls/hearth.mobileconfig` (iOS),
 * `GET /tls/` (the steps, for phones that scan the QR code) and
 * `GET /tls/setup-qr.svg` (a QR code of that page). All 404 when the server
 * uses no authority of its own (plain HTTP, or the team's own certificate).
 * `GET /tls/info` always answers, so the chat's log-in page can ask whether
 * there is one without a failed request. Served over plain HTTP too
 * (tls-listener.ts).
 */
export function registerTlsFiles(app: FastifyInstance, ctx: AppContext): void {
  const authority = () => tlsOf(ctx)?.authority ?? null;
  const common = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };

  app.get('/tls/ca.crt', (_request, reply) => {
    const found = authority();
    if (!found) return notFoundJson(reply);
    return reply
      .headers({
        ...common,
        // What Android, Windows and macOS recognize as a CA certificate to install.
        'Content-Type': 'application/x-x509-ca-cert',
        'Content-Disposition': 'attachment; filename="hearth-ca.crt"',
      })
      .send(found.certPem);
  });

  app.get('/tls/hearth.mobileconfig', (_request, reply) => {
    const found = authority();
    if (!found) return notFoundJson(reply);
    return reply
      .headers({
        ...common,
        // Safari offers to install a profile of this type.
        'Content-Type': 'application/x-apple-aspen-config',
        'Content-Disposition': 'attachment; filename="hearth.mobileconfig"',
      })
      .send(authorityProfile(found.cert));
  });

  app.get('/tls/', (_request, reply) => {
    const found = authority();
    if (!found) return notFoundJson(reply);
    return reply
      .headers({
        ...common,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': PAGE_CSP,
        'Referrer-Policy': 'no-referrer',
      })
      .send(
        tlsSetupPage({
          fingerprint: found.cert.fingerprint256,
          authorityName: /CN=([^\n]*)/.exec(found.cert.subject)?.[1] ?? 'Hearth CA',
          chatUrl: ctx.config.externalUrl,
        }),
      );
  });

  app.get('/tls/info', (_request, reply) => {
    const found = authority();
    return reply.headers({ 'Cache-Control': 'no-cache' }).send({
      result: 'success',
      msg: '',
      authority: found !== null,
      fingerprint: found?.cert.fingerprint256 ?? null,
      setup_url: found ? deviceSetupUrl(ctx.config) : null,
    });
  });

  app.get('/tls/setup-qr.svg', async (_request, reply) => {
    if (!authority()) return notFoundJson(reply);
    return reply
      .headers({ ...common, 'Content-Type': 'image/svg+xml', 'Content-Security-Policy': PAGE_CSP })
      .send(await qrCodeSvg(deviceSetupUrl(ctx.config)));
  });
}
