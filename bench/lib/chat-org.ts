/**
 * The organization the chat bench opens: a team's year of history (channels
 * of very different traffic, topics that come and go, direct messages and
 * small groups), rendered by the server's own Markdown renderer, with an
 * unread backlog for the measured user like one after a few days away.
 * Messages go straight into the database (one request each would take far
 * too long); the last few, with mentions of the measured user, go through
 * the API so their flags are what a real send makes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { dmGroupFor } from '../../server/db/queries/dm-groups.js';
import { setReadThrough } from '../../server/db/queries/flags.js';
import { markdownLookups } from '../../server/db/queries/markdown-lookups.js';
import { insertMessage } from '../../server/db/queries/messages.js';
import { insertStream, insertSubscription } from '../../server/db/queries/streams.js';
import { setUserPasswordHash, userByEmailKey } from '../../server/db/queries/users.js';
import { renderMarkdown } from '../../server/markdown/markdown.js';
import { hashPassword } from '../../server/shared/credentials.js';
import { startBenchOrg } from './org.js';
import { progress } from './report.js';

export interface ChatOrgShape {
  users: number;
  channels: number;
  messages: number;
  /** Every `scrollEvery`-th message goes to the scroll channel (so it holds messages / scrollEvery). */
  scrollEvery: number;
}

/** What the bench needs to know about what was built (written beside the database). */
export interface ChatOrgFacts {
  email: string;
  apiKey: string;
  /** The measured user's password: the browser logs in to a session with it. */
  password: string;
  /** The subscribed channel with the largest unread backlog: the first paint opens it. */
  busiest: { id: number; name: string; unread: number };
  /** The channel of `messages / scrollEvery` messages, all read. */
  scroll: { id: number; name: string; messages: number };
  unread: number;
}

export const FACTS_FILE = 'chat-bench.json';
/** Bump when this builder changes what it builds (part of the cache key). */
export const CHAT_ORG_VERSION = 2;
const MEASURED_PASSWORD = 'bench-measured-password';
const MEASURED_USER = 1;

const CHANNEL_NAMES =
  'general engineering design product support sales marketing ops infra frontend backend mobile qa security data analytics hiring random announcements releases docs legal finance office social books music travel food sports'.split(
    ' ',
  );
const WORDS =
  'the a we should deploy build review test branch merge fix bug issue standup meeting coffee lunch plan sprint ticket design api server client cache queue index search table chart report draft idea question answer thanks sure later today tomorrow week customer release migration database latency memory dashboard alert rollback config feature flag experiment'.split(
    ' ',
  );
const TOPIC_WORDS =
  'release planning outage retro onboarding roadmap budget hiring bugs triage launch metrics feedback offsite docs refactor upgrade incident pricing survey'.split(
    ' ',
  );

/** A small deterministic generator: the same organization on every machine. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Markdown as people write it: mostly a sentence or two, sometimes code, links, lists, quotes. */
function markdownOf(next: () => number, users: number): string {
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  const sentence = () => {
    const n = 4 + Math.floor(next() * 18);
    const words = Array.from({ length: n }, () => pick(WORDS));
    return `${words.join(' ')}${pick(['.', '.', '?', '!'])}`;
  };
  const kind = next();
  if (kind < 0.04) {
    const lines = Array.from(
      { length: 3 + Math.floor(next() * 6) },
      (_, i) => `    result_${i} = ${pick(WORDS)}(${pick(WORDS)}, ${i})`,
    );
    return `${sentence()}\n\`\`\`python\ndef ${pick(WORDS)}():\n${lines.join('\n')}\n\`\`\``;
  }
  if (kind < 0.07) return `@**User ${Math.floor(next() * users)}** ${sentence()}`;
  if (kind < 0.1)
    return `${sentence()} https://example.com/${pick(WORDS)}/${Math.floor(next() * 1000)}`;
  if (kind < 0.12) return `> ${sentence()}\n\n${sentence()}`;
  if (kind < 0.14) return `${sentence()}\n- ${sentence()}\n- ${sentence()}\n- ${sentence()}`;
  if (kind < 0.16) return `${sentence()} :+1: :tada:`;
  if (kind < 0.17) return `${sentence()} $$x^2 + ${Math.floor(next() * 9)}$$ **${pick(WORDS)}**`;
  if (kind < 0.3) return `${sentence()} ${sentence()}\n\n${sentence()}`;
  return next() < 0.5 ? sentence() : `${sentence()} ${sentence()}`;
}

