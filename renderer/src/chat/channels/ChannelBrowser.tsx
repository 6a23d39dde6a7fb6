/** The dialog to browse, subscribe to, unsubscribe from and create channels. STUB. */
export function ChannelBrowser(_props: { open: boolean; onClose: () => void }) {
  return null;
}
