import type { Db } from '../../db/open.js';
import { channelNameKey } from '../../db/queries/streams.js';
import { generateApiKey } from '../../shared/credentials.js';
import type { StoredGroupSetting } from '../../shared/group-settings.js';
import { realmSettingDefaults } from '../../shared/realm-settings.js';
import { Role, syncSystemGroups, systemGroups } from '../../shared/roles.js';
import { userSettingDefaults } from '../../shared/user-settings.js';
import { notificationBotAddress } from '../../users/index.js';
import { type ExportProfile, nameOf } from '../profiles/index.js';
import { ImportRefused } from './source.js';

type Row = Record<string, unknown>;

const FK_SETTINGS: Record<string, string> = {
  moderation_request_channel: 'moderation_request_channel_id',
  new_stream_announcements_stream: 'new_stream_announcements_stream_id',
  signup_announcements_stream: 'signup_announcements_stream_id',
  zulip_update_announcements_stream: 'zulip_update_announcements_stream_id',
};

/** Hearth's names for Zulip's cross-realm bots. */
const CROSS_REALM_BOT_NAMES: Record<string, { local: string; name: string }> = {
  'notification-bot@zulip.com': { local: 'notification-bot', name: 'Notification Bot' },
  'welcome-bot@zulip.com': { local: 'welcome-bot', name: 'Welcome Bot' },
  'emailgateway@zulip.com': { local: 'emailgateway', name: 'Email Gateway' },
};

const bool = (v: unknown) => (v ? 1 : 0);
const ms = (seconds: unknown) => (typeof seconds === 'number' ? Math.round(seconds * 1000) : null);
const secs = (seconds: unknown) => (typeof seconds === 'number' ? Math.floor(seconds) : null);

/**
 * Writes the organization-sized part of a Zulip export (realm.json) into an
 * empty Hearth database, keeping Zulip's ids for everything a link, a
 * mention or a client can name: users, channels, groups, fields, emoji,
 * snippets, scheduled messages.
 */
