import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ChannelBrowser } from '../channels/ChannelBrowser.js';
import { Policy } from '../channels/channel-model.js';
import { ComposeBox } from '../compose/ComposeBox.js';
import { requestCompose } from '../compose/compose-control.js';
import { userMention } from '../compose/syntax.js';
import type { ChatState, ComposeTarget, Message, MessageListState, Narrow } from '../data/model.js';
import { describeNarrow, dmKey } from '../data/narrow.js';
import { useChat, useChatActions, useChatStore } from '../data/store-context.js';
import { requestMessageCommand } from '../message-actions/message-commands.js';
import { UserCardHost } from '../people/UserCardHost.js';
import { UserList } from '../people/UserList.js';
import { applyAppearance, resetAppearance } from '../settings/appearance.js';
import { SettingsOverlay } from '../settings/SettingsOverlay.js';
import { actionFailure, reportActionError } from '../ui/action-errors.js';
import { linkEmojiSprites } from '../ui/emoji-sprites.js';
import { ConnectionBanner } from './ConnectionBanner.js';
import { FeedView } from './FeedView.js';
import { dmParticipants } from './feed/conversation.js';
import { SearchBox } from './header/SearchBox.js';
import { UserMenu } from './header/UserMenu.js';
import { Icon } from './Icon.js';
import { ImageViewer } from './ImageViewer.js';
import { Inbox } from './Inbox.js';
import { useShortcuts } from './keyboard.js';
import {
  authorTarget,
  conversationNarrow,
  hasOwnThumbsUp,
  type MessageImage,
  messageImages,
  THUMBS_UP,
  toggledTopicPolicy,
} from './message-shortcuts.js';
import { channelAndTopicOf, dmNarrow, starredNarrow, topicNarrow } from './narrows.js';
import { useDesktopNotifications, useNotificationPermission } from './notifications.js';
import { RecentConversations } from './RecentConversations.js';
import {
  hashFor,
  homeHash,
  narrowKey,
  navigate,
  type Route,
  replaceHash,
  routeFromHash,
  useDocumentTitle,
  useHash,
} from './routing.js';
import { ShortcutsHelp } from './ShortcutsHelp.js';
import { DraftsView } from './saved/DraftsView.js';
import { ScheduledView } from './saved/ScheduledView.js';
import { Sidebar } from './sidebar/Sidebar.js';
import { nextUnreadDirect, nextUnreadTopic } from './unread.js';

const SIDEBAR_ID = 'chat-sidebar';
const USERS_ID = 'chat-users';

