/** The menu beside a topic (sidebar and recipient bar): mute, unmute, follow, mark as read. STUB. */
export function TopicMenu(_props: { channelId: number; topic: string }) {
  return null;
}