export class OrganizationImport {
  readonly table: (name: string) => Row[];
  readonly emailDomain: string;
  /** Recipient id -> what it addresses. */
  readonly recipients = new Map<number, { type: number; typeId: number }>();
  /** DM group id -> member ids (sorted). */
  readonly dmGroups = new Map<number, number[]>();
  private readonly dmGroupByKey = new Map<string, number>();
  /** Zulip DirectMessageGroup id -> Hearth DM group id (the same, unless two share members). */
  private readonly huddleGroup = new Map<number, number>();
  private readonly unlistedGroups = new Set<number>();
  private nextDmGroupId = 1;
  /** Stream id -> subscribers (any subscription row). */
  readonly streamSubscribers = new Map<number, { user: number; active: boolean }[]>();
  readonly userIds = new Set<number>();
  readonly longTermIdle = new Set<number>();
  private readonly groupValue = new Map<number, StoredGroupSetting>();
  readonly clientNames = new Map<number, string>();
  ownerEmail: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly realm: Record<string, unknown>,
    private readonly profile: ExportProfile,
    private readonly nowMs: number,
  ) {
    this.table = (name) => (Array.isArray(realm[name]) ? (realm[name] as Row[]) : []);
    this.emailDomain = this.guessEmailDomain();
    for (const c of this.table('zerver_client'))
      this.clientNames.set(c.id as number, String(c.name));
  }

  /** Zulip's dummy addresses (`user12@domain`) and bots' name the server's e-mail domain. */
  private guessEmailDomain(): string {
    const users = [
      ...this.table('zerver_userprofile'),
      ...this.table('zerver_userprofile_mirrordummy'),
    ];
    for (const u of users) {
      const m = /^user\d+@(.+)$/i.exec(String(u.email));
      if (m) return m[1]!.toLowerCase();
    }
    const bot = users.find((u) => u.is_bot && String(u.email).includes('@'));
    if (bot) return String(bot.email).split('@').pop()!.toLowerCase();
    return 'hearth.local';
  }

  run(): void {
    this.insertRealmRowPlaceholder();
    this.insertUsers();
    this.insertGroups();
    this.insertStreams();
    this.readRecipients();
    this.insertRealmSettings();
    this.insertSmallTables();
  }

  private insertRealmRowPlaceholder(): void {
    const r = this.table('zerver_realm')[0]!;
    this.db
      .prepare(
        'INSERT INTO realm (id, name, description, email_domain, date_created, deactivated, settings) VALUES (1, ?, ?, ?, ?, 0, ?)',
      )
      .run(
        String(r.name || r.string_id || 'Zulip'),
        String(r.description ?? ''),
        this.emailDomain,
        secs(r.date_created) ?? Math.floor(this.nowMs / 1000),
        '{}',
      );
  }

  private insertUsers(): void {
    const insert = this.db.prepare(
      `INSERT INTO users (id, delivery_email, email_key, full_name, role, is_active, is_bot, bot_type,
         bot_owner_id, api_key, password_hash, date_joined_ms, timezone, avatar_source, avatar_version,
         is_imported_stub, settings, default_sending_stream_id, default_events_register_stream_id,
         default_all_public_streams, last_login_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const users = [
      ...this.table('zerver_userprofile'),
      ...this.table('zerver_userprofile_mirrordummy'),
    ].sort((a, b) => (a.id as number) - (b.id as number));
    const settingNames = Object.keys(userSettingDefaults);
    // References to rows the export does not hold (a public export's) are dropped, not refused.
    const exportedUsers = new Set(users.map((u) => u.id));
    const exportedStreams = new Set(this.table('zerver_stream').map((s) => s.id));
    const userOrNull = (v: unknown) => (exportedUsers.has(v) ? (v as number) : null);
    const streamOrNull = (v: unknown) => (exportedStreams.has(v) ? (v as number) : null);
    for (const u of users) {
      const id = u.id as number;
      const settings: Record<string, unknown> = {};
      for (const name of settingNames) {
        if (!(name in u)) continue;
        let value = u[name];
        if (name === 'resolved_topic_notice_auto_read_policy') {
          value = nameOf(this.profile.enums.resolved_topic_notice_auto_read_policy, value);
        }
        const fallback = (userSettingDefaults as Record<string, unknown>)[name];
        if (value !== undefined && value !== fallback && typeof value === typeof fallback)
          settings[name] = value;
      }
      const dummy = u.is_mirror_dummy === true;
      if (u.long_term_idle) this.longTermIdle.add(id);
      const email = String(u.delivery_email ?? u.email);
      insert.run(
        id,
        email,
        email.toLowerCase(),
        String(u.full_name ?? email),
        this.profile.enums.role.includes(u.role as number) ? (u.role as number) : Role.member,
        dummy ? 0 : bool(u.is_active),
        bool(u.is_bot),
        u.is_bot ? ((u.bot_type as number | null) ?? 1) : null,
        u.is_bot ? userOrNull(u.bot_owner) : null,
        generateApiKey(),
        ms(u.date_joined) ?? this.nowMs,
        String(u.timezone ?? ''),
        u.avatar_source === 'U' ? 'U' : 'G',
        (u.avatar_version as number) ?? 1,
        bool(dummy),
        JSON.stringify(settings),
        streamOrNull(u.default_sending_stream),
        streamOrNull(u.default_events_register_stream),
        bool(u.default_all_public_streams),
        ms(u.last_login),
      );
      this.userIds.add(id);
      if (this.ownerEmail === null && u.role === Role.owner && u.is_active && !u.is_bot && !dummy) {
        this.ownerEmail = email;
      }
    }
    for (const bot of this.table('zerver_userprofile_crossrealm')) {
      const known = CROSS_REALM_BOT_NAMES[String(bot.email)] ?? {
        local: String(bot.email).split('@')[0]!,
        name: String(bot.email),
      };
      const email =
        known.local === 'notification-bot'
          ? notificationBotAddress(this.emailDomain)
          : `${known.local}@${this.emailDomain}`;
      insert.run(
        bot.id,
        email,
        email.toLowerCase(),
        known.name,
        Role.member,
        1,
        1,
        1,
        null,
        generateApiKey(),
        this.nowMs,
        '',
        'G',
        1,
        0,
        '{}',
        null,
        null,
        0,
        null,
      );
      this.userIds.add(bot.id as number);
      this.recipients.set(bot.recipient_id as number, {
        type: this.profile.enums.recipient_type.personal,
        typeId: bot.id as number,
      });
    }
  }

  // --- groups -------------------------------------------------------------

  private insertGroups(): void {
    const named = this.table('zerver_namedusergroup');
    if (!('zerver_usergroup' in this.realm) || named.length === 0) {
      this.createSystemGroups();
      return;
    }
    const namedIds = new Map(named.map((g) => [(g.usergroup_ptr ?? g.id) as number, g]));
    const members = new Map<number, number[]>();
    for (const m of this.table('zerver_usergroupmembership')) {
      const list = members.get(m.user_group as number) ?? [];
      list.push(m.user_profile as number);
      members.set(m.user_group as number, list);
    }
    const subgroups = new Map<number, number[]>();
    for (const m of this.table('zerver_groupgroupmembership')) {
      const list = subgroups.get(m.supergroup as number) ?? [];
      list.push(m.subgroup as number);
      subgroups.set(m.supergroup as number, list);
    }
    for (const g of this.table('zerver_usergroup')) {
      const id = g.id as number;
      const namedRow = namedIds.get(id);
      if (namedRow) {
        this.groupValue.set(id, namedRow.is_system_group ? String(namedRow.name) : id);
      } else {
        this.groupValue.set(id, {
          direct_members: (members.get(id) ?? [])
            .filter((u) => this.userIds.has(u))
            .sort((a, b) => a - b),
          direct_subgroups: (subgroups.get(id) ?? []).sort((a, b) => a - b),
        });
      }
    }
    const insert = this.db.prepare(
      `INSERT INTO user_groups (id, name, description, is_system_group, deactivated, date_created, creator_id, permissions)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const settingNames = this.profile.group_settings.zerver_namedusergroup ?? [];
    for (const [id, g] of [...namedIds].sort(([a], [b]) => a - b)) {
      const permissions: Record<string, StoredGroupSetting> = {};
      for (const name of settingNames) {
        if (typeof g[name] === 'number') permissions[name] = this.groupSetting(g[name]);
      }
      insert.run(
        id,
        String(g.name),
        String(g.description ?? ''),
        bool(g.is_system_group),
        bool(g.deactivated),
        secs(g.date_created),
        typeof g.creator === 'number' && this.userIds.has(g.creator) ? g.creator : null,
        JSON.stringify(permissions),
      );
    }
    const member = this.db.prepare(
      'INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?, ?)',
    );
    for (const [groupId, users] of members) {
      if (!namedIds.has(groupId)) continue;
      for (const userId of users) if (this.userIds.has(userId)) member.run(groupId, userId);
    }
    const sub = this.db.prepare(
      'INSERT OR IGNORE INTO user_group_subgroups (group_id, subgroup_id) VALUES (?, ?)',
    );
    for (const [groupId, list] of subgroups) {
      if (!namedIds.has(groupId)) continue;
      for (const subgroupId of list) if (namedIds.has(subgroupId)) sub.run(groupId, subgroupId);
    }
    // Zulip's system bots live outside the organization; Hearth's are members of it.
    for (const bot of this.table('zerver_userprofile_crossrealm')) {
      syncSystemGroups(this.db, bot.id as number, Role.member);
    }
  }

  /** Exports from other products carry no groups: Hearth's system groups, filled by role. */
  private createSystemGroups(): void {
    const insert = this.db.prepare(
      'INSERT INTO user_groups (name, description, is_system_group, date_created) VALUES (?, ?, 1, ?)',
    );
    const addSub = this.db.prepare(
      'INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES (?, ?)',
    );
    let inner: number | null = null;
    for (const group of [...systemGroups].reverse()) {
      const id = Number(
        insert.run(group.name, group.description, Math.floor(this.nowMs / 1000)).lastInsertRowid,
      );
      if (inner !== null && group.name !== 'role:nobody') addSub.run(id, inner);
      if (group.name !== 'role:nobody') inner = id;
    }
    for (const u of this.db.prepare('SELECT id, role FROM users').all() as {
      id: number;
      role: number;
    }[]) {
      syncSystemGroups(this.db, u.id, u.role);
    }
  }

  /** A Zulip group id as Hearth stores a setting: a system group's name, a group id or an anonymous group. */
  groupSetting(value: unknown): StoredGroupSetting {
    const stored = typeof value === 'number' ? this.groupValue.get(value) : undefined;
    if (stored === undefined) {
      throw new ImportRefused(
        `a group-valued setting names group ${String(value)}, which the export does not hold`,
      );
    }
    return stored;
  }

  // --- channels and recipients ------------------------------------------

  private insertStreams(): void {
    const insert = this.db.prepare(
      `INSERT INTO streams (id, name, name_key, description, rendered_description, invite_only, is_web_public,
         history_public_to_subscribers, message_retention_days, date_created, creator_id, is_archived,
         topics_policy, is_recently_active, permissions)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const hasGroups = this.groupValue.size > 0;
    for (const s of this.table('zerver_stream')) {
      const permissions: Record<string, StoredGroupSetting> = {};
      if (hasGroups) {
        for (const name of this.profile.group_settings.zerver_stream ?? []) {
          if (typeof s[name] === 'number') permissions[name] = this.groupSetting(s[name]);
        }
      }
      const name = String(s.name);
      insert.run(
        s.id,
        name,
        channelNameKey(name),
        String(s.description ?? ''),
        String(s.rendered_description ?? ''),
        bool(s.invite_only),
        bool(s.is_web_public),
        s.history_public_to_subscribers === false ? 0 : 1,
        (s.message_retention_days as number | null) ?? null,
        secs(s.date_created) ?? Math.floor(this.nowMs / 1000),
        typeof s.creator === 'number' && this.userIds.has(s.creator) ? s.creator : null,
        bool(s.deactivated),
        nameOf(this.profile.enums.stream_topics_policy, s.topics_policy) ?? 'inherit',
        s.is_recently_active === false ? 0 : 1,
        JSON.stringify(permissions),
      );
    }
  }

  private readRecipients(): void {
    const { stream, direct_message_group } = this.profile.enums.recipient_type;
    for (const r of this.table('zerver_recipient')) {
      this.recipients.set(r.id as number, { type: r.type as number, typeId: r.type_id as number });
    }
    const huddleMembers = new Map<number, number[]>();
    for (const s of this.table('zerver_subscription')) {
      const r = this.recipients.get(s.recipient as number);
      const user = s.user_profile as number;
      if (!r || !this.userIds.has(user)) continue;
      if (r.type === stream) {
        const list = this.streamSubscribers.get(r.typeId) ?? [];
        list.push({ user, active: s.active !== false });
        this.streamSubscribers.set(r.typeId, list);
      } else if (r.type === direct_message_group) {
        const list = huddleMembers.get(r.typeId) ?? [];
        list.push(user);
        huddleMembers.set(r.typeId, list);
      }
    }
    for (const h of this.table('zerver_huddle')) {
      this.nextDmGroupId = Math.max(this.nextDmGroupId, (h.id as number) + 1);
    }
    for (const h of this.table('zerver_huddle')) {
      const id = h.id as number;
      const members = huddleMembers.get(id) ?? [];
      // A group whose members the export does not list gets them from its senders.
      if (members.length === 0) {
        this.dmGroups.set(id, []);
        this.huddleGroup.set(id, id);
        this.unlistedGroups.add(id);
      } else {
        this.huddleGroup.set(id, this.dmGroupFor(members, id));
      }
    }
    this.insertSubscriptions();
  }

  /** The DM group of a member set, made when the export holds it only as 1:1 personal messages. */
  dmGroupFor(memberIds: number[], preferredId?: number): number {
    const members = [...new Set(memberIds)].sort((a, b) => a - b);
    const key = members.join(',');
    const existing = this.dmGroupByKey.get(key);
    if (existing !== undefined) return existing;
    const id = preferredId ?? this.nextDmGroupId++;
    this.dmGroupByKey.set(key, id);
    this.dmGroups.set(id, members);
    return id;
  }

  /** The DM group a message to this recipient belongs to (sender needed for personal recipients). */
  dmGroupOfMessage(recipientId: number, senderId: number): number | null {
    const r = this.recipients.get(recipientId);
    if (!r) return null;
    if (r.type === this.profile.enums.recipient_type.direct_message_group) {
      const id = this.huddleGroup.get(r.typeId);
      if (id === undefined) return null;
      const members = this.dmGroups.get(id)!;
      if (this.unlistedGroups.has(id) && !members.includes(senderId)) {
        members.push(senderId);
        members.sort((a, b) => a - b);
      }
      return id;
    }
    if (r.type === this.profile.enums.recipient_type.personal)
      return this.dmGroupFor([senderId, r.typeId]);
    return null;
  }

  private insertSubscriptions(): void {
    const insert = this.db.prepare(
      `INSERT INTO subscriptions (stream_id, user_id, active, color, is_muted, pin_to_top, desktop_notifications,
         audible_notifications, push_notifications, email_notifications, wildcard_mentions_notify, read_through)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
    );
    const nullable = (v: unknown) => (v === null || v === undefined ? null : bool(v));
    const seen = new Set<string>();
    for (const s of this.table('zerver_subscription')) {
      const r = this.recipients.get(s.recipient as number);
      const user = s.user_profile as number;
      if (!r || r.type !== this.profile.enums.recipient_type.stream || !this.userIds.has(user))
        continue;
      const key = `${r.typeId}:${user}`;
      if (seen.has(key)) continue;
      seen.add(key);
      insert.run(
        r.typeId,
        user,
        s.active === false ? 0 : 1,
        String(s.color ?? '#c2c2c2'),
        bool(s.is_muted),
        bool(s.pin_to_top),
        nullable(s.desktop_notifications),
        nullable(s.audible_notifications),
        nullable(s.push_notifications),
        nullable(s.email_notifications),
        nullable(s.wildcard_mentions_notify),
      );
    }
  }

  /** dm_groups rows; members and watermarks go in once the messages are read. */
  insertDmGroups(readThrough: (groupId: number, userId: number) => number): void {
    const group = this.db.prepare('INSERT INTO dm_groups (id, member_key) VALUES (?, ?)');
    const member = this.db.prepare(
      'INSERT INTO dm_group_members (dm_group_id, user_id, read_through) VALUES (?, ?, ?)',
    );
    for (const [id, members] of [...this.dmGroups].sort(([a], [b]) => a - b)) {
      if (members.length === 0) continue;
      group.run(id, members.join(','));
      for (const userId of members) member.run(id, userId, readThrough(id, userId));
    }
  }

  // --- settings and the rest ----------------------------------------------

  private insertRealmSettings(): void {
    const r = this.table('zerver_realm')[0]!;
    const enums = this.profile.enums;
    const groupSettings = new Set(this.profile.group_settings.zerver_realm);
    const overrides: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(r)) {
      if (name in FK_SETTINGS) {
        overrides[FK_SETTINGS[name]!] = typeof value === 'number' ? value : -1;
      } else if (groupSettings.has(name)) {
        if (this.groupValue.size > 0 && typeof value === 'number')
          overrides[name] = this.groupSetting(value);
      } else if (name === 'message_edit_history_visibility_policy') {
        const policy = nameOf(enums.message_edit_history_visibility_policy, value);
        if (policy) overrides[name] = policy;
      } else if (name === 'topics_policy') {
        const policy = nameOf(enums.realm_topics_policy, value);
        if (policy) overrides[name] = policy;
      } else if (name in realmSettingDefaults) {
        const fallback = (realmSettingDefaults as Record<string, unknown>)[name];
        // Time limits are null for "unlimited" in both products.
        const nullable = fallback === null || name.endsWith('_limit_seconds');
        if ((nullable && value === null) || typeof value === typeof fallback)
          overrides[name] = value;
      }
    }
    for (const [name, value] of Object.entries(overrides)) {
      if (value === (realmSettingDefaults as Record<string, unknown>)[name]) delete overrides[name];
    }
    this.db.prepare('UPDATE realm SET settings = ? WHERE id = 1').run(JSON.stringify(overrides));
  }

  private insertSmallTables(): void {
    const db = this.db;
    const known = (id: unknown) => typeof id === 'number' && this.userIds.has(id);
    const run = (
      sql: string,
      rows: Row[],
      values: (row: Row) => unknown[],
      keep: (row: Row) => boolean = () => true,
    ) => {
      const statement = db.prepare(sql);
      for (const row of rows) if (keep(row)) statement.run(...values(row));
    };
    const streamIds = new Set(this.table('zerver_stream').map((st) => st.id));
    run(
      'INSERT OR IGNORE INTO default_streams (stream_id) VALUES (?)',
      this.table('zerver_defaultstream'),
      (d) => [d.stream],
      (d) => streamIds.has(d.stream),
    );
    run(
      'INSERT INTO realm_domains (id, domain, allow_subdomains) VALUES (?, ?, ?)',
      this.table('zerver_realmdomain'),
      (d) => [d.id, String(d.domain), bool(d.allow_subdomains)],
    );
    run(
      'INSERT INTO realm_linkifiers (id, pattern, url_template, sort_order) VALUES (?, ?, ?, ?)',
      this.table('zerver_realmfilter'),
      (f) => [f.id, String(f.pattern), String(f.url_template), (f.order as number) ?? 0],
    );
    run(
      'INSERT INTO realm_playgrounds (id, name, pygments_language, url_template) VALUES (?, ?, ?, ?)',
      this.table('zerver_realmplayground'),
      (p) => [p.id, String(p.name), String(p.pygments_language), String(p.url_template)],
    );
    run(
      `INSERT INTO custom_profile_fields (id, name, hint, field_type, field_data, sort_order, display_in_profile_summary,
         required, editable_by_user, use_for_user_matching) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      this.table('zerver_customprofilefield'),
      (f) => [
        f.id,
        String(f.name),
        String(f.hint ?? ''),
        f.field_type,
        String(f.field_data ?? ''),
        (f.order as number) ?? (f.id as number),
        bool(f.display_in_profile_summary),
        bool(f.required),
        f.editable_by_user === false ? 0 : 1,
        bool(f.use_for_user_matching),
      ],
      (f) => this.profile.enums.custom_profile_field_type.includes(f.field_type as number),
    );
    const fieldIds = new Set(this.table('zerver_customprofilefield').map((f) => f.id));
    run(
      'INSERT OR IGNORE INTO custom_profile_field_values (user_id, field_id, value, rendered_value) VALUES (?, ?, ?, ?)',
      this.table('zerver_customprofilefieldvalue'),
      (v) => [
        v.user_profile,
        v.field,
        String(v.value),
        (v.rendered_value as string | null) ?? null,
      ],
      (v) => known(v.user_profile) && fieldIds.has(v.field),
    );
    run(
      `INSERT OR IGNORE INTO user_topics (user_id, stream_id, topic_key, topic_name, visibility_policy, last_updated)
       VALUES (?, ?, ?, ?, ?, ?)`,
      this.table('zerver_usertopic'),
      (t) => [
        t.user_profile,
        t.stream,
        String(t.topic_name).toLowerCase(),
        String(t.topic_name),
        t.visibility_policy,
        secs(t.last_updated) ?? 0,
      ],
      (t) =>
        known(t.user_profile) &&
        streamIds.has(t.stream) &&
        this.profile.enums.visibility_policy.includes(t.visibility_policy as number),
    );
    run(
      'INSERT OR IGNORE INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, ?)',
      this.table('zerver_muteduser'),
      (m) => [m.user_profile, m.muted_user, secs(m.date_muted) ?? 0],
      (m) => known(m.user_profile) && known(m.muted_user),
    );
    run(
      'INSERT OR IGNORE INTO alert_words (user_id, word) VALUES (?, ?)',
      this.table('zerver_alertword'),
      (a) => [a.user_profile, String(a.word)],
      (a) => known(a.user_profile),
    );
    run(
      `INSERT OR REPLACE INTO user_status (user_id, status_text, emoji_name, emoji_code, reaction_type, timestamp)
       VALUES (?, ?, ?, ?, ?, ?)`,
      this.table('zerver_userstatus'),
      (s) => [
        s.user_profile,
        String(s.status_text ?? ''),
        String(s.emoji_name ?? ''),
        String(s.emoji_code ?? ''),
        String(s.reaction_type ?? 'unicode_emoji'),
        secs(s.timestamp) ?? 0,
      ],
      (s) => known(s.user_profile),
    );
    run(
      'INSERT INTO saved_snippets (id, user_id, title, content, date_created) VALUES (?, ?, ?, ?, ?)',
      this.table('zerver_savedsnippet'),
      (s) => [
        s.id,
        s.user_profile,
        String(s.title ?? ''),
        String(s.content ?? ''),
        secs(s.date_created) ?? 0,
      ],
      (s) => known(s.user_profile),
    );
    run(
      'INSERT INTO bot_services (id, bot_id, name, base_url, interface, token) VALUES (?, ?, ?, ?, ?, ?)',
      this.table('zerver_service'),
      // Zulip regenerates service tokens on import; so does Hearth.
      (s) => [
        s.id,
        s.user_profile,
        String(s.name ?? ''),
        String(s.base_url ?? ''),
        (s.interface as number) ?? 1,
        generateApiKey(),
      ],
      (s) => known(s.user_profile),
    );
    run(
      'INSERT OR IGNORE INTO bot_storage (bot_id, key, value, size) VALUES (?, ?, ?, ?)',
      this.table('zerver_botstoragedata'),
      (b) => [
        b.bot_profile,
        String(b.key),
        String(b.value),
        [...String(b.key)].length + [...String(b.value)].length,
      ],
      (b) => known(b.bot_profile),
    );
    run(
      'INSERT OR IGNORE INTO bot_config (bot_id, key, value) VALUES (?, ?, ?)',
      this.table('zerver_botconfigdata'),
      (b) => [b.bot_profile, String(b.key), String(b.value)],
      (b) => known(b.bot_profile),
    );
    run(
      'INSERT OR IGNORE INTO user_presence (user_id, last_active_time, last_connected_time, last_update_id) VALUES (?, ?, ?, ?)',
      this.table('zerver_userpresence'),
      (p) => [
        p.user_profile,
        secs(p.last_active_time),
        secs(p.last_connected_time),
        p.user_profile,
      ],
      (p) => known(p.user_profile),
    );
    db.prepare(
      'UPDATE presence_sequence SET last_update_id = (SELECT coalesce(max(last_update_id), 0) FROM user_presence) WHERE id = 1',
    ).run();
  }

  /** Undelivered scheduled messages and reminders (after the messages: reminders point at one). */
  insertScheduledMessages(): void {
    const insert = this.db.prepare(
      `INSERT INTO scheduled_messages (id, sender_id, type, stream_id, recipient_ids, topic, content, rendered_content,
         scheduled_timestamp, sending_client, read_by_sender, is_reminder, reminder_target_message_id, delivered,
         failed, failure_message, reminder_note)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
    );
    for (const s of this.table('zerver_scheduledmessage')) {
      if (s.delivered || !this.userIds.has(s.sender as number)) continue;
      const r = this.recipients.get(s.recipient as number);
      if (!r) continue;
      const sender = s.sender as number;
      let type: 'stream' | 'private';
      let recipientIds: number[] | null = null;
      let streamId: number | null = null;
      if (r.type === this.profile.enums.recipient_type.stream) {
        type = 'stream';
        streamId = r.typeId;
      } else {
        type = 'private';
        const members =
          r.type === this.profile.enums.recipient_type.personal
            ? [...new Set([sender, r.typeId])]
            : (this.dmGroups.get(r.typeId) ?? [sender]);
        recipientIds = members.length === 2 ? members.filter((id) => id !== sender) : members;
      }
      insert.run(
        s.id,
        sender,
        type,
        streamId,
        recipientIds === null ? null : JSON.stringify(recipientIds),
        String(s.subject ?? ''),
        String(s.content ?? ''),
        String(s.rendered_content ?? ''),
        secs(s.scheduled_timestamp) ?? 0,
        this.clientNames.get(s.sending_client as number) ?? '',
        s.read_by_sender === null || s.read_by_sender === undefined ? null : bool(s.read_by_sender),
        s.delivery_type === this.profile.enums.scheduled_delivery_type.remind ? 1 : 0,
        (s.reminder_target_message_id as number | null) ?? null,
        bool(s.failed),
        (s.failure_message as string | null) ?? null,
        (s.reminder_note as string | null) ?? null,
      );
    }
  }
}
