import './channels.css';
import { useEffect, useId, useMemo, useState } from 'react';
import type { Channel } from '../data/model.js';
import { useChat, useChatStore, useZulipApi } from '../data/store-context.js';
import { ConfirmDialog } from '../ui/ConfirmDialog.js';
import { Dialog } from '../ui/Dialog.js';
import { goToNarrow } from '../ui/navigate.js';
import { CreateChannelForm } from './CreateChannelForm.js';
import { type BrowserTab, browserRows, channelCreationRights } from './channel-model.js';
import { useUserGroups } from './use-user-groups.js';

const TABS: { tab: BrowserTab; label: string }[] = [
  { tab: 'subscribed', label: 'Subscribed' },
  { tab: 'available', label: 'Not subscribed' },
  { tab: 'all', label: 'All channels' },
];

/** The dialog to browse, subscribe to, unsubscribe from and create channels. */
export function ChannelBrowser({ open, onClose }: { open: boolean; onClose: () => void }) {
  return open ? <ChannelBrowserDialog onClose={onClose} /> : null;
}

function ChannelBrowserDialog({ onClose }: { onClose: () => void }) {
  const store = useChatStore();
  const channels = useChat((s) => s.channels);
  const subscriptions = useChat((s) => s.subscriptions);
  const ownUser = useChat((s) => s.users.get(s.ownUserId));
  const realmSettings = useChat((s) => s.realm.settings);
  const groups = useUserGroups();
  const [tab, setTab] = useState<BrowserTab>('all');
  const [filter, setFilter] = useState('');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const filterId = useId();
  const explainId = useId();

  const rows = useMemo(
    () => browserRows({ channels, subscriptions }, tab, filter),
    [channels, subscriptions, tab, filter],
  );
  const rights = useMemo(
    () => channelCreationRights(ownUser, realmSettings, groups ?? new Map()),
    [ownUser, realmSettings, groups],
  );
  const mayCreate = groups !== null && (rights.public || rights.private || rights.web_public);

  // Zulip opens a channel you create once the server confirms the subscription.
  useEffect(() => {
    if (!created) return;
    const wanted = created.toLowerCase();
    const sub = [...subscriptions.values()].find((s) => s.name.toLowerCase() === wanted);
    if (!sub) return;
    onClose();
    goToNarrow([{ operator: 'channel', operand: sub.stream_id }], store.getState());
  }, [created, subscriptions, onClose, store]);

  const open = (channel: Channel) => {
    onClose();
    goToNarrow([{ operator: 'channel', operand: channel.stream_id }], store.getState());
  };

  return (
    <Dialog
      title={creating ? 'Create a channel' : 'Channels'}
      onClose={onClose}
      className="channel-browser"
    >
      {creating ? (
        <CreateChannelForm
          rights={rights}
          onCreated={(name) => {
            setCreating(false);
            setCreated(name);
            setFilter(name);
          }}
          onCancel={() => setCreating(false)}
        />
      ) : (
        renderList()
      )}
    </Dialog>
  );

  // A function, not a component: a component defined here would remount (and lose focus) every render.
  function renderList() {
    return (
      <>
        <div className="channel-browser-tools">
          <fieldset className="channel-browser-tabs">
            <legend className="visually-hidden">Show</legend>
            {TABS.map(({ tab: option, label }) => (
              <button
                key={option}
                type="button"
                className="chat-tab"
                aria-pressed={tab === option}
                onClick={() => setTab(option)}
              >
                {label}
              </button>
            ))}
          </fieldset>
          <label htmlFor={filterId} className="visually-hidden">
            Filter channels
          </label>
          <input
            id={filterId}
            data-autofocus
            type="search"
            placeholder="Filter channels"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
          />
          <button
            type="button"
            className="button primary"
            disabled={!mayCreate}
            aria-describedby={groups !== null && !mayCreate ? explainId : undefined}
            onClick={() => setCreating(true)}
          >
            Create channel
          </button>
        </div>
        {groups !== null && !mayCreate && (
          <p className="channel-browser-explain" id={explainId}>
            Your organization does not let you create channels.
          </p>
        )}
        {created && (
          <p className="channel-browser-created" role="status">
            Created #{created}.
          </p>
        )}
        {rows.length === 0 ? (
          <p className="channel-browser-empty">
            {filter.trim() ? 'No channels match your filter.' : 'No channels to show.'}
          </p>
        ) : (
          <ul className="channel-browser-list" aria-label="Channels">
            {rows.map(({ channel, subscribed }) => (
              <ChannelRow
                key={channel.stream_id}
                channel={channel}
                subscribed={subscribed}
                onOpen={() => open(channel)}
              />
            ))}
          </ul>
        )}
      </>
    );
  }
}

