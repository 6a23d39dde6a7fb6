/**
 * Hand-written response bodies that satisfy the reduced Zulip response schemas
 * in test/fixtures/zulip-openapi.json. openapi.test.ts uses them as known-good
 * bodies and mutates copies of them to prove the validator rejects bad ones.
 *
 * The values are invented (a Hearth server at http://127.0.0.1:9991 with
 * Ada Lovelace and Charles Babbage); nothing here is taken from the reference.
 * Each body is small but touches nested objects, arrays, nullable fields and
 * `$ref`s, so the schemas are exercised beyond their top level.
 */

type Obj = Record<string, unknown>;

const REALM_URL = 'http://127.0.0.1:9991';

/** Ada, the user the own-user and register bodies describe. */
const ADA = {
  user_id: 8,
  email: 'user8@127.0.0.1',
  delivery_email: 'ada@hearth.test',
  full_name: 'Ada Lovelace',
  avatar_url: `${REALM_URL}/avatar/8`,
};

const BODIES = {
  get_server_settings_200_response: {
    result: 'success',
    msg: '',
    authentication_methods: { password: true, dev: false, email: true, ldap: false, saml: false },
    external_authentication_methods: [],
    zulip_feature_level: 420,
    zulip_version: '11.0-hearth',
    zulip_merge_base: '11.0',
    push_notifications_enabled: false,
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_url: REALM_URL,
    realm_uri: REALM_URL,
    realm_name: 'Hearth Test Realm',
    realm_icon: `${REALM_URL}/static/hearth-icon.png`,
    realm_description: '<p>Where the Hearth tests talk.</p>',
    realm_web_public_access_enabled: false,
  },

  get_own_user_200_response: {
    result: 'success',
    msg: '',
    ...ADA,
    avatar_version: 1,
    is_admin: true,
    is_owner: true,
    role: 100,
    is_guest: false,
    is_bot: false,
    is_active: true,
    timezone: 'Europe/London',
    date_joined: '2025-01-06T09:00:00+00:00',
    max_message_id: 42,
    profile_data: {},
  },

  get_user_by_email_200_response: {
    result: 'success',
    msg: '',
    user: {
      user_id: 9,
      delivery_email: 'charles@hearth.test',
      email: 'user9@127.0.0.1',
      full_name: 'Charles Babbage',
      date_joined: '2025-01-07T14:30:00+00:00',
      is_active: true,
      is_owner: false,
      is_admin: false,
      is_guest: false,
      is_bot: false,
      bot_type: null,
      bot_owner_id: null,
      role: 400,
      timezone: '',
      avatar_url: `${REALM_URL}/avatar/9`,
      avatar_version: 2,
      profile_data: {
        '1': { value: 'Difference engines', rendered_value: '<p>Difference engines</p>' },
      },
    },
  },

  get_subscriptions_200_response: {
    result: 'success',
    msg: '',
    subscriptions: [
      {
        stream_id: 3,
        name: 'engines',
        description: 'Gears and **cards**',
        rendered_description: '<p>Gears and <strong>cards</strong></p>',
        date_created: 1736154000,
        creator_id: 8,
        invite_only: false,
        subscribers: [8, 9],
        desktop_notifications: null,
        email_notifications: null,
        wildcard_mentions_notify: null,
        push_notifications: null,
        audible_notifications: null,
        pin_to_top: false,
        is_muted: false,
        in_home_view: true,
        is_announcement_only: false,
        is_web_public: false,
        color: '#76ce90',
        stream_post_policy: 1,
        message_retention_days: null,
        history_public_to_subscribers: true,
        first_message_id: 17,
        folder_id: 1,
        topics_policy: 'inherit',
        is_recently_active: true,
        stream_weekly_traffic: null,
        can_add_subscribers_group: { direct_members: [8], direct_subgroups: [] },
        can_remove_subscribers_group: 11,
        can_administer_channel_group: 11,
        can_send_message_group: 14,
        can_subscribe_group: { direct_members: [], direct_subgroups: [14] },
        is_archived: false,
        subscriber_count: 2,
      },
    ],
  },

  register_queue_200_response: {
    result: 'success',
    msg: '',
    queue_id: '1736172000:3',
    last_event_id: -1,
    zulip_feature_level: 420,
    zulip_version: '11.0-hearth',
    zulip_merge_base: '11.0',
    max_message_id: 42,
    server_timestamp: 1736172000.25,
    realm_name: 'Hearth Test Realm',
    realm_url: REALM_URL,
    alert_words: ['engine'],
    muted_users: [],
    realm_emoji: {},
    presences: {},
    realm_can_create_groups: 11,
    realm_can_access_all_users_group: { direct_members: [8, 9], direct_subgroups: [] },
    user_id: ADA.user_id,
    email: ADA.email,
    delivery_email: ADA.delivery_email,
    full_name: ADA.full_name,
    avatar_url: ADA.avatar_url,
    is_admin: true,
    is_owner: true,
    is_guest: false,
  },

  get_events_200_response: {
    result: 'success',
    msg: '',
    queue_id: '1736172000:3',
    events: [
      { id: 0, type: 'heartbeat' },
      {
        id: 1,
        type: 'message',
        flags: ['read'],
        message: {
          id: 43,
          type: 'stream',
          stream_id: 3,
          display_recipient: 'engines',
          subject: 'punched cards',
          topic_links: [],
          recipient_id: 21,
          sender_id: 9,
          sender_email: 'user9@127.0.0.1',
          sender_full_name: 'Charles Babbage',
          sender_realm_str: 'hearth',
          avatar_url: null,
          client: 'website',
          content: '<p>The cards are ready.</p>',
          content_type: 'text/html',
          is_me_message: false,
          reactions: [
            {
              emoji_name: 'gear',
              emoji_code: '2699',
              reaction_type: 'unicode_emoji',
              user_id: 8,
            },
          ],
          submessages: [],
          timestamp: 1736172060,
        },
      },
      {
        id: 2,
        type: 'typing',
        op: 'start',
        message_type: 'direct',
        sender: { user_id: 9, email: 'user9@127.0.0.1' },
        recipients: [
          { user_id: 8, email: 'user8@127.0.0.1' },
          { user_id: 9, email: 'user9@127.0.0.1' },
        ],
      },
    ],
  },
} satisfies Record<string, Obj>;

export type BodySchema = keyof typeof BODIES;

/** A deep copy of the hand-written known-good body for a response schema. */
export function goodBody(schemaName: BodySchema): Obj {
  return structuredClone(BODIES[schemaName]) as Obj;
}
