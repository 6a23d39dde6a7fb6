/**
 * Small line icons drawn here rather than from an emoji font (not every
 * system has one, and a missing glyph shows as a box).
 */
const PATHS = {
  inbox: 'M3 13h5l1.5 3h5L16 13h5M5 5h14l2 8v6H3v-6z',
  clock: 'M12 3a9 9 0 1 0 0 18a9 9 0 0 0 0-18zM12 7v5l3 2',
  feed: 'M4 6h16M4 12h16M4 18h10',
  at: 'M16 12a4 4 0 1 1-8 0a4 4 0 0 1 8 0zM16 12v1.5a2.5 2.5 0 0 0 5 0V12a9 9 0 1 0-3.5 7.1',
  star: 'M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z',
  user: 'M12 12a4 4 0 1 0 0-8a4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0',
  users:
    'M9 11a3.5 3.5 0 1 0 0-7a3.5 3.5 0 0 0 0 7zM2 20a7 7 0 0 1 14 0M16 4.5a3.5 3.5 0 0 1 0 6.5M18 13.5a7 7 0 0 1 4 6.5',
  menu: 'M4 6h16M4 12h16M4 18h16',
  /** A pencil: drafts. */
  pencil: 'M4 20l1-4L16 5l3 3L8 19zM14 7l3 3',
  /** A calendar: scheduled messages. */
  calendar: 'M4 6h16v14H4zM4 10h16M8 3v5M16 3v5',
  /** A bell: a followed topic notifies. */
  followed: 'M6 17v-6a6 6 0 0 1 12 0v6l1.5 2h-15zM10 21h4',
  /** A struck-through bell: a muted topic. */
  muted: 'M6 17v-6a6 6 0 0 1 9.7-4.7M18 11v6l1.5 2H8M10 21h4M3 3l18 18',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
