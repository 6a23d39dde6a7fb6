import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { acceptInvitation, describeInvitation, type InvitationView } from '../invites/index.js';
import { escapeHtml } from '../shared/html.js';

/**
 * The page an invitation link opens (Zulip's /join/{key}/ for reusable
 * links, /accounts/do_confirm/{key} for e-mail invitations): the newcomer
 * picks a name and a password (and, with a reusable link, their address),
 * and the account is made; then they log in to the chat at `/`. A plain
 * form posted to itself: it works without scripts, and the chat's own
 * log-in takes over from there.
 */
const PATHS = ['/join/:key', '/accounts/do_confirm/:key'];

const CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; display: flex; justify-content: center; padding: 48px 16px; }
  main { width: 100%; max-width: 400px; }
  h1 { font-size: 1.5rem; margin: 0 0 8px; }
  p { line-height: 1.5; }
  label { display: block; margin: 16px 0 4px; font-weight: 600; }
  input { box-sizing: border-box; width: 100%; padding: 8px; font: inherit; }
  button, a.button { display: inline-block; margin-top: 24px; padding: 10px 16px; font: inherit;
    background: #9a3412; color: #fff; border: 0; border-radius: 6px; text-decoration: none; cursor: pointer; }
  .error { color: #b91c1c; border: 1px solid currentColor; border-radius: 6px; padding: 8px 12px; }
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

interface FormValues {
  email: string;
  fullName: string;
}

function formPage(view: InvitationView & { valid: true }, values: FormValues, error?: string) {
  const by = view.inviterName ? ` ${escapeHtml(view.inviterName)} invited you.` : '';
  const email =
    view.email === null
      ? `<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(values.email)}">`
      : `<p>Your account will use <strong>${escapeHtml(view.email)}</strong>.</p>`;
  return page(
    `Join ${view.realmName}`,
    `<h1>Join ${escapeHtml(view.realmName)}</h1>
<p>Create your account.${by}</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post">
${email}
<label for="full_name">Name</label>
<input id="full_name" name="full_name" autocomplete="name" required value="${escapeHtml(values.fullName)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required>
<button type="submit">Create account</button>
</form>`,
  );
}

function invalidPage(view: InvitationView) {
  return page(
    'Invitation not valid',
    `<h1>This invitation link is not valid</h1>
<p>It was revoked or used, or it has expired. Ask whoever invited you to ${escapeHtml(view.realmName)} for a new one.</p>`,
  );
}

function donePage(realmName: string, email: string) {
  return page(
    `Welcome to ${realmName}`,
    `<h1>Welcome to ${escapeHtml(realmName)}!</h1>
<p>Your account <strong>${escapeHtml(email)}</strong> is ready. Log in with it and your password,
in this browser or in any Zulip app (the mobile and terminal apps too) pointed at this server.</p>
<a class="button" href="/">Log in</a>`,
  );
}

function send(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .headers({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    })
    .send(html);
}

const field = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value : '';
};

export function registerSignupPage(app: FastifyInstance, ctx: AppContext): void {
  for (const path of PATHS) {
    app.get<{ Params: { key: string } }>(path, (request, reply) => {
      const view = describeInvitation(ctx, request.params.key);
      if (!view.valid) return send(reply, 404, invalidPage(view));
      return send(reply, 200, formPage(view, { email: '', fullName: '' }));
    });
    app.post<{ Params: { key: string } }>(path, async (request, reply) => {
      const view = describeInvitation(ctx, request.params.key);
      if (!view.valid) return send(reply, 404, invalidPage(view));
      const values = {
        email: field(request.body, 'email'),
        fullName: field(request.body, 'full_name'),
      };
      try {
        const created = await acceptInvitation(ctx, request.params.key, {
          ...values,
          password: field(request.body, 'password'),
        });
        return send(reply, 200, donePage(view.realmName, created.email));
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return send(reply, 400, formPage(view, values, err.message));
      }
    });
  }
}
