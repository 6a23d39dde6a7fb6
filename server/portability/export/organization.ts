import type Database from 'better-sqlite3';
import { channelPermissionDefaults } from '../../channels/index.js';
import type { UserGroupRow } from '../../db/queries/user-groups.js';
import type { UserRow } from '../../db/queries/users.js';
import { storedPermissions } from '../../groups/index.js';
import type { StoredGroupSetting } from '../../shared/group-settings.js';
import { realmSettingDefaults } from '../../shared/realm-settings.js';
import { userSettingDefaults } from '../../shared/user-settings.js';
import { apiEmail, notificationBotAddress } from '../../users/index.js';
import type { ExportProfile } from '../profiles/index.js';
import type { ExportIds } from './ids.js';

type Row = Record<string, unknown>;
/** Zulip keeps times as float UNIX seconds (floatify_datetime_fields). */
export const seconds = (ms: number | null) => (ms === null ? null : ms / 1000);

const FK_SETTINGS: Record<string, string> = {
  moderation_request_channel_id: 'moderation_request_channel',
  new_stream_announcements_stream_id: 'new_stream_announcements_stream',
  signup_announcements_stream_id: 'signup_announcements_stream',
  zulip_update_announcements_stream_id: 'zulip_update_announcements_stream',
};

/**
 * What an export holds, as Zulip defines its export types: `full` (the
 * command line's export: everything), `public` (no direct messages, no
 * private channels' messages, no one's private data) and `consent` (private
 * data only of people who allowed it: allow_private_data_export).
 */
export type ExportScope = 'full' | 'public' | 'consent';

/** The name Hearth uses for the client of rows that have none (user status, empty names). */
export const DEFAULT_CLIENT = 'Hearth';

interface RealmRow {
  name: string;
  description: string;
  email_domain: string;
  date_created: number;
  deactivated: number;
  settings: string;
}

/**
 * Everything realm.json holds that is sized by people and channels, not by
 * messages: read from the snapshot and shaped as Zulip's tables. Messages,
 * their per-user rows and reactions are streamed elsewhere.
 */
export class OrganizationTables {
  readonly realm: RealmRow;
  readonly users: UserRow[];
  /** The Notification Bot, which becomes Zulip's cross-realm bot. */
  readonly notificationBotId: number | null;
  readonly tables: Record<string, Row[]> = {};
  readonly clientIds = new Map<string, number>();
  /** Settings Hearth has and Zulip 12 has no column for: reported, not written. */
  readonly droppedSettings = new Set<string>();
  /** Extra DM groups scheduled messages need (member key -> id). */
  private readonly dmGroupIds = new Map<string, number>();
  private nextDmGroupId: number;
  private groupIdsByName = new Map<string, number>();
  private nextAnonymousGroupId: number;

  constructor(
    private readonly db: Database.Database,
    private readonly profile: ExportProfile,
    private readonly ids: ExportIds,
    private readonly exportedAtMs: number,
    readonly scope: ExportScope = 'full',
  ) {
    this.realm = db.prepare('SELECT * FROM realm WHERE id = 1').get() as RealmRow;
    if (!this.realm) throw new Error('this data directory has no organization to export');
    this.users = db.prepare('SELECT * FROM users ORDER BY id').all() as UserRow[];
    const botAddress = notificationBotAddress(this.realm.email_domain).toLowerCase();
    this.notificationBotId =
      this.users.find((u) => u.is_bot && u.bot_owner_id === null && u.email_key === botAddress)
        ?.id ?? null;
    this.nextDmGroupId =
      (db.prepare('SELECT coalesce(max(id), 0) AS m FROM dm_groups').get() as { m: number }).m + 1;
    for (const g of db.prepare('SELECT id, name FROM user_groups').all() as {
      id: number;
      name: string;
    }[]) {
      this.groupIdsByName.set(g.name, g.id);
    }
    this.nextAnonymousGroupId =
      (db.prepare('SELECT coalesce(max(id), 0) AS m FROM user_groups').get() as { m: number }).m +
      1;
    this.clientId(DEFAULT_CLIENT);
    for (const u of this.users) {
      const consented =
        scope === 'full' ||
        (scope === 'consent' &&
          (JSON.parse(u.settings) as { allow_private_data_export?: boolean })
            .allow_private_data_export === true);
      if (consented) this.consenting.add(u.id);
    }
    this.privateStreams = new Set(
      (db.prepare('SELECT id FROM streams WHERE invite_only = 1').all() as { id: number }[]).map(
        (r) => r.id,
      ),
    );
  }

