import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { latestSchemaVersion, migrate } from '../../server/db/migrate.js';
import { searchIndexes } from '../../server/db/migrations/0008-search-indexes.js';
import { migrations } from '../../server/db/migrations/index.js';
import { longerWordsStartingWith } from '../../server/db/queries/message-search.js';
import { insertMessage } from '../../server/db/queries/messages.js';
import { catchUpSearchIndex } from '../../server/db/queries/search-index.js';
import { insertStream } from '../../server/db/queries/streams.js';
import { insertUser } from '../../server/db/queries/users.js';

/** A database as Hearth left it before migration 8, with messages (some with links and images). */
function versionSevenDatabase() {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  for (const migration of migrations.slice(0, 7)) migration.up(db);
  db.pragma('user_version = 7');
  const sender = insertUser(db, {
    delivery_email: 'u@x.test',
    full_name: 'U',
    role: 400,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
    api_key: 'k'.padEnd(32, '0'),
    password_hash: null,
    date_joined_ms: 0,
  })!;
  const stream = insertStream(db, {
    name: 's',
    description: '',
    rendered_description: '',
    invite_only: false,
    is_web_public: false,
    history_public_to_subscribers: true,
    date_created: 0,
    creator_id: null,
  });
  const ids = Array.from({ length: 20 }, (_, i) => {
    const content = i === 4 ? 'a quokka' : `release ${i % 2 ? 'released' : 'releases'}`;
    return insertMessage(db, {
      sender_id: sender,
      stream_id: stream,
      dm_group_id: null,
      topic: 't',
      content,
      rendered_content: `<p>${content}</p>`,
      date_sent: i,
      sending_client: 'test',
      has_link: i % 5 === 0,
      has_image: i === 7,
    });
  });
  // Their search rows, as a version-seven server wrote them with each send.
  catchUpSearchIndex(db);
  return { db, ids };
}

const plan = (db: Database.Database, sql: string) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>)
    .map((r) => r.detail)
    .join('\n');

describe('migration 8: search indexes', () => {
  it('is registered after the unread override counts', () => {
    expect(migrations[7]).toBe(searchIndexes);
    expect(searchIndexes.version).toBe(8);
  });

  it('indexes the has: columns and the search vocabulary of a database already filled', () => {
    const { db, ids } = versionSevenDatabase();
    expect(migrate(db)).toEqual({ from: 7, to: latestSchemaVersion() });

    const linked = 'SELECT id FROM messages WHERE has_link = 1 ORDER BY id DESC';
    expect(plan(db, linked)).toContain('USING COVERING INDEX messages_with_link');
    expect(db.prepare(linked).pluck().all()).toEqual(ids.filter((_, i) => i % 5 === 0).reverse());
    const images = 'SELECT id FROM messages WHERE has_image = 1 ORDER BY id DESC';
    expect(plan(db, images)).toContain('USING COVERING INDEX messages_with_image');
    expect(db.prepare(images).pluck().all()).toEqual([ids[7]]);
    expect(plan(db, 'SELECT id FROM messages WHERE has_attachment = 1 ORDER BY id')).toContain(
      'messages_with_attachment',
    );

    // The words messages already held before the migration complete a prefix.
    expect(longerWordsStartingWith(db, 'release', 32)).toEqual(['released', 'releases']);
    expect(longerWordsStartingWith(db, 'rele', 32)).toEqual(['release', 'released', 'releases']);
    expect(longerWordsStartingWith(db, 'rele', 2)).toBeUndefined();
    expect(longerWordsStartingWith(db, 'quokka', 32)).toEqual([]);
    db.close();
  });
});
