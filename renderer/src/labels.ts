/** Zulip's role values, most privileged first. */
export const ROLES = [
  { value: 100, label: 'Owner' },
  { value: 200, label: 'Administrator' },
  { value: 300, label: 'Moderator' },
  { value: 400, label: 'Member' },
  { value: 600, label: 'Guest' },
] as const;

export const MEMBER_ROLE = 400;

export const BOT_TYPES = [
  { value: 1, label: 'Generic bot' },
  { value: 2, label: 'Incoming webhook' },
  { value: 3, label: 'Outgoing webhook' },
] as const;

export const OUTGOING_WEBHOOK = 3;

export function roleLabel(role: number): string {
  return ROLES.find((r) => r.value === role)?.label ?? `Role ${role}`;
}

/** A user's kind; people have no bot_type at all (Zulip sends it for bots only). */
export function botTypeLabel(botType: number | null | undefined): string {
  if (botType === null || botType === undefined) return 'Human';
  if (botType === 4) return 'Embedded bot';
  return BOT_TYPES.find((b) => b.value === botType)?.label ?? `Bot type ${botType}`;
}

/** Bots the server speaks through (the Notification Bot) have no owner and no settings. */
export const isSystemBot = (user: { is_bot: boolean; bot_owner_id?: number | null }) =>
  user.is_bot && user.bot_owner_id === null;

/** A Python snippet that connects with the owner's zuliprc (or with explicit values). */
export function pythonSnippet(org: {
  url: string;
  ownerEmail: string;
  zuliprcPath: string | null;
}): string {
  const connect = org.zuliprcPath
    ? `client = zulip.Client(config_file=${JSON.stringify(org.zuliprcPath)})`
    : `client = zulip.Client(\n    email=${JSON.stringify(org.ownerEmail)},\n    api_key="<the owner's API key>",\n    site=${JSON.stringify(org.url)},\n)`;
  return `# pip install zulip\nimport zulip\n\n${connect}\nprint(client.get_profile())\n`;
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

export function formatDuration(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min`;
  return `${seconds} s`;
}

/** Zulip's custom profile field types the admin UI offers (external accounts need a subtype). */
export const PROFILE_FIELD_TYPES = [
  { value: 1, label: 'Short text' },
  { value: 2, label: 'Long text' },
  { value: 3, label: 'List of options' },
  { value: 4, label: 'Date' },
  { value: 5, label: 'Link' },
  { value: 6, label: 'Users' },
  { value: 8, label: 'Pronouns' },
] as const;

export const SELECT_FIELD = 3;

export function profileFieldTypeLabel(type: number): string {
  if (type === 7) return 'External account';
  return PROFILE_FIELD_TYPES.find((t) => t.value === type)?.label ?? `Type ${type}`;
}

/** A list-of-options field's `field_data`: one option per non-empty line, in order. */
export function selectFieldData(lines: string): Record<string, { text: string; order: string }> {
  const options = lines
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return Object.fromEntries(options.map((text, i) => [String(i), { text, order: String(i) }]));
}