  /** People whose private data this export may hold (everyone in a full export). */
  readonly consenting = new Set<number>();
  readonly privateStreams: Set<number>;
  /** DM groups this export holds: all in a full one, those with a consenting member with consent, none public. */
  readonly exportedDmGroups = new Set<number>();

  private mayHoldPrivateDataOf = (userId: unknown) => this.consenting.has(userId as number);

  private all<T = Row>(sql: string): T[] {
    return this.db.prepare(sql).all() as T[];
  }

  clientId(name: string): number {
    const key = name || DEFAULT_CLIENT;
    let id = this.clientIds.get(key);
    if (id === undefined) {
      id = this.clientIds.size + 1;
      this.clientIds.set(key, id);
    }
    return id;
  }

  /** Users that are exported as rows (everyone but the cross-realm Notification Bot). */
  get realmUsers(): UserRow[] {
    return this.users.filter((u) => u.id !== this.notificationBotId);
  }

  build(): void {
    const t = this.tables;
    t.zerver_usergroup = [];
    t.zerver_namedusergroup = [];
    t.zerver_usergroupmembership = [];
    t.zerver_groupgroupmembership = [];
    this.buildGroups();
    t.zerver_realm = [this.realmRow()];
    t.zerver_userprofile = this.realmUsers.map((u) => this.userRow(u));
    t.zerver_userprofile_mirrordummy = [];
    t.zerver_userprofile_crossrealm =
      this.notificationBotId === null
        ? []
        : [
            {
              id: this.notificationBotId,
              email: this.profile.cross_realm_bots[0],
              recipient_id: this.ids.personalRecipient(this.notificationBotId),
            },
          ];
    this.buildStreams();
    this.buildRecipientsAndSubscriptions();
    this.buildSmallTables();
    this.buildScheduledMessages();
    this.closeClients();
  }

  /** zerver_client as of now: call again once the messages have named theirs. */
  closeClients(): void {
    this.tables.zerver_client = [...this.clientIds].map(([name, id]) => ({ id, name }));
  }

  // --- groups -------------------------------------------------------------

  /** A stored group-setting value as the id of a zerver_usergroup row. */
  groupSettingId(value: StoredGroupSetting): number {
    if (typeof value === 'number') return value;
    if (typeof value === 'string') {
      const id = this.groupIdsByName.get(value);
      if (id === undefined) throw new Error(`group setting names an unknown group "${value}"`);
      return id;
    }
    const id = this.nextAnonymousGroupId++;
    this.tables.zerver_usergroup!.push({ id, realm: 1 });
    for (const userId of value.direct_members) {
      this.tables.zerver_usergroupmembership!.push({
        id: this.ids.next('usergroupmembership'),
        user_group: id,
        user_profile: userId,
      });
    }
    for (const subgroup of value.direct_subgroups) {
      this.tables.zerver_groupgroupmembership!.push({
        id: this.ids.next('groupgroupmembership'),
        supergroup: id,
        subgroup,
      });
    }
    return id;
  }