/** Channel traffic falls off like real organizations' (a few busy, a long quiet tail). */
function channelWeights(count: number): number[] {
  const weights = Array.from({ length: count }, (_, i) => 1 / (i + 1) ** 0.9);
  const total = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  return weights.map((w) => (running += w / total));
}

export async function buildChatOrg(dataDir: string, shape: ChatOrgShape): Promise<void> {
  const { server, ids } = await startBenchOrg(dataDir, shape.users);
  const { ctx } = server;
  const me = ids[MEASURED_USER]!;
  const names = Array.from(
    { length: shape.channels },
    (_, c) => CHANNEL_NAMES[c] ?? `team ${c - CHANNEL_NAMES.length + 1}`,
  );
  // Channel 1 is the scroll channel; the others share the rest by weight.
  const SCROLL = 1;
  const streamIds = ctx.transaction(() => {
    const created = names.map((name, c) =>
      insertStream(ctx.db, {
        name,
        description: `All about ${name}`,
        rendered_description: `<p>All about ${name}</p>`,
        invite_only: c % 10 === 9,
        is_web_public: false,
        history_public_to_subscribers: true,
        date_created: 0,
        creator_id: null,
      }),
    );
    ids.forEach((userId, u) => {
      const count = u === MEASURED_USER ? Math.min(25, shape.channels) : 15;
      for (let k = 0; k < Math.min(count, shape.channels); k++) {
        const c = u === MEASURED_USER ? k : (u * 7 + k) % shape.channels;
        insertSubscription(ctx.db, created[c]!, userId, ['#76ce90', '#f5ce6e', '#a6c7e5'][c % 3]!);
      }
    });
    return created;
  });

  // The measured user's direct conversations: ten people and two small groups.
  const partners = Array.from({ length: 10 }, (_, k) => ids[2 + ((k * 13) % (shape.users - 2))]!);
  const myDms = ctx.transaction(() => [
    ...partners.map((p) => dmGroupFor(ctx.db, [me, p])),
    dmGroupFor(ctx.db, [me, partners[0]!, partners[1]!]),
    dmGroupFor(ctx.db, [me, partners[2]!, partners[3]!, partners[4]!]),
  ]);

  const lookups = markdownLookups(ctx.db);
  const options = { realmUrl: ctx.config.externalUrl, translateEmoticons: false };
  const cumulative = channelWeights(shape.channels - 1);
  const next = random(42);
  const topicsOf = (c: number) => 3 + Math.floor(60 / (1 + c / 4));
  const start = Math.floor(Date.now() / 1000) - shape.messages * 300;
  const batch = 2000;
  for (let i = 0; i < shape.messages; i += batch) {
    ctx.transaction(() => {
      for (let j = i; j < Math.min(shape.messages, i + batch); j++) {
        let streamId: number | null = null;
        let dmGroupId: number | null = null;
        let topic = '';
        let sender = ids[Math.floor(next() * ids.length)]!;
        if (j % shape.scrollEvery === 0) {
          streamId = streamIds[SCROLL]!;
          topic = `${TOPIC_WORDS[Math.floor(j / 400) % TOPIC_WORDS.length]} ${Math.floor(j / 8000)}`;
        } else if (next() < 0.12) {
          // A third of the direct messages are the measured user's.
          if (next() < 0.33) {
            dmGroupId = myDms[Math.floor(next() * myDms.length)]!;
            if (next() < 0.5) sender = me;
            else sender = partners[Math.floor(next() * partners.length)]!;
          } else {
            const other = ids[2 + Math.floor(next() * (ids.length - 2))]!;
            if (other === sender || sender === me) sender = ids[0]!;
            dmGroupId = dmGroupFor(ctx.db, [sender, other]);
          }
        } else {
          const r = next();
          let c = cumulative.findIndex((w) => r <= w);
          c = c === -1 ? 0 : c;
          c += c >= SCROLL ? 1 : 0;
          streamId = streamIds[c]!;
          // Topics drift: the ones in use move on as time passes.
          const span = topicsOf(c);
          const t = Math.floor(next() * span) + Math.floor(j / 5000);
          topic = `${TOPIC_WORDS[t % TOPIC_WORDS.length]} ${Math.floor(t / TOPIC_WORDS.length)}`;
        }
        const content = markdownOf(next, shape.users);
        const rendered = renderMarkdown(content, lookups, options);
        insertMessage(ctx.db, {
          sender_id: sender,
          stream_id: streamId,
          dm_group_id: dmGroupId,
          topic,
          content,
          rendered_content: rendered.html,
          date_sent: start + j * 300,
          sending_client: 'bench',
          has_link: content.includes('https://'),
        });
      }
    });
    progress('messages', Math.min(shape.messages, i + batch), shape.messages);
  }

  // A few days away: some channels untouched, others with a backlog of up to 300.
  let unread = 0;
  let busiest = { id: 0, name: '', unread: -1 };
  ctx.transaction(() => {
    for (let c = 0; c < Math.min(25, shape.channels); c++) {
      const backlog = c === SCROLL || c % 4 === 3 ? 0 : (c * 37) % 300;
      const row = ctx.db
        .prepare(
          'SELECT id FROM messages WHERE stream_id = ? AND sender_id != ? ORDER BY id DESC LIMIT 1 OFFSET ?',
        )
        .get(streamIds[c], me, backlog) as { id: number } | undefined;
      if (!row) continue;
      setReadThrough(ctx.db, me, { kind: 'channel', id: streamIds[c]! }, row.id);
      unread += backlog;
      if (backlog > busiest.unread)
        busiest = { id: streamIds[c]!, name: names[c]!, unread: backlog };
    }
    myDms.forEach((group, k) => {
      const backlog = k === 0 ? 3 : k === 10 ? 8 : 0;
      const row = ctx.db
        .prepare(
          'SELECT id FROM messages WHERE dm_group_id = ? AND sender_id != ? ORDER BY id DESC LIMIT 1 OFFSET ?',
        )
        .get(group, me, backlog) as { id: number } | undefined;
      if (!row) return;
      setReadThrough(ctx.db, me, { kind: 'dm', id: group }, row.id);
      unread += backlog;
    });
  });

  // The newest few through the API: mentions of the measured user and a DM, flagged as real sends are.
  const auth = (index: number) => {
    const user = userByEmailKey(ctx.db, `user${index}@bench.test`)!;
    return `Basic ${Buffer.from(`${user.delivery_email}:${user.api_key}`).toString('base64')}`;
  };
  const send = async (from: number, params: Record<string, string>) => {
    const response = await fetch(`${server.url}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization: auth(from), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    });
    if (!response.ok) throw new Error(`send: ${response.status} ${await response.text()}`);
  };
  for (let k = 0; k < 6; k++) {
    await send(5 + k, {
      type: 'stream',
      to: String(busiest.id),
      topic: 'release 9',
      content: `@**User ${MEASURED_USER}** could you look at ${WORDS[k]} before the release?`,
    });
  }
  await send(7, { type: 'direct', to: JSON.stringify([me]), content: 'Got a minute?' });
  unread += 7;
  busiest.unread += 6;

  ctx.db.pragma('optimize');
  const user = userByEmailKey(ctx.db, `user${MEASURED_USER}@bench.test`)!;
  setUserPasswordHash(ctx.db, user.id, await hashPassword(MEASURED_PASSWORD));
  const scrollCount = (
    ctx.db
      .prepare('SELECT count(*) AS n FROM messages WHERE stream_id = ?')
      .get(streamIds[SCROLL]) as { n: number }
  ).n;
  const facts: ChatOrgFacts = {
    email: user.delivery_email,
    apiKey: user.api_key,
    password: MEASURED_PASSWORD,
    busiest,
    scroll: { id: streamIds[SCROLL]!, name: names[SCROLL]!, messages: scrollCount },
    unread,
  };
  writeFileSync(path.join(dataDir, FACTS_FILE), `${JSON.stringify(facts, null, 2)}\n`);
  await server.close();
}
