import type { AppContext } from '../core/context.js';
import type { Db } from '../db/open.js';
import {
  activeUsersAlertWords,
  alertWordsOf,
  deleteAlertWord,
  insertAlertWord,
} from '../db/queries/alert-words.js';
import type { UserRow } from '../db/queries/users.js';
import type { EventBody } from '../shared/zulip-api/index.js';
import { usersWithAlertWords } from './matching.js';

type AlertWords = { alert_words: string[] };

/** GET /users/me/alert_words */
export function listAlertWords(ctx: AppContext, user: UserRow): AlertWords {
  return { alert_words: alertWordsOf(ctx.db, user.id) };
}

/**
 * Every change sends the whole new list to all of the user's queues (and
 * no one else's), whether or not anything changed, as Zulip does.
 */
function changeAlertWords(
  ctx: AppContext,
  user: UserRow,
  change: (existing: readonly string[]) => void,
): AlertWords {
  return ctx.transaction((tx) => {
    change(alertWordsOf(ctx.db, user.id));
    const words = alertWordsOf(ctx.db, user.id);
    tx.emit({
      type: 'alert_words',
      users: [user.id],
      payload: { type: 'alert_words', alert_words: words } satisfies EventBody<'alert_words'>,
    });
    return { alert_words: words };
  });
}

/**
 * POST /users/me/alert_words: surrounding whitespace stripped, blanks
 * dropped. Alert words are case-insensitive: a word the user already has
 * in any case is left as it is; among new words differing only in case,
 * the last spelling given is kept.
 */
export function addAlertWords(
  ctx: AppContext,
  user: UserRow,
  words: readonly string[],
): AlertWords {
  const cleaned = words.map((w) => w.trim()).filter((w) => w !== '');
  return changeAlertWords(ctx, user, (existing) => {
    const have = new Set(existing.map((w) => w.toLowerCase()));
    const added = new Map<string, string>();
    for (const word of cleaned) {
      const lower = word.toLowerCase();
      if (have.has(lower)) continue;
      added.delete(lower);
      added.set(lower, word);
    }
    for (const word of added.values()) insertAlertWord(ctx.db, user.id, word);
  });
}

/** DELETE /users/me/alert_words: each given word goes in whatever case it was stored; unknown words are ignored. */
export function removeAlertWords(
  ctx: AppContext,
  user: UserRow,
  words: readonly string[],
): AlertWords {
  const doomed = new Set(words.map((w) => w.toLowerCase()));
  return changeAlertWords(ctx, user, (existing) => {
    for (const word of existing) {
      if (doomed.has(word.toLowerCase())) deleteAlertWord(ctx.db, user.id, word);
    }
  });
}

/**
 * Which of `recipients` have one of their alert words in a message's
 * Markdown source (for the has_alert_word flag). Only users with alert
 * words are looked at.
 */
export function recipientsAlertedBy(
  db: Db,
  content: string,
  recipients: ReadonlySet<number>,
): Set<number> {
  const words = activeUsersAlertWords(db).filter((w) => recipients.has(w.user_id));
  return usersWithAlertWords(content, words);
}