  private buildGroups(): void {
    const t = this.tables;
    const groups = this.all<UserGroupRow>('SELECT * FROM user_groups ORDER BY id');
    for (const g of groups) t.zerver_usergroup!.push({ id: g.id, realm: 1 });
    for (const m of this.all<{ group_id: number; user_id: number }>(
      'SELECT group_id, user_id FROM user_group_members ORDER BY group_id, user_id',
    )) {
      if (m.user_id === this.notificationBotId) continue;
      t.zerver_usergroupmembership!.push({
        id: this.ids.next('usergroupmembership'),
        user_group: m.group_id,
        user_profile: m.user_id,
      });
    }
    for (const s of this.all<{ group_id: number; subgroup_id: number }>(
      'SELECT group_id, subgroup_id FROM user_group_subgroups ORDER BY group_id, subgroup_id',
    )) {
      t.zerver_groupgroupmembership!.push({
        id: this.ids.next('groupgroupmembership'),
        supergroup: s.group_id,
        subgroup: s.subgroup_id,
      });
    }
    const settingNames = this.profile.group_settings.zerver_namedusergroup ?? [];
    for (const g of groups) {
      const stored = storedPermissions(g) as Record<string, StoredGroupSetting>;
      const row: Row = {
        id: g.id,
        usergroup_ptr: g.id,
        realm_for_sharding: 1,
        name: g.name,
        description: g.description,
        is_system_group: g.is_system_group === 1,
        deactivated: g.deactivated === 1,
        date_created: g.date_created,
        creator: g.creator_id === this.notificationBotId ? null : g.creator_id,
      };
      for (const name of settingNames) {
        const value = stored[name];
        if (value === undefined) throw new Error(`Hearth has no user-group setting ${name}`);
        row[name] = this.groupSettingId(value);
      }
      t.zerver_namedusergroup!.push(row);
    }
  }

  // --- realm and users ----------------------------------------------------

  private realmRow(): Row {
    const allowed = new Set(this.profile.tables.zerver_realm!.allowed);
    const groupSettings = new Set(this.profile.group_settings.zerver_realm);
    const enums = this.profile.enums;
    const settings: Record<string, unknown> = {
      ...realmSettingDefaults,
      ...(JSON.parse(this.realm.settings) as Record<string, unknown>),
    };
    const row: Row = {
      id: 1,
      name: this.realm.name,
      string_id: '',
      description: this.realm.description,
      date_created: this.realm.date_created,
      deactivated: this.realm.deactivated === 1,
    };
    for (const [name, value] of Object.entries(settings)) {
      if (name in FK_SETTINGS) {
        row[FK_SETTINGS[name]!] = value === -1 || value === null ? null : value;
      } else if (groupSettings.has(name)) {
        row[name] = this.groupSettingId(value as StoredGroupSetting);
      } else if (name === 'message_edit_history_visibility_policy') {
        row[name] = enums.message_edit_history_visibility_policy[value as string];
      } else if (name === 'topics_policy') {
        row[name] = enums.realm_topics_policy[value as string];
      } else if (allowed.has(name)) {
        row[name] = value;
      } else {
        this.droppedSettings.add(`realm.${name}`);
      }
    }
    return row;
  }

  private userRow(u: UserRow): Row {
    const allowed = new Set(this.profile.tables.zerver_userprofile!.allowed);
    const own = this.consenting.has(u.id);
    const settings: Record<string, unknown> = {
      ...userSettingDefaults,
      // Someone who did not consent keeps the defaults, as in Zulip's consent exports.
      ...(own ? (JSON.parse(u.settings) as Record<string, unknown>) : {}),
    };
    const email = apiEmail(u, this.realm.email_domain);
    const row: Row = {
      id: u.id,
      realm: 1,
      email,
      // An address its owner hides does not leave in a public or consent export.
      delivery_email: own || u.is_bot ? u.delivery_email : email,
      full_name: u.full_name,
      date_joined: seconds(u.date_joined_ms),
      last_login: seconds(u.last_login_ms),
      last_reminder: null,
      is_active: u.is_active === 1,
      is_bot: u.is_bot === 1,
      bot_type: u.is_bot ? u.bot_type : null,
      bot_owner: u.bot_owner_id === this.notificationBotId ? null : u.bot_owner_id,
      role: u.role,
      long_term_idle: false,
      last_active_message_id: null,
      is_mirror_dummy: u.is_imported_stub === 1,
      default_sending_stream: u.default_sending_stream_id,
      default_events_register_stream: u.default_events_register_stream_id,
      default_all_public_streams: u.default_all_public_streams === 1,
      timezone: u.timezone,
      avatar_source: u.avatar_source,
      avatar_version: u.avatar_version,
      user_permissions: [],
      groups: [],
    };
    for (const [name, value] of Object.entries(settings)) {
      if (name === 'resolved_topic_notice_auto_read_policy') {
        row[name] = this.profile.enums.resolved_topic_notice_auto_read_policy[value as string];
      } else if (allowed.has(name)) {
        row[name] = value;
      } else {
        this.droppedSettings.add(`user.${name}`);
      }
    }
    return row;
  }

