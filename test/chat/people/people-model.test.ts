/** The user list's and user card's derivations: presence, order, filter, times, roles. */
import { describe, expect, it } from 'vitest';
import {
  botOwner,
  lastSeenText,
  localTimeText,
  presenceStatus,
  roleName,
  userListSections,
  userMatchesFilter,
} from '../../../renderer/src/chat/people/people-model.js';
import { presence, user } from './fixtures.js';

const names = (list: { full_name: string }[]) => list.map((u) => u.full_name);

function state(overrides: Record<string, unknown> = {}) {
  const users = new Map(
    [
      user(1, 'Olive Own'),
      user(2, 'Zed Active'),
      user(3, 'Amy Active'),
      user(4, 'Ida Idle'),
      user(5, 'Otto Offline'),
      user(6, 'Nora NoPresence'),
      user(7, 'Dee Deactivated', { is_active: false }),
      user(8, 'Mo Muted'),
      user(9, 'Welcome Bot', { is_bot: true, bot_owner_id: 3 }),
      user(10, 'Ángel Ñandú', { email: 'angel@example.com' }),
    ].map((u) => [u.user_id, u]),
  );
  return {
    ownUserId: 1,
    users,
    presence: new Map([
      [2, presence('active', 1000)],
      [3, presence('active', 1000)],
      [4, presence('idle', 900)],
      [5, presence('offline', 100)],
      [8, presence('active', 1000)],
      [10, presence('offline', null)],
    ]),
    settings: { presence_enabled: true } as Record<string, unknown>,
    mutedUserIds: new Set([8]),
    ...overrides,
  };
}

describe('presenceStatus', () => {
  it('shows you active while you share presence, offline when you do not', () => {
    expect(presenceStatus(state(), 1)).toBe('active');
    expect(presenceStatus(state({ settings: { presence_enabled: false } }), 1)).toBe('offline');
  });
  it("gives others' status from the store, offline without data", () => {
    expect(presenceStatus(state(), 4)).toBe('idle');
    expect(presenceStatus(state(), 6)).toBe('offline');
  });
});

describe('userListSections', () => {
  it('groups humans by presence, by name, you first; bots apart; leaves out deactivated and muted', () => {
    const sections = userListSections(state(), '');
    expect(names(sections.active)).toEqual(['Olive Own', 'Amy Active', 'Zed Active']);
    expect(names(sections.idle)).toEqual(['Ida Idle']);
    expect(names(sections.offline)).toEqual(['Ángel Ñandú', 'Nora NoPresence', 'Otto Offline']);
    expect(names(sections.bots)).toEqual(['Welcome Bot']);
  });

  it('puts you among the offline when you are away', () => {
    const sections = userListSections(state({ settings: { presence_enabled: false } }), '');
    expect(names(sections.active)).toEqual(['Amy Active', 'Zed Active']);
    expect(names(sections.offline)).toContain('Olive Own');
  });

  it('keeps plain name order for you while filtering (as Zulip does while searching)', () => {
    const sections = userListSections(state(), 'o');
    expect(names(sections.active)).toEqual(['Olive Own']);
    expect(names(sections.offline)).toEqual(['Otto Offline']);
  });

  it('filters bots and humans alike', () => {
    const sections = userListSections(state(), 'welc');
    expect(names(sections.bots)).toEqual(['Welcome Bot']);
    expect(sections.active).toEqual([]);
  });
});

describe('userMatchesFilter', () => {
  const amy = user(3, 'Amy Beth Carter', { email: 'acarter@example.com' });
  it('matches word prefixes of the name in order, or the e-mail prefix', () => {
    expect(userMatchesFilter(amy, 'bet')).toBe(true);
    expect(userMatchesFilter(amy, 'amy car')).toBe(true);
    expect(userMatchesFilter(amy, 'car amy')).toBe(false);
    expect(userMatchesFilter(amy, 'eth')).toBe(false);
    expect(userMatchesFilter(amy, 'acar')).toBe(true);
    expect(userMatchesFilter(amy, 'example')).toBe(false);
  });
  it('ignores case and accents, and takes comma-separated alternatives', () => {
    expect(userMatchesFilter(user(10, 'Ángel Ñandú'), 'nand')).toBe(true);
    expect(userMatchesFilter(amy, 'zed, carter')).toBe(true);
    expect(userMatchesFilter(amy, ' , ')).toBe(true);
  });
});

describe('lastSeenText', () => {
  const now = new Date(2026, 5, 15, 12, 0, 0);
  const ago = (seconds: number) => Math.floor(now.getTime() / 1000) - seconds;
  it("uses Zulip's wording", () => {
    expect(lastSeenText('active', ago(10), now)).toBe('Active now');
    expect(lastSeenText('idle', ago(10), now)).toBe('Idle');
    expect(lastSeenText('offline', null, now)).toBe('Not active in the last year');
    expect(lastSeenText('offline', ago(5 * 60), now)).toBe('Active 5 minutes ago');
    expect(lastSeenText('offline', ago(70 * 60), now)).toBe('Active an hour ago');
    expect(lastSeenText('offline', ago(5 * 3600), now)).toBe('Active 5 hours ago');
    expect(lastSeenText('offline', ago(30 * 3600), now)).toBe('Active yesterday');
    expect(lastSeenText('offline', ago(10 * 86400), now)).toBe('Active 10 days ago');
    expect(lastSeenText('offline', ago(120 * 86400), now)).toBe('Active Feb 15');
    expect(lastSeenText('offline', ago(400 * 86400), now)).toBe('Active May 11, 2025');
  });
});

describe('localTimeText', () => {
  const when = new Date(Date.UTC(2026, 0, 10, 15, 5));
  it("shows the time in the user's zone, in the viewer's format", () => {
    expect(localTimeText('Europe/Berlin', when, false)).toBe('4:05 PM');
    expect(localTimeText('Europe/Berlin', when, true)).toBe('16:05');
    expect(localTimeText('America/New_York', when, false)).toBe('10:05 AM');
  });
  it('gives nothing for no zone or an unknown one', () => {
    expect(localTimeText('', when, false)).toBeNull();
    expect(localTimeText('Mars/Olympus_Mons', when, false)).toBeNull();
  });
});

describe('roles and owners', () => {
  it('names roles as Zulip does', () => {
    expect(roleName(user(1, 'A', { role: 100 }))).toBe('Organization owner');
    expect(roleName(user(1, 'A', { role: 200 }))).toBe('Organization administrator');
    expect(roleName(user(1, 'A', { role: 300 }))).toBe('Moderator');
    expect(roleName(user(1, 'A', { role: 400 }))).toBe('Member');
    expect(roleName(user(1, 'A', { role: 600 }))).toBe('Guest');
  });
  it("finds a bot's owner", () => {
    const s = state();
    expect(botOwner(s, s.users.get(9)!)?.full_name).toBe('Amy Active');
    expect(botOwner(s, s.users.get(2)!)).toBeNull();
  });
});
