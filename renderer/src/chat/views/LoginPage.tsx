import { type FormEvent, useEffect, useState } from 'react';
import { ApiError } from '../data/api.js';
import { loadOrganizationFace, type OrganizationFace } from '../data/organization.js';
import { logIn } from '../data/session.js';
import { TrustThisServer } from './TrustThisServer.js';

/** The organization's icon, name and description, once the server has said (the form does not wait). */
function useOrganizationFace(): OrganizationFace | null {
  const [face, setFace] = useState<OrganizationFace | null>(null);
  useEffect(() => {
    let live = true;
    loadOrganizationFace().then(
      (loaded) => live && setFace(loaded),
      () => {
        // Without it the page is still a log-in page.
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return face;
}

/**
 * The server's refusal, in words: its own text, except that being held up
 * after failed attempts says for how long.
 */
function loginError(err: unknown): string {
  if (err instanceof ApiError && err.code === 'RATE_LIMIT_HIT') {
    const minutes = Math.max(1, Math.ceil(Number(err.body['retry-after'] ?? 60) / 60));
    return `Too many failed attempts for this account from here. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * The organization (its icon, name and description, as Zulip's log-in page
 * shows them), then e-mail and password; the server's own error shown beside
 * the form, and `notice` (why the page asks again) above it.
 */
export function LoginPage({
  onLoggedIn,
  notice = null,
}: {
  onLoggedIn: () => void;
  notice?: string | null;
}) {
  const face = useOrganizationFace();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await logIn(email.trim(), password);
      onLoggedIn();
    } catch (err) {
      setError(loginError(err));
      setBusy(false);
    }
  };

  return (
    <main className="login-page">
      <form className="login-card" onSubmit={submit} aria-labelledby="login-title" noValidate>
        <header className="login-organization">
          {face?.iconUrl && (
            <img className="login-icon" src={face.iconUrl} alt="" width={56} height={56} />
          )}
          <h1 id="login-title">Log in to {face?.name ?? 'Hearth'}</h1>
          {face?.descriptionHtml && (
            <div
              className="login-description rendered-markdown"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: the server renders and sanitises it, as it does messages
              dangerouslySetInnerHTML={{ __html: face.descriptionHtml }}
            />
          )}
        </header>
        {notice && (
          <p className="login-notice" role="status">
            {notice}
          </p>
        )}
        <div className="field">
          <label htmlFor="login-email">E-mail</label>
          <input
            id="login-email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error ? 'login-error' : undefined}
          />
        </div>
        <div className="field">
          <label htmlFor="login-password">Password</label>
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error ? 'login-error' : undefined}
          />
        </div>
        <p id="login-error" className="form-error" role="alert">
          {error}
        </p>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
      <TrustThisServer />
    </main>
  );
}