  // --- channels, recipients, subscriptions -------------------------------

  private buildStreams(): void {
    const groupSettings = this.profile.group_settings.zerver_stream ?? [];
    const counts = new Map(
      this.all<{ stream_id: number; n: number }>(
        `SELECT s.stream_id, count(*) AS n FROM subscriptions s JOIN users u ON u.id = s.user_id
          WHERE s.active = 1 AND u.is_active = 1 GROUP BY s.stream_id`,
      ).map((r) => [r.stream_id, r.n]),
    );
    this.tables.zerver_stream = this.all<{
      id: number;
      name: string;
      description: string;
      rendered_description: string;
      invite_only: number;
      is_web_public: number;
      history_public_to_subscribers: number;
      message_retention_days: number | null;
      date_created: number;
      creator_id: number | null;
      is_archived: number;
      topics_policy: string;
      is_recently_active: number;
      permissions: string;
    }>('SELECT * FROM streams ORDER BY id').map((s) => {
      const stored = JSON.parse(s.permissions) as Record<string, StoredGroupSetting>;
      const row: Row = {
        id: s.id,
        realm: 1,
        name: s.name,
        description: s.description,
        rendered_description: s.rendered_description,
        date_created: s.date_created,
        creator: s.creator_id === this.notificationBotId ? null : s.creator_id,
        folder: null,
        deactivated: s.is_archived === 1,
        subscriber_count: counts.get(s.id) ?? 0,
        invite_only: s.invite_only === 1,
        is_web_public: s.is_web_public === 1,
        history_public_to_subscribers: s.history_public_to_subscribers === 1,
        message_retention_days: s.message_retention_days,
        is_recently_active: s.is_recently_active === 1,
        topics_policy: this.profile.enums.stream_topics_policy[s.topics_policy] ?? 1,
      };
      for (const name of groupSettings) {
        const value =
          stored[name] ??
          (channelPermissionDefaults as Record<string, StoredGroupSetting>)[name] ??
          'role:nobody';
        row[name] = this.groupSettingId(value);
      }
      return row;
    });
  }

