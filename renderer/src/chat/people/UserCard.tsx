import { useEffect, useState } from 'react';
import { requestCompose } from '../compose/compose-control.js';
import type { ZulipApi } from '../data/api.js';
import type { User } from '../data/model.js';
import { useChat, useChatStore, useZulipApi } from '../data/store-context.js';
import { Avatar } from '../ui/Avatar.js';
import { actionFailure, reportActionError } from '../ui/action-errors.js';
import { Dialog } from '../ui/Dialog.js';
import { Emoji } from '../ui/Emoji.js';
import { goToNarrow } from '../ui/navigate.js';
import { useMinuteClock } from '../ui/use-minute-clock.js';
import {
  botOwner,
  botTypeName,
  isActiveUser,
  joinedText,
  lastSeenText,
  localTimeText,
  presenceStatus,
  roleName,
} from './people-model.js';
import { type ProfileData, type ProfileField, profileFieldRows } from './profile-fields.js';
import { StatusDialog } from './StatusDialog.js';

/** The organization's field definitions change rarely: one fetch per API client. */
const fieldDefinitions = new WeakMap<ZulipApi, Promise<ProfileField[]>>();

export function loadFieldDefinitions(api: ZulipApi): Promise<ProfileField[]> {
  let pending = fieldDefinitions.get(api);
  if (!pending) {
    pending = api
      .call<{ custom_fields: ProfileField[] }>('GET', '/realm/profile_fields')
      .then((answer) => answer.custom_fields)
      .catch(() => {
        fieldDefinitions.delete(api);
        return [];
      });
    fieldDefinitions.set(api, pending);
  }
  return pending;
}

/** The user's custom profile fields: from the state when register gave them, else fetched. */
function useProfileFields(user: User) {
  const api = useZulipApi();
  const users = useChat((s) => s.users);
  const [fields, setFields] = useState<ProfileField[]>([]);
  const [data, setData] = useState<ProfileData | undefined>(
    user.profile_data as ProfileData | undefined,
  );
  useEffect(() => {
    let live = true;
    void loadFieldDefinitions(api).then((loaded) => live && setFields(loaded));
    if (!user.profile_data && !user.is_bot) {
      api
        .call<{ user: { profile_data?: ProfileData } }>('GET', `/users/${user.user_id}`, {
          include_custom_profile_fields: true,
        })
        .then((answer) => live && setData(answer.user.profile_data))
        .catch(() => {
          // The card is complete without them.
        });
    }
    return () => {
      live = false;
    };
  }, [api, user.user_id, user.profile_data, user.is_bot]);
  return profileFieldRows(fields, data, users);
}

/** Zulip hides real addresses behind `user{id}@…` unless the organization shows them. */
function visibleEmail(user: User): string | null {
  if (typeof user.delivery_email === 'string' && user.delivery_email) return user.delivery_email;
  return /^user\d+@/.test(user.email) ? null : user.email;
}

/**
 * A user's card (Zulip's user popover), as a dialog: who they are, their
 * status and local time, and the ways to reach them.
 */
