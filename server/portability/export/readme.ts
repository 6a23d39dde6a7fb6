import type { ExportProfile } from '../profiles/index.js';

/** The README.md every export carries: what it is, how to import it, what did not travel. */
export function exportReadme(c: {
  profile: ExportProfile;
  counts: Record<string, number>;
  missingFiles: string[];
  droppedSettings: string[];
}): string {
  const { profile } = c;
  const lines = [
    `# Hearth export for Zulip Server ${profile.zulip_release_line}`,
    '',
    `This folder is a Zulip organization export in Zulip's own format (profile \`${profile.profile}\`).`,
    `Import it with \`manage.py import\` on a Zulip Server of the ${profile.zulip_release_line} line,`,
    'then upgrade Zulip as usual. Hearth does not write `migration_status.json`: generate it on the',
    "target with Zulip's own `do_common_export_processes` (see Hearth's docs/moving-to-zulip.md).",
    '',
    '## What it holds',
    '',
    ...Object.entries(c.counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, n]) => `- ${name}: ${n}`),
    '',
    '## What does not travel',
    '',
    ...profile.not_transferred.map((item) => `- ${item}`),
  ];
  if (c.droppedSettings.length > 0) {
    lines.push(
      '',
      '## Settings Zulip has no place for',
      '',
      ...c.droppedSettings.map((s) => `- ${s}`),
    );
  }
  if (c.missingFiles.length > 0) {
    lines.push(
      '',
      '## Files that were gone when the export ran',
      '',
      ...c.missingFiles.map((f) => `- ${f}`),
    );
  }
  lines.push(
    '',
    `Profile derived from ${profile.source.repository}: ${profile.source.revision}.`,
    '',
  );
  return lines.join('\n');
}