  private buildRecipientsAndSubscriptions(): void {
    const { personal, stream, direct_message_group } = this.profile.enums.recipient_type;
    const recipients: Row[] = [];
    const subscriptions: Row[] = [];
    const sub = (userId: number, recipient: number, extra: Row = {}) =>
      subscriptions.push({
        id: this.ids.next('subscription'),
        user_profile: userId,
        recipient,
        active: true,
        is_muted: false,
        color: '#c2c2c2',
        ...extra,
      });
    // Every user has a personal recipient and is subscribed to it (build_personal_subscriptions).
    for (const u of this.realmUsers) {
      recipients.push({ id: this.ids.personalRecipient(u.id), type: personal, type_id: u.id });
      sub(u.id, this.ids.personalRecipient(u.id));
    }
    for (const s of this.tables.zerver_stream!) {
      const id = s.id as number;
      recipients.push({ id: this.ids.streamRecipient(id), type: stream, type_id: id });
    }
    for (const s of this.all<{
      stream_id: number;
      user_id: number;
      active: number;
      color: string;
      is_muted: number;
      pin_to_top: number;
      desktop_notifications: number | null;
      audible_notifications: number | null;
      push_notifications: number | null;
      email_notifications: number | null;
      wildcard_mentions_notify: number | null;
    }>('SELECT * FROM subscriptions ORDER BY stream_id, user_id')) {
      if (s.user_id === this.notificationBotId) continue;
      const bool = (v: number | null) => (v === null ? null : v === 1);
      sub(s.user_id, this.ids.streamRecipient(s.stream_id), {
        active: s.active === 1,
        is_muted: s.is_muted === 1,
        color: s.color,
        pin_to_top: s.pin_to_top === 1,
        desktop_notifications: bool(s.desktop_notifications),
        audible_notifications: bool(s.audible_notifications),
        push_notifications: bool(s.push_notifications),
        email_notifications: bool(s.email_notifications),
        wildcard_mentions_notify: bool(s.wildcard_mentions_notify),
      });
    }
    const huddles: Row[] = [];
    const members = new Map<number, number[]>();
    for (const m of this.all<{ dm_group_id: number; user_id: number }>(
      'SELECT dm_group_id, user_id FROM dm_group_members ORDER BY dm_group_id, user_id',
    )) {
      const list = members.get(m.dm_group_id) ?? [];
      list.push(m.user_id);
      members.set(m.dm_group_id, list);
    }
    for (const g of this.all<{ id: number; member_key: string }>(
      'SELECT id, member_key FROM dm_groups ORDER BY id',
    )) {
      this.dmGroupIds.set(g.member_key, g.id);
      const list = members.get(g.id) ?? g.member_key.split(',').map(Number);
      if (!list.some(this.mayHoldPrivateDataOf)) continue;
      this.exportedDmGroups.add(g.id);
      huddles.push({ id: g.id, huddle_hash: `hearth-${g.id}`, group_size: list.length });
      recipients.push({
        id: this.ids.dmRecipient(g.id),
        type: direct_message_group,
        type_id: g.id,
      });
      for (const userId of list) sub(userId, this.ids.dmRecipient(g.id));
    }
    this.tables.zerver_recipient = recipients;
    this.tables.zerver_subscription = subscriptions;
    this.tables.zerver_huddle = huddles;
  }

  /** The DM group of exactly these members, made up when Hearth has none yet. */
  private dmGroupFor(memberIds: number[]): number {
    const sorted = [...new Set(memberIds)].sort((a, b) => a - b);
    const key = sorted.join(',');
    let id = this.dmGroupIds.get(key);
    if (id === undefined) {
      id = this.nextDmGroupId++;
      this.dmGroupIds.set(key, id);
    }
    if (!this.exportedDmGroups.has(id)) {
      this.exportedDmGroups.add(id);
      this.tables.zerver_huddle!.push({
        id,
        huddle_hash: `hearth-${id}`,
        group_size: sorted.length,
      });
      this.tables.zerver_recipient!.push({
        id: this.ids.dmRecipient(id),
        type: this.profile.enums.recipient_type.direct_message_group,
        type_id: id,
      });
      for (const userId of sorted) {
        this.tables.zerver_subscription!.push({
          id: this.ids.next('subscription'),
          user_profile: userId,
          recipient: this.ids.dmRecipient(id),
          active: true,
          is_muted: false,
          color: '#c2c2c2',
        });
      }
    }
    return id;
  }

  // --- the rest -------------------------------------------------------------