export function UserCard({
  user,
  onClose,
  onOpenUser,
}: {
  user: User;
  onClose: () => void;
  onOpenUser: (userId: number) => void;
}) {
  const store = useChatStore();
  const api = useZulipApi();
  const ownUserId = useChat((s) => s.ownUserId);
  const presence = useChat((s) => s.presence);
  const settings = useChat((s) => s.settings);
  const status = useChat((s) => s.userStatus.get(user.user_id));
  const realmEmoji = useChat((s) => s.realm.emoji);
  const owner = useChat((s) => (user.is_bot ? botOwner(s, user) : null));
  const muted = useChat((s) => s.mutedUserIds.has(user.user_id));
  const rows = useProfileFields(user);
  const now = useMinuteClock();
  const [editingStatus, setEditingStatus] = useState(false);

  const isSelf = user.user_id === ownUserId;
  const email = visibleEmail(user);
  const shown = presenceStatus({ ownUserId, presence, settings }, user.user_id);
  const seen = lastSeenText(shown, presence.get(user.user_id)?.last_active, now);
  const localTime = user.is_bot
    ? null
    : localTimeText(user.timezone, now, settings.twenty_four_hour_time === true);
  const joined = joinedText(user.date_joined);

  const go = (narrow: Parameters<typeof goToNarrow>[0]) => {
    onClose();
    goToNarrow(narrow, store.getState());
  };
  const toggleMute = () => {
    const what = muted ? `unmute ${user.full_name}` : `mute ${user.full_name}`;
    api
      .call(muted ? 'DELETE' : 'POST', `/users/me/muted_users/${user.user_id}`)
      .catch((err) => reportActionError(actionFailure(what, err)));
  };

  if (editingStatus) return <StatusDialog onClose={() => setEditingStatus(false)} />;

  return (
    <Dialog title={user.full_name} onClose={onClose} className="user-card">
      <div className="user-card-top" data-user-id={user.user_id}>
        <Avatar url={user.avatar_url} name={user.full_name} size={80} />
        <div className="user-card-facts">
          {!user.is_bot && (
            <p className={`user-card-presence presence-${shown}`}>
              <span className="presence-dot" aria-hidden="true" />
              {seen}
            </p>
          )}
          {!isActiveUser(user) && (
            <p className="user-card-deactivated">This user has been deactivated.</p>
          )}
          {(status?.status_text || status?.emoji_name) && (
            <p className="user-card-status">
              <Emoji emoji={status} realmEmoji={realmEmoji} /> {status.status_text}
            </p>
          )}
          <p className="user-card-role">
            {user.is_bot ? botTypeName(user.bot_type) : roleName(user)}
            {isSelf && ' (you)'}
          </p>
        </div>
      </div>
      <dl className="user-card-details">
        {email && (
          <>
            <dt>E-mail</dt>
            <dd>
              <a href={`mailto:${email}`}>{email}</a>
            </dd>
          </>
        )}
        {user.is_bot && owner && (
          <>
            <dt>Owner</dt>
            <dd>
              <button
                type="button"
                className="link-button"
                onClick={() => onOpenUser(owner.user_id)}
              >
                {owner.full_name}
              </button>
            </dd>
          </>
        )}
        {localTime && (
          <>
            <dt>Local time</dt>
            <dd>
              {localTime} <span className="user-card-zone">({user.timezone})</span>
            </dd>
          </>
        )}
        {joined && (
          <>
            <dt>Joined</dt>
            <dd>{joined.replace(/^Joined /, '')}</dd>
          </>
        )}
        {rows.map((row) => (
          <div key={row.id} className="user-card-field">
            <dt>{row.name}</dt>
            <dd>
              {row.url ? (
                <a href={row.url} target="_blank" rel="noopener noreferrer">
                  {row.text}
                </a>
              ) : (
                row.text
              )}
            </dd>
          </div>
        ))}
      </dl>
      <div className="user-card-actions">
        {isActiveUser(user) && (
          <button
            type="button"
            className="button primary"
            data-autofocus
            onClick={() => {
              // As Zulip's card does: the compose box opens to them, wherever one is.
              onClose();
              requestCompose({ target: { kind: 'direct', userIds: [user.user_id] } });
            }}
          >
            {isSelf ? 'Message yourself' : 'Send direct message'}
          </button>
        )}
        <button
          type="button"
          className="button"
          onClick={() => go([{ operator: 'sender', operand: user.user_id }])}
        >
          {isSelf ? 'View your messages' : 'View messages sent'}
        </button>
        {isSelf && (
          <button type="button" className="button" onClick={() => setEditingStatus(true)}>
            Set status
          </button>
        )}
        {!isSelf && (
          <button type="button" className="button" onClick={toggleMute}>
            {muted ? 'Unmute this user' : 'Mute this user'}
          </button>
        )}
      </div>
    </Dialog>
  );
}
