import type { Migration } from './index.js';

/**
 * `browser_sessions`: the browser chat's and admin UI's logins (auth/
 * browser-session.ts). The cookie carries a random token; only its SHA-256
 * is stored, so a copy of the database (a backup) opens no session. Each
 * row has the CSRF token the page echoes on every request.
 *
 * Triggers end a user's sessions when their API key or password changes or
 * they are deactivated, and every session when the organization is
 * deactivated, so no writer of those columns has to remember it (Zulip's
 * delete_user_sessions at the same moments).
 */
export const browserSessions: Migration = {
  version: 14,
  name: 'browser sessions',
  up(db) {
    db.exec(`
      CREATE TABLE browser_sessions (
        id INTEGER PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        csrf_token TEXT NOT NULL,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_ms INTEGER NOT NULL,
        last_used_ms INTEGER NOT NULL
      );
      CREATE INDEX browser_sessions_by_user ON browser_sessions(user_id);

      CREATE TRIGGER browser_sessions_end_on_credentials
        AFTER UPDATE OF api_key, password_hash, is_active ON users
        WHEN OLD.api_key IS NOT NEW.api_key
          OR OLD.password_hash IS NOT NEW.password_hash
          OR (OLD.is_active = 1 AND NEW.is_active = 0)
        BEGIN DELETE FROM browser_sessions WHERE user_id = NEW.id; END;

      CREATE TRIGGER browser_sessions_end_on_realm_deactivation
        AFTER UPDATE OF deactivated ON realm
        WHEN NEW.deactivated AND NOT OLD.deactivated
        BEGIN DELETE FROM browser_sessions; END;
    `);
  },
};