  private buildSmallTables(): void {
    const t = this.tables;
    const bot = this.notificationBotId;
    const notBot = <R extends Row>(rows: R[], key: string) => rows.filter((r) => r[key] !== bot);
    t.zerver_defaultstream = this.all<{ stream_id: number }>(
      'SELECT stream_id FROM default_streams ORDER BY stream_id',
    ).map((d) => ({ id: this.ids.next('defaultstream'), realm: 1, stream: d.stream_id }));
    const firstOwner = this.realmUsers.find((u) => u.role === 100 && u.is_active && !u.is_bot);
    t.zerver_realmemoji = this.all<{
      id: number;
      name: string;
      author_id: number | null;
      file_name: string;
      is_animated: number;
      deactivated: number;
    }>('SELECT * FROM realm_emoji ORDER BY id').map((e) => ({
      id: e.id,
      realm: 1,
      author: e.author_id === null || e.author_id === bot ? (firstOwner?.id ?? null) : e.author_id,
      name: e.name,
      file_name: e.file_name,
      is_animated: e.is_animated === 1,
      deactivated: e.deactivated === 1,
    }));
    t.zerver_realmdomain = this.all<{ id: number; domain: string; allow_subdomains: number }>(
      'SELECT * FROM realm_domains ORDER BY id',
    ).map((d) => ({
      id: d.id,
      realm: 1,
      domain: d.domain,
      allow_subdomains: d.allow_subdomains === 1,
    }));
    t.zerver_realmfilter = this.all<{
      id: number;
      pattern: string;
      url_template: string;
      sort_order: number;
    }>('SELECT * FROM realm_linkifiers ORDER BY id').map((f) => ({
      id: f.id,
      realm: 1,
      pattern: f.pattern,
      url_template: f.url_template,
      order: f.sort_order,
    }));
    t.zerver_realmplayground = this.all<Row>('SELECT * FROM realm_playgrounds ORDER BY id').map(
      (p) => ({
        id: p.id,
        realm: 1,
        name: p.name,
        pygments_language: p.pygments_language,
        url_template: p.url_template,
      }),
    );
    t.zerver_realmauthenticationmethod = this.profile.authentication_methods.map((name, i) => ({
      id: i + 1,
      realm: 1,
      name,
    }));
    t.zerver_userpresence = notBot(
      this.all<Row>('SELECT * FROM user_presence ORDER BY user_id'),
      'user_id',
    ).map((p) => ({
      id: p.user_id,
      user_profile: p.user_id,
      realm: 1,
      last_active_time: p.last_active_time,
      last_connected_time: p.last_connected_time,
    }));
    t.zerver_useractivity = [];
    t.zerver_useractivityinterval = [];
    t.zerver_customprofilefield = this.all<Row>(
      'SELECT * FROM custom_profile_fields ORDER BY id',
    ).map((f) => ({
      id: f.id,
      realm: 1,
      name: f.name,
      hint: f.hint,
      order: f.sort_order,
      field_type: f.field_type,
      field_data: f.field_data,
      display_in_profile_summary: f.display_in_profile_summary === 1,
      required: f.required === 1,
      editable_by_user: f.editable_by_user === 1,
      use_for_user_matching: f.use_for_user_matching === 1,
    }));
    t.zerver_customprofilefieldvalue = this.all<Row>(
      'SELECT * FROM custom_profile_field_values ORDER BY field_id, user_id',
    ).map((v) => ({
      id: this.ids.next('customprofilefieldvalue'),
      user_profile: v.user_id,
      field: v.field_id,
      value: v.value,
      rendered_value: v.rendered_value,
    }));
    const own = <R extends Row>(rows: R[], key: string) =>
      rows.filter((r) => this.mayHoldPrivateDataOf(r[key]));
    t.zerver_usertopic = own(
      this.all<Row>('SELECT * FROM user_topics ORDER BY user_id, stream_id, topic_key'),
      'user_id',
    ).map((u) => ({
      id: this.ids.next('usertopic'),
      user_profile: u.user_id,
      stream: u.stream_id,
      recipient: this.ids.streamRecipient(u.stream_id as number),
      topic_name: u.topic_name,
      last_updated: u.last_updated,
      visibility_policy: u.visibility_policy,
    }));
    t.zerver_muteduser = own(
      this.all<Row>('SELECT * FROM muted_users ORDER BY user_id, muted_user_id'),
      'user_id',
    ).map((m) => ({
      id: this.ids.next('muteduser'),
      user_profile: m.user_id,
      muted_user: m.muted_user_id,
      date_muted: m.date_muted,
    }));
    t.zerver_alertword = own(
      this.all<Row>('SELECT * FROM alert_words ORDER BY user_id, word'),
      'user_id',
    ).map((a) => ({
      id: this.ids.next('alertword'),
      user_profile: a.user_id,
      realm: 1,
      word: a.word,
    }));
    t.zerver_userstatus = own(
      notBot(this.all<Row>('SELECT * FROM user_status ORDER BY user_id'), 'user_id'),
      'user_id',
    ).map((s) => ({
      id: s.user_id,
      user_profile: s.user_id,
      client: this.clientId(DEFAULT_CLIENT),
      timestamp: s.timestamp,
      emoji_name: s.emoji_name,
      emoji_code: s.emoji_code,
      reaction_type: s.reaction_type,
      status_text: s.status_text,
    }));
    t.zerver_savedsnippet = own(
      this.all<Row>('SELECT * FROM saved_snippets ORDER BY id'),
      'user_id',
    ).map((s) => ({
      id: s.id,
      user_profile: s.user_id,
      realm: 1,
      title: s.title,
      content: s.content,
      date_created: s.date_created,
    }));
    t.zerver_service = own(this.all<Row>('SELECT * FROM bot_services ORDER BY id'), 'bot_id').map(
      (s) => ({
        id: s.id,
        user_profile: s.bot_id,
        name: s.name,
        base_url: s.base_url,
        token: s.token,
        interface: s.interface,
      }),
    );
    const botData = (table: string) =>
      own(
        this.all<Row>(`SELECT bot_id, key, value FROM ${table} ORDER BY bot_id, key`),
        'bot_id',
      ).map((r) => ({
        id: this.ids.next(table),
        bot_profile: r.bot_id,
        key: r.key,
        value: r.value,
      }));
    t.zerver_botstoragedata = botData('bot_storage');
    t.zerver_botconfigdata = botData('bot_config');
  }

