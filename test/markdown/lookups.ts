import type {
  MarkdownLinkifier,
  MarkdownLookups,
  MarkdownRealmEmoji,
  MarkdownUser,
} from '../../server/markdown/markdown.js';

export interface FixtureData {
  users?: MarkdownUser[];
  groups?: Array<{ id: number; name: string }>;
  channels?: Array<{ id: number; name: string }>;
  emoji?: MarkdownRealmEmoji[];
  linkifiers?: MarkdownLinkifier[];
}

/** The organisation Zulip's own Markdown tests run against (zulip.testserver). */
export const ZULIP_TEST_REALM: FixtureData = {
  users: [
    { id: 8, fullName: 'Iago' },
    { id: 9, fullName: "Cordelia, Lear's daughter" },
    { id: 10, fullName: 'King Hamlet' },
    { id: 11, fullName: 'aaron' },
    { id: 12, fullName: 'Othello, the Moor of Venice' },
    { id: 13, fullName: 'Polonius' },
    { id: 14, fullName: 'Prospero from The Tempest' },
  ],
  groups: [
    { id: 1, name: 'hamletcharacters' },
    { id: 2, name: 'support' },
  ],
  channels: [
    { id: 1, name: 'Denmark' },
    { id: 2, name: 'Scotland' },
    { id: 3, name: 'Verona' },
    { id: 4, name: 'Venice' },
    { id: 5, name: 'Rome' },
  ],
  emoji: [
    {
      id: '1',
      name: 'green_tick',
      sourceUrl: '/user_avatars/2/emoji/images/1.png',
    },
  ],
};

export function makeLookups(data: FixtureData = ZULIP_TEST_REALM): MarkdownLookups {
  const users = data.users ?? [];
  return {
    userById: (id) => users.find((u) => u.id === id),
    usersByName: (name) => users.filter((u) => u.fullName.toLowerCase() === name.toLowerCase()),
    groupByName: (name) =>
      (data.groups ?? []).find((g) => g.name.toLowerCase() === name.toLowerCase()),
    channelByName: (name) =>
      (data.channels ?? []).find((c) => c.name.toLowerCase() === name.toLowerCase()),
    channelById: (id) => (data.channels ?? []).find((c) => c.id === id),
    realmEmoji: (name) => (data.emoji ?? []).find((e) => e.name === name),
    linkifiers: () => data.linkifiers ?? [],
  };
}
