import { useChat } from '../data/store-context.js';

/** Says when the server cannot be reached; the store keeps retrying meanwhile. */
export function ConnectionBanner() {
  const connection = useChat((s) => s.connection);
  return (
    <div className="connection-banner" role="status" hidden={connection !== 'reconnecting'}>
      {connection === 'reconnecting' ? 'Cannot reach the server. Reconnecting…' : ''}
    </div>
  );
}