/** The logged-in app: header, sidebar, the routed middle column, the user list. */
export function ChatShell({ onLogOut }: { onLogOut: () => void }) {
  const store = useChatStore();
  const actions = useChatActions();
  const hash = useHash();
  // Routes depend on names (channel links carry them), read once per hash change.
  const route = useMemo(() => routeFromHash(hash, store.getState()), [hash, store]);
  const narrow = route.kind === 'feed' ? route.narrow : null;
  const key = narrow === null ? null : narrowKey(narrow);

  const [drawerOpen, setDrawerOpen] = useState(false);
  const [usersOpen, setUsersOpen] = useState(false);
  const [browserOpen, setBrowserOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [images, setImages] = useState<MessageImage[] | null>(null);
  const searchInput = useRef<HTMLInputElement>(null);
  const main = useRef<HTMLElement>(null);

  // Emoji pictures (no emoji font needed): the stylesheet loads after the first paint.
  useEffect(() => linkEmojiSprites((path) => store.api.url(path)), [store]);

  const followedKey = useFollowedNarrow(key);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `narrow` (a new array each render)
  useEffect(() => {
    // The list is already there when the address only caught up with it.
    if (narrow !== null && key !== followedKey.current) actions.showNarrow(narrow);
    followedKey.current = null;
  }, [key, actions]);

  // A new view closes the phone drawer, as following a link in it should.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => setDrawerOpen(false), [hash]);

  const { selectedId, setSelectedId, move } = useSelection(key);
  const [permission, refreshPermission] = useNotificationPermission();
  useDesktopNotifications(store, permission);
  useTitle(route);
  useAppearance();

  const activeChannelId = narrow === null ? null : resolveChannelId(narrow, store.getState());

  useShortcuts({
    nextUnreadTopic: () => {
      const state = store.getState();
      const { channelId, topic } = narrow
        ? channelAndTopicOf(narrow)
        : { channelId: null, topic: null };
      const current = channelId !== null && topic !== null ? { channelId, topic } : null;
      const next = nextUnreadTopic(state, current);
      if (next) navigate(hashFor(topicNarrow(next.channelId, next.topic), state));
    },
    nextUnreadDirect: () => {
      const state = store.getState();
      const dm = narrow?.find((t) => t.operator === 'dm' && !t.negated);
      const currentKey = Array.isArray(dm?.operand) ? dmKey(dm.operand, state.ownUserId) : null;
      const next = nextUnreadDirect(state, currentKey);
      if (next !== null) {
        navigate(hashFor(dmNarrow(next.split(',').map(Number), state.ownUserId), state));
      }
    },
    compose: () => requestCompose({ target: null }),
    composeDirect: () => requestCompose({ target: { kind: 'direct', userIds: [] } }),
    reply: () => {
      const state = store.getState();
      const message = selectedId === null ? undefined : state.messages.get(selectedId);
      requestCompose({ target: message ? replyTarget(message, state.ownUserId) : null });
    },
    moveSelection: move,
    focusSearch: () => {
      searchInput.current?.focus();
      searchInput.current?.select();
    },
    showHelp: () => setHelpOpen(true),
    escape: () => {
      // As Zulip's: an open panel closes first; then Esc goes home, if the setting says so.
      if (drawerOpen || usersOpen) {
        setDrawerOpen(false);
        setUsersOpen(false);
        return;
      }
      const state = store.getState();
      if (state.settings.web_escape_navigates_to_home_view !== false) navigate(homeHash(state));
    },
    ...useMessageShortcuts(narrow, selectedId, setImages),
  });

  return (
    <div className="chat-app">
      <button type="button" className="skip-link" onClick={() => main.current?.focus()}>
        Skip to messages
      </button>
      <header className="topbar">
        <button
          type="button"
          className="icon-button menu-button"
          aria-expanded={drawerOpen}
          aria-controls={SIDEBAR_ID}
          aria-label="Channels and views"
          onClick={() => setDrawerOpen(!drawerOpen)}
        >
          <Icon name="menu" size={22} />
        </button>
        <RealmName />
        <SearchBox narrow={narrow} inputRef={searchInput} />
        <button
          type="button"
          className="icon-button users-button"
          aria-expanded={usersOpen}
          aria-controls={USERS_ID}
          aria-label="Users"
          onClick={() => setUsersOpen(!usersOpen)}
        >
          <Icon name="users" size={22} />
        </button>
        <UserMenu
          onLogOut={() => {
            resetAppearance();
            onLogOut();
          }}
          onShowShortcuts={() => setHelpOpen(true)}
          onOpenSettings={() => setSettingsOpen(true)}
          notifications={permission}
          onNotificationsChanged={refreshPermission}
        />
      </header>
      <ConnectionBanner />
      <div className="chat-body">
        <Sidebar
          id={SIDEBAR_ID}
          currentHash={hash}
          activeChannelId={activeChannelId}
          open={drawerOpen}
          onBrowseChannels={() => setBrowserOpen(true)}
        />
        {drawerOpen && (
          <button
            type="button"
            className="scrim"
            aria-label="Close the menu"
            tabIndex={-1}
            onClick={() => setDrawerOpen(false)}
          />
        )}
        <main ref={main} tabIndex={-1} className="chat-main">
          {route.kind === 'inbox' && <Inbox />}
          {route.kind === 'recent' && <RecentConversations />}
          {route.kind === 'drafts' && <DraftsView />}
          {route.kind === 'scheduled' && <ScheduledView />}
          {route.kind === 'feed' && (
            <FeedView narrow={route.narrow} selectedId={selectedId} onSelect={setSelectedId} />
          )}
          {route.kind !== 'feed' && <ComposeBox defaultTarget={null} />}
        </main>
        <aside
          id={USERS_ID}
          className={usersOpen ? 'users-panel open' : 'users-panel'}
          aria-label="Users"
        >
          <UserList />
        </aside>
      </div>
      <ChannelBrowser open={browserOpen} onClose={() => setBrowserOpen(false)} />
      <UserCardHost />
      <ShortcutsHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
      {images && <ImageViewer images={images} onClose={() => setImages(null)} />}
      {settingsOpen && (
        <SettingsOverlay
          section="profile"
          onClose={() => setSettingsOpen(false)}
          notifications={permission}
          onNotificationsChanged={refreshPermission}
        />
      )}
    </div>
  );
}

/**
 * The shortcuts on the selected message (Zulip's message_view_only keys):
 * those its actions menu offers go to the message's own actions
 * (`message-commands.ts`); the rest are calls from here.
 */
function useMessageShortcuts(
  narrow: Narrow | null,
  selectedId: number | null,
  showImages: (images: MessageImage[]) => void,
) {
  const store = useChatStore();
  const api = store.api;
  const selected = () => {
    const message = selectedId === null ? undefined : store.getState().messages.get(selectedId);
    // A message still being sent has no id the server knows.
    return message && message.local_id === undefined ? message : undefined;
  };
  const run = (what: string, call: () => Promise<unknown>) =>
    void call().catch((err) => reportActionError(actionFailure(what, err)));
  const command = (name: Parameters<typeof requestMessageCommand>[1]) => () => {
    const message = selected();
    if (message) requestMessageCommand(message.id, name);
  };
  return {
    toggleStar: () => {
      const message = selected();
      if (!message) return;
      const starred = message.flags.includes('starred');
      run(starred ? 'unstar the message' : 'star the message', () =>
        api.call('POST', '/messages/flags', {
          messages: [message.id],
          op: starred ? 'remove' : 'add',
          flag: 'starred',
        }),
      );
    },
    openStarred: () => navigate(hashFor(starredNarrow, store.getState())),
    thumbsUp: () => {
      const message = selected();
      if (!message) return;
      const mine = hasOwnThumbsUp(message, store.getState().ownUserId);
      run('react', () =>
        api.call(mine ? 'DELETE' : 'POST', `/messages/${message.id}/reactions`, THUMBS_UP),
      );
    },
    react: command('react'),
    edit: command('edit'),
    messageMenu: command('menu'),
    quote: command('quote'),
    replyToAuthor: () => {
      const message = selected();
      if (message) requestCompose({ target: authorTarget(message) });
    },
    replyMentioning: () => {
      const message = selected();
      if (!message) return;
      const state = store.getState();
      const ambiguous = [...state.users.values()].some(
        (u) => u.user_id !== message.sender_id && u.full_name === message.sender_full_name,
      );
      requestCompose({
        target: replyTarget(message, state.ownUserId),
        insert: `${userMention(message.sender_full_name, message.sender_id, { ambiguous })} `,
      });
    },
    toggleTopicMute: () => {
      const message = selected();
      if (!message) return;
      const policy = toggledTopicPolicy(message, store.getState());
      if (policy === null) return;
      run(policy === Policy.muted ? 'mute the topic' : 'unmute the topic', () =>
        api.call('POST', '/user_topics', {
          stream_id: message.stream_id,
          topic: message.subject,
          visibility_policy: policy,
        }),
      );
    },
    toggleConversation: () => {
      const message = selected();
      if (!message) return;
      const state = store.getState();
      navigate(hashFor(conversationNarrow(message, narrow, state.ownUserId), state));
    },
    viewImages: () => {
      const message = selected();
      const found = message ? messageImages(message.content) : [];
      if (found.length > 0) showImages(found);
    },
  };
}

/** The display settings on the page, now and after every change (this tab's or another's). */
function useAppearance() {
  const settings = useChat((s) => s.settings);
  useEffect(() => applyAppearance(settings), [settings]);
}

function RealmName() {
  const name = useChat((s) => s.realm.name);
  return <span className="realm-name">{name || 'Hearth'}</span>;
}

/** Where `r` replies: the selected message's conversation. */
export function replyTarget(message: Message, ownUserId: number): ComposeTarget {
  if (message.type === 'stream' && message.stream_id !== undefined) {
    return { kind: 'channel', channelId: message.stream_id, topic: message.subject };
  }
  return { kind: 'direct', userIds: dmParticipants(message, ownUserId) };
}

function resolveChannelId(narrow: Narrow, state: ChatState): number | null {
  const term = narrow.find(
    (t) => (t.operator === 'channel' || t.operator === 'stream') && !t.negated,
  );
  if (!term) return null;
  if (typeof term.operand === 'number') return term.operand;
  // Channel names compare without case, as the server's do.
  const name = String(term.operand).toLowerCase();
  for (const sub of state.subscriptions.values()) {
    if (sub.name.toLowerCase() === name) return sub.stream_id;
  }
  return null;
}

/** `(3) #general > lunch - Hearth`: the unread total first, as Zulip's title has it. */
function useTitle(route: Route) {
  const store = useChatStore();
  const total = useChat((s) => s.unread.total);
  // Re-describe when names change (a renamed channel), not on every event.
  const subscriptions = useChat((s) => s.subscriptions);
  const users = useChat((s) => s.users);
  const view = useMemo(() => {
    void subscriptions;
    void users;
    if (route.kind === 'inbox') return 'Inbox';
    if (route.kind === 'recent') return 'Recent conversations';
    if (route.kind === 'drafts') return 'Drafts';
    if (route.kind === 'scheduled') return 'Scheduled messages';
    if (route.narrow.length === 0) return 'Combined feed';
    return describeNarrow(route.narrow, store.getState()) || 'Messages';
  }, [route, store, subscriptions, users]);
  useDocumentTitle(`${total > 0 ? `(${total}) ` : ''}${view} - Hearth`);
}

/**
 * Keeps the address on the list's narrow when the list moves on its own
 * (a `with` link whose message was moved, a topic moved while shown, as
 * Zulip's web app follows them); returns the key of the narrow it went to,
 * which needs no fresh load.
 */
function useFollowedNarrow(key: string | null) {
  const store = useChatStore();
  const listNarrow = useChat((s) => s.list?.narrow ?? null);
  const followedKey = useRef<string | null>(null);
  const previousListKey = useRef<string | null>(null);
  useEffect(() => {
    const listKey = listNarrow === null ? null : narrowKey(listNarrow);
    const before = previousListKey.current;
    previousListKey.current = listKey;
    // Only a list that showed this route's narrow and changed without a new route followed something.
    if (listNarrow === null || key === null || before !== key || listKey === key) return;
    followedKey.current = listKey;
    replaceHash(hashFor(listNarrow, store.getState()));
  }, [listNarrow, key, store]);
  return followedKey;
}

/** Where a loaded list's selection starts: its anchor, else its newest message. */
function anchorSelection(list: MessageListState | null, key: string | null): number | null {
  if (!list || key === null || narrowKey(list.narrow) !== key || list.ids.length === 0) return null;
  const anchor = list.anchorId;
  const first = anchor === null ? undefined : list.ids.find((id) => id >= anchor);
  return first ?? list.ids[list.ids.length - 1] ?? null;
}

/**
 * The selected message (Zulip's pointer): the list's anchor when a narrow
 * opens, moved by ↑/↓/j/k and by clicks.
 */
function useSelection(key: string | null) {
  const store = useChatStore();
  const list = useChat((s) => s.list);
  // A list already loaded when the shell first renders (the opening feed) is seeded at
  // once: seeding it from the effect would render the whole shell a second time.
  const [selectedId, setSelectedId] = useState<number | null>(() => anchorSelection(list, key));
  const seeded = useRef<string | null>(selectedId === null ? null : key);

  useEffect(() => {
    const first = anchorSelection(list, key);
    if (first === null || seeded.current === key) return;
    seeded.current = key;
    setSelectedId(first);
  }, [list, key]);

  const move = useCallback(
    (delta: number) => {
      const ids = store.getState().list?.ids ?? [];
      if (ids.length === 0) return;
      setSelectedId((current) => {
        const at = current === null ? -1 : ids.indexOf(current);
        if (at === -1) return delta > 0 ? ids[0]! : ids[ids.length - 1]!;
        return ids[Math.min(ids.length - 1, Math.max(0, at + delta))]!;
      });
    },
    [store],
  );
  return { selectedId, setSelectedId, move };
}
