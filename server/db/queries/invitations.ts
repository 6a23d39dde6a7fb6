import type { Db } from '../open.js';
import { stmt } from '../prepared.js';

export interface InvitationRow {
  id: number;
  email: string | null;
  confirmation_key: string;
  referred_by: number;
  invited_as: number;
  /** Seconds since the epoch. */
  invited_at: number;
  expires_at: number | null;
  include_default_channels: number;
  notify_referrer_on_join: number;
  welcome_message_custom_text: string | null;
  used_by: number | null;
  revoked: number;
}

export type NewInvitation = Omit<InvitationRow, 'id' | 'used_by' | 'revoked'>;

export function insertInvitation(db: Db, row: NewInvitation, streamIds: readonly number[]): number {
  const id = Number(
    stmt(
      db,
      `INSERT INTO invitations (email, confirmation_key, referred_by, invited_as, invited_at,
         expires_at, include_default_channels, notify_referrer_on_join, welcome_message_custom_text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      row.email,
      row.confirmation_key,
      row.referred_by,
      row.invited_as,
      row.invited_at,
      row.expires_at,
      row.include_default_channels,
      row.notify_referrer_on_join,
      row.welcome_message_custom_text,
    ).lastInsertRowid,
  );
  for (const streamId of streamIds) {
    stmt(db, 'INSERT INTO invitation_channels (invitation_id, stream_id) VALUES (?, ?)').run(
      id,
      streamId,
    );
  }
  return id;
}

export const invitationById = (db: Db, id: number) =>
  stmt<[number], InvitationRow>(db, 'SELECT * FROM invitations WHERE id = ?').get(id);

export const invitationByKey = (db: Db, key: string) =>
  stmt<[string], InvitationRow>(db, 'SELECT * FROM invitations WHERE confirmation_key = ?').get(
    key,
  );

/** Invitations still usable at `now` (seconds): not used, not revoked, not expired; oldest first. */
export const openInvitations = (db: Db, now: number) =>
  stmt<[number], InvitationRow>(
    db,
    `SELECT * FROM invitations
     WHERE used_by IS NULL AND revoked = 0 AND (expires_at IS NULL OR expires_at >= ?)
     ORDER BY id`,
  ).all(now);

export const invitationChannelIds = (db: Db, id: number) =>
  stmt<[number], { stream_id: number }>(
    db,
    'SELECT stream_id FROM invitation_channels WHERE invitation_id = ? ORDER BY stream_id',
  )
    .all(id)
    .map((r) => r.stream_id);

export const setInvitationRevoked = (db: Db, id: number) =>
  stmt(db, 'UPDATE invitations SET revoked = 1 WHERE id = ?').run(id);

export const setInvitationUsed = (db: Db, id: number, userId: number) =>
  stmt(db, 'UPDATE invitations SET used_by = ? WHERE id = ?').run(userId, id);

/** A new invitation's time and expiry (resending restarts both). */
export const renewInvitation = (db: Db, id: number, invitedAt: number, expiresAt: number | null) =>
  stmt(db, 'UPDATE invitations SET invited_at = ?, expires_at = ? WHERE id = ?').run(
    invitedAt,
    expiresAt,
    id,
  );

/** Other open e-mail invitations for an address, which an account made for it ends. */
export const revokeEmailInvitationsFor = (db: Db, email: string) =>
  stmt(
    db,
    `UPDATE invitations SET revoked = 1
     WHERE email IS NOT NULL AND lower(email) = lower(?) AND used_by IS NULL`,
  ).run(email);
