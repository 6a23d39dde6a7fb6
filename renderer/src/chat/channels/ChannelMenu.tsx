/** The menu beside a channel in the sidebar: mute/unmute, pin, mark as read, unsubscribe. STUB. */
export function ChannelMenu(_props: { channelId: number }) {
  return null;
}
