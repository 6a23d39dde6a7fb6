import type { Migration } from './index.js';

/**
 * Invitations (Zulip's PreregistrationUser with its Confirmation, and
 * MultiuseInvite): e-mail invitations for one address and reusable
 * invitation links, each with the secret key its link carries, the role it
 * grants, when it expires (NULL: never) and the channels it subscribes the
 * newcomer to. Hearth sends no e-mail: an e-mail invitation's link is shown
 * to copy. Ids are never reused (AUTOINCREMENT); clients keep them.
 */
export const invitations: Migration = {
  version: 10,
  name: 'invitations',
  up(db) {
    db.exec(`
      CREATE TABLE invitations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        -- NULL for a reusable link, else the one address it is for.
        email TEXT,
        confirmation_key TEXT NOT NULL UNIQUE,
        referred_by INTEGER NOT NULL REFERENCES users(id),
        invited_as INTEGER NOT NULL,
        invited_at INTEGER NOT NULL,
        expires_at INTEGER,
        include_default_channels INTEGER NOT NULL DEFAULT 0,
        notify_referrer_on_join INTEGER NOT NULL DEFAULT 1,
        welcome_message_custom_text TEXT,
        -- An e-mail invitation is used once; a link is revoked, never used up.
        used_by INTEGER REFERENCES users(id),
        revoked INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX invitations_by_referrer ON invitations(referred_by);
      CREATE TABLE invitation_channels (
        invitation_id INTEGER NOT NULL REFERENCES invitations(id) ON DELETE CASCADE,
        stream_id INTEGER NOT NULL REFERENCES streams(id),
        PRIMARY KEY (invitation_id, stream_id)
      ) WITHOUT ROWID;
    `);
  },
};
