/** The admin UI's pure helpers: what it shows for sizes and durations, and what it sends for options. */
import { describe, expect, it } from 'vitest';
import {
  botTypeLabel,
  formatBytes,
  formatDuration,
  isSystemBot,
  pythonSnippet,
  roleLabel,
  selectFieldData,
} from '../../renderer/src/labels.js';

describe('labels', () => {
  it('selectFieldData numbers the non-empty lines in order', () => {
    expect(selectFieldData(' Kitchen \n\nGarden\n')).toEqual({
      '0': { text: 'Kitchen', order: '0' },
      '1': { text: 'Garden', order: '1' },
    });
    expect(selectFieldData('\n  \n')).toEqual({});
  });

  it('formatBytes and formatDuration pick the largest sensible unit', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(4096)).toBe('4.0 KiB');
    expect(formatBytes(5 * 1024 * 1024 + 1)).toBe('5.0 MiB');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(125)).toBe('2 min');
    expect(formatDuration(3 * 3600 + 60)).toBe('3 h 1 min');
    expect(formatDuration(2 * 86400 + 5 * 3600)).toBe('2 d 5 h');
  });

  it('names roles and bot types, and spots ownerless system bots', () => {
    expect(roleLabel(200)).toBe('Administrator');
    expect(roleLabel(999)).toBe('Role 999');
    expect(botTypeLabel(null)).toBe('Human');
    expect(botTypeLabel(4)).toBe('Embedded bot');
    expect(isSystemBot({ is_bot: true, bot_owner_id: null })).toBe(true);
    expect(isSystemBot({ is_bot: true, bot_owner_id: 3 })).toBe(false);
    expect(isSystemBot({ is_bot: false, bot_owner_id: null })).toBe(false);
  });

  it('the Python snippet uses the zuliprc when there is one, else the real URL', () => {
    const org = { url: 'http://10.0.0.5:8080', ownerEmail: 'o@example.com' };
    expect(pythonSnippet({ ...org, zuliprcPath: '/data/zuliprc' })).toContain(
      'zulip.Client(config_file="/data/zuliprc")',
    );
    expect(pythonSnippet({ ...org, zuliprcPath: null })).toContain('site="http://10.0.0.5:8080"');
  });
});
