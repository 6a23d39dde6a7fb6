/** Small chat states for the people-and-channels helpers. */
import type {
  Channel,
  Presence,
  Subscription,
  User,
} from '../../../renderer/src/chat/data/model.js';

export function user(id: number, name: string, extra: Partial<User> = {}): User {
  return {
    user_id: id,
    email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
    full_name: name,
    avatar_url: null,
    is_active: true,
    is_bot: false,
    role: 400,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    timezone: '',
    date_joined: '2025-03-05T10:00:00Z',
    ...extra,
  };
}

export const presence = (
  status: Presence['status'],
  last_active: number | null = null,
): Presence => ({
  status,
  last_active,
});

export function channel(id: number, name: string, extra: Partial<Channel> = {}): Channel {
  return {
    stream_id: id,
    name,
    description: '',
    rendered_description: '',
    invite_only: false,
    ...extra,
  };
}

export function subscription(
  id: number,
  name: string,
  extra: Partial<Subscription> = {},
): Subscription {
  return {
    ...channel(id, name),
    color: '#76ce90',
    pin_to_top: false,
    is_muted: false,
    desktop_notifications: null,
    ...extra,
  } as Subscription;
}