  private buildScheduledMessages(): void {
    const enums = this.profile.enums;
    this.tables.zerver_scheduledmessage = this.all<Row>(
      'SELECT * FROM scheduled_messages WHERE delivered = 0 ORDER BY id',
    )
      .filter((s) => this.mayHoldPrivateDataOf(s.sender_id))
      .map((s) => {
        const isStream = s.type === 'stream';
        const recipient = isStream
          ? this.ids.streamRecipient(s.stream_id as number)
          : this.ids.dmRecipient(
              this.dmGroupFor([
                s.sender_id as number,
                ...(JSON.parse((s.recipient_ids as string | null) ?? '[]') as number[]),
              ]),
            );
        return {
          id: s.id,
          sender: s.sender_id,
          recipient,
          subject: s.topic,
          content: s.content,
          rendered_content: s.rendered_content,
          sending_client: this.clientId(s.sending_client as string),
          stream: isStream ? s.stream_id : null,
          realm: 1,
          scheduled_timestamp: s.scheduled_timestamp,
          request_timestamp: this.exportedAtMs / 1000,
          read_by_sender: s.read_by_sender === null ? !isStream : s.read_by_sender === 1,
          delivered: false,
          delivered_message: null,
          has_attachment: /\/user_uploads\//.test(s.content as string),
          reminder_target_message_id: s.reminder_target_message_id,
          reminder_note: s.reminder_note,
          failed: s.failed === 1,
          failure_message: s.failure_message,
          delivery_type: s.is_reminder
            ? enums.scheduled_delivery_type.remind
            : enums.scheduled_delivery_type.send_later,
        };
      });
  }
}