function ChannelRow({
  channel,
  subscribed,
  onOpen,
}: {
  channel: Channel;
  subscribed: boolean;
  onOpen: () => void;
}) {
  const api = useZulipApi();
  const color = useChat((s) => s.subscriptions.get(channel.stream_id)?.color);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const errorId = useId();

  // The button stays busy until the subscription event changes `subscribed`.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the event arrives
  useEffect(() => setBusy(false), [subscribed]);

  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      if (subscribed) {
        await api.call('DELETE', '/users/me/subscriptions', { subscriptions: [channel.name] });
      } else {
        await api.call('POST', '/users/me/subscriptions', {
          subscriptions: [{ name: channel.name }],
        });
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };

  const subscribers =
    typeof channel.subscriber_count === 'number' ? channel.subscriber_count : null;
  return (
    <li
      className={`channel-row${subscribed ? ' subscribed' : ''}`}
      data-stream-id={channel.stream_id}
    >
      <span
        className="channel-row-swatch"
        style={color ? { background: color } : undefined}
        aria-hidden="true"
      />
      <div className="channel-row-text">
        <button type="button" className="link-button channel-row-name" onClick={onOpen}>
          {channel.invite_only ? (
            <span className="channel-icon" role="img" aria-label="Private channel">
              🔒
            </span>
          ) : (
            <span className="channel-icon" aria-hidden="true">
              #
            </span>
          )}
          {channel.name}
        </button>
        {channel.is_web_public && <span className="badge">Web-public</span>}
        {subscribed && <span className="badge subscribed-badge">Subscribed</span>}
        {subscribers !== null && (
          <span className="channel-row-count">
            {subscribers} {subscribers === 1 ? 'subscriber' : 'subscribers'}
          </span>
        )}
        {channel.rendered_description ? (
          <div
            className="channel-row-description rendered-markdown"
            // The server rendered it from Markdown, as it renders messages.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: server-rendered Markdown
            dangerouslySetInnerHTML={{ __html: channel.rendered_description }}
          />
        ) : (
          channel.description && <p className="channel-row-description">{channel.description}</p>
        )}
        {error && (
          <p className="chat-field-error" id={errorId} role="alert">
            {error}
          </p>
        )}
      </div>
      <button
        type="button"
        className={`button${subscribed ? '' : ' primary'}`}
        disabled={busy}
        aria-label={`${subscribed ? 'Unsubscribe from' : 'Subscribe to'} ${channel.name}`}
        aria-describedby={error ? errorId : undefined}
        onClick={() => (subscribed && channel.invite_only ? setConfirming(true) : void toggle())}
      >
        {subscribed ? 'Unsubscribe' : 'Subscribe'}
      </button>
      {confirming && (
        <ConfirmDialog
          title={`Unsubscribe from #${channel.name}?`}
          confirmLabel="Unsubscribe"
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void toggle();
          }}
        >
          This is a private channel: once you leave, you cannot join it again unless a subscriber
          adds you.
        </ConfirmDialog>
      )}
    </li>
  );
}
