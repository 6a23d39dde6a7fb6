import './message-actions.css';
import { useEffect, useId, useRef, useState } from 'react';
import { type EmojiChoice, emojiKey } from '../compose/autocomplete.js';
import { requestCompose } from '../compose/compose-control.js';
import { noteEmojiUse } from '../compose/emoji-data.js';
import { fetchGroups } from '../compose/groups.js';
import { ScheduleDialog } from '../compose/ScheduleDialog.js';
import { quoteBlock } from '../compose/syntax.js';
import { ApiError } from '../data/api.js';
import type { Message } from '../data/model.js';
import { messageLink } from '../data/narrow.js';
import { useChat, useChatStore, useZulipApi } from '../data/store-context.js';
import { ConfirmDialog } from '../ui/ConfirmDialog.js';
import { Dialog } from '../ui/Dialog.js';
import { EditDialog } from './EditDialog.js';
import { EmojiPicker } from './EmojiPicker.js';
import { rawContent } from './fetch-message.js';
import { HistoryDialog } from './HistoryDialog.js';
import { startInlineEdit } from './inline-edit.js';
import { markUnreadFromHere } from './mark-unread.js';
import { type MessageCommand, onMessageCommand } from './message-commands.js';
import { type MessagePermissions, messagePermissions } from './permissions.js';
import { ReadReceiptsDialog } from './ReadReceiptsDialog.js';
import { ReportDialog } from './ReportDialog.js';
import { reactionKey } from './reaction-chips.js';
import { absoluteLink, replyTarget } from './reply.js';
import { resolveLabel, toggleTopicResolved } from './resolve-topic.js';
import { SourceDialog } from './SourceDialog.js';

type Open =
  | 'react'
  | 'edit'
  | 'history'
  | 'source'
  | 'delete'
  | 'remind'
  | 'receipts'
  | 'report'
  | 'mute'
  | null;

interface MenuItem {
  key: string;
  label: string;
  run(): void;
  danger?: boolean;
}

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : String(err));

/** Whether the organization lets this person see a message's edit history. */
function historyVisible(settings: Record<string, unknown>): boolean {
  const policy = settings.realm_message_edit_history_visibility_policy;
  if (policy === 'none') return false;
  return settings.realm_allow_edit_history !== false || policy !== undefined;
}

/**
 * The actions button on one message and its menu: react, quote and reply,
 * edit or move, resolve or unresolve its topic, star, copy link, edit history, source, delete. The menu
 * lists only what the server would allow; a refusal is still shown.
 */
export function MessageActions({ message }: { message: Message }) {
  const id = useId();
  const api = useZulipApi();
  const store = useChatStore();
  const ownUserId = useChat((s) => s.ownUserId);
  const realmSettings = useChat((s) => s.realm.settings);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const [permissions, setPermissions] = useState<MessagePermissions | null>(null);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);

  const starred = message.flags.includes('starred');
  const confirmed = message.local_id === undefined;

  const report = (text: string, error = true) => {
    setStatus({ text, error });
    if (!error) setTimeout(() => setStatus(null), 3000);
  };

  // Positioned at the button each time it opens: the menu is in the top layer, outside the feed's scrolling.
  const showMenu = async () => {
    const state = store.getState();
    let groups = state.groups;
    if (!groups) {
      try {
        groups = await fetchGroups(api);
      } catch (err) {
        report(errorText(err));
        return;
      }
    }
    setPermissions(messagePermissions(message, state, Date.now() / 1000, groups));
    setStatus(null);
    setMenuOpen(true);
  };
  useEffect(() => {
    const element = menu.current;
    const anchor = button.current;
    if (!menuOpen || !element || !anchor) return;
    element.showPopover();
    const box = anchor.getBoundingClientRect();
    const height = element.offsetHeight;
    const below = box.bottom + height + 8 < window.innerHeight;
    element.style.top = `${below ? box.bottom + 4 : Math.max(4, box.top - height - 4)}px`;
    element.style.left = `${Math.max(4, Math.min(box.right - element.offsetWidth, window.innerWidth - element.offsetWidth - 4))}px`;
    element.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
  }, [menuOpen]);

  // Keyboard shortcuts on the selected message (`i`, `:`, `e`, `>`: views/keyboard.ts).
  const command = useRef<(name: MessageCommand) => void>(() => {});
  command.current = (name) => {
    if (!confirmed) return;
    if (name === 'menu') void showMenu();
    else if (name === 'react') setOpen('react');
    else if (name === 'quote') void quoteAndReply();
    else void editFromKeyboard();
  };
  useEffect(() => onMessageCommand(message.id, (name) => command.current(name)), [message.id]);

  const closeMenu = (focusButton: boolean) => {
    if (menu.current?.matches(':popover-open')) menu.current.hidePopover();
    setMenuOpen(false);
    if (focusButton) button.current?.focus();
  };

  const react = (emoji: EmojiChoice) => {
    noteEmojiUse(emojiKey(emoji));
    const key = reactionKey({ reaction_type: emoji.type, emoji_code: emoji.code });
    const mine = message.reactions.some((r) => r.user_id === ownUserId && reactionKey(r) === key);
    api
      .call(mine ? 'DELETE' : 'POST', `/messages/${message.id}/reactions`, {
        emoji_name: emoji.name,
        emoji_code: emoji.code,
        reaction_type: emoji.type,
      })
      .catch((err: unknown) => report(errorText(err)));
  };

  const quoteAndReply = async () => {
    const state = store.getState();
    const target = replyTarget(message, ownUserId);
    try {
      const raw = await rawContent(api, message.id);
      const link = absoluteLink(messageLink(message, state), api.url('/'));
      const sender = { fullName: message.sender_full_name, userId: message.sender_id };
      requestCompose({ target, insert: quoteBlock(sender, link, raw) });
    } catch (err) {
      report(errorText(err));
    }
  };

  // `e` edits what the server lets one edit of the message, as the menu's item would.
  const editFromKeyboard = async () => {
    const state = store.getState();
    const groups = state.groups ?? (await fetchGroups(api).catch(() => undefined));
    if (!groups) return;
    const allowed = messagePermissions(message, state, Date.now() / 1000, groups);
    setPermissions(allowed);
    // The text in place, as the menu's Edit message; else the topic or channel in the move dialog.
    if (allowed.editContent) startInlineEdit(message.id);
    else if (allowed.editTopic || allowed.moveChannel) setOpen('edit');
  };

  const toggleStar = () =>
    api
      .call('POST', '/messages/flags', {
        messages: [message.id],
        op: starred ? 'remove' : 'add',
        flag: 'starred',
      })
      .catch((err: unknown) => report(errorText(err)));

  /** Zulip's "Forward message": the message quoted in a new message whose recipient is yet to choose. */
  const forward = async () => {
    const state = store.getState();
    try {
      const raw = await rawContent(api, message.id);
      const link = absoluteLink(messageLink(message, state), api.url('/'));
      const sender = { fullName: message.sender_full_name, userId: message.sender_id };
      requestCompose({ target: 'choose', insert: quoteBlock(sender, link, raw) });
    } catch (err) {
      report(errorText(err));
    }
  };

  const markUnread = () => {
    const narrow = store.getState().list?.narrow ?? [];
    markUnreadFromHere(api, narrow, message.id).catch((err: unknown) => report(errorText(err)));
  };

  const remind = async (timestamp: number, note: string) => {
    await api.call('POST', '/reminders', {
      message_id: message.id,
      scheduled_delivery_timestamp: timestamp,
      ...(note === '' ? {} : { note }),
    });
    report('Reminder scheduled.', false);
  };

  const muteSender = () =>
    api
      .call('POST', `/users/me/muted_users/${message.sender_id}`)
      .catch((err: unknown) => report(errorText(err)));

  const copyLink = async () => {
    const link = absoluteLink(messageLink(message, store.getState()), api.url('/'));
    try {
      await navigator.clipboard.writeText(link);
      report('Link copied.', false);
    } catch {
      report(`Copy this link: ${link}`, false);
    }
  };

  const deleteMessage = async (close: () => void) => {
    try {
      await api.call('DELETE', `/messages/${message.id}`);
      close();
    } catch (err) {
      close();
      report(errorText(err));
    }
  };

  const items: MenuItem[] = [];
  if (permissions && confirmed) {
    items.push({ key: 'react', label: 'Add emoji reaction', run: () => setOpen('react') });
    items.push({ key: 'quote', label: 'Quote and reply', run: () => void quoteAndReply() });
    items.push({ key: 'forward', label: 'Forward message', run: () => void forward() });
    // The text is edited in place (InlineEdit); topic and channel in the move dialog.
    if (permissions.editContent) {
      items.push({ key: 'edit', label: 'Edit message', run: () => startInlineEdit(message.id) });
    }
    if (permissions.editTopic || permissions.moveChannel) {
      const label = permissions.moveChannel ? 'Move message' : 'Change topic';
      items.push({ key: 'move', label, run: () => setOpen('edit') });
    }
    if (permissions.resolveTopic && message.stream_id !== undefined) {
      const channelId = message.stream_id;
      items.push({
        key: 'resolve',
        label: resolveLabel(message.subject),
        run: () =>
          void toggleTopicResolved(
            api,
            store.getState(),
            channelId,
            message.subject,
            message.id,
          ).catch((err: unknown) => report(errorText(err))),
      });
    }
    if (message.flags.includes('read')) {
      items.push({ key: 'unread', label: 'Mark as unread from here', run: markUnread });
    }
    items.push({ key: 'remind', label: 'Remind me about this', run: () => setOpen('remind') });
    items.push({
      key: 'star',
      label: starred ? 'Unstar message' : 'Star message',
      run: () => void toggleStar(),
    });
    items.push({ key: 'link', label: 'Copy link to message', run: () => void copyLink() });
    const edited =
      message.last_edit_timestamp !== undefined || message.last_moved_timestamp !== undefined;
    if (edited && historyVisible(realmSettings)) {
      items.push({ key: 'history', label: 'View edit history', run: () => setOpen('history') });
    }
    if (realmSettings.realm_enable_read_receipts === true) {
      items.push({ key: 'receipts', label: 'View read receipts', run: () => setOpen('receipts') });
    }
    items.push({ key: 'source', label: 'View message source', run: () => setOpen('source') });
    const mine = message.sender_id === ownUserId;
    if (!mine && !store.getState().mutedUserIds.has(message.sender_id)) {
      items.push({ key: 'mute', label: 'Mute sender', run: () => setOpen('mute') });
    }
    const moderation = realmSettings.realm_moderation_request_channel_id;
    if (!mine && typeof moderation === 'number' && moderation !== -1) {
      items.push({ key: 'report', label: 'Report message', run: () => setOpen('report') });
    }
    if (permissions.delete) {
      items.push({
        key: 'delete',
        label: 'Delete message',
        run: () => setOpen('delete'),
        danger: true,
      });
    }
  }

  const onMenuKeyDown = (event: React.KeyboardEvent) => {
    const found = menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]');
    const buttons = found ? Array.from(found) : [];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const go = (i: number) => buttons[(i + buttons.length) % buttons.length]?.focus();
    if (event.key === 'ArrowDown') go(at + 1);
    else if (event.key === 'ArrowUp') go(at - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(buttons.length - 1);
    else if (event.key === 'Escape') closeMenu(true);
    else if (event.key === 'Tab') closeMenu(false);
    else return;
    if (event.key !== 'Tab') event.preventDefault();
  };

  const done = () => setOpen(null);
  return (
    <div className="message-menu">
      <button
        ref={button}
        type="button"
        className="icon-button message-actions-button"
        aria-label="Message actions"
        title="Message actions"
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        aria-controls={`${id}-menu`}
        disabled={!confirmed}
        onClick={() => (menuOpen ? closeMenu(true) : void showMenu())}
      >
        ⋯
      </button>
      {menuOpen && (
        <div
          ref={menu}
          id={`${id}-menu`}
          className="message-actions-menu"
          popover="auto"
          role="menu"
          aria-label="Message actions"
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
          onToggle={(event) => {
            // Light dismiss (a click elsewhere, Escape) closes the popover itself.
            if ((event.nativeEvent as ToggleEvent).newState === 'closed') setMenuOpen(false);
          }}
        >
          {items.map((item) => (
            <button
              key={item.key}
              type="button"
              role="menuitem"
              className={item.danger ? 'menu-item danger' : 'menu-item'}
              onClick={() => {
                closeMenu(item.key !== 'react' && open === null);
                item.run();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
      {status && (
        <p
          className={status.error ? 'message-actions-status error' : 'message-actions-status'}
          role={status.error ? 'alert' : 'status'}
        >
          {status.text}
        </p>
      )}
      {open === 'react' && (
        <EmojiPicker onPick={react} onClose={done} returnFocus={button.current} />
      )}
      {open === 'edit' && permissions && (
        <EditDialog
          message={message}
          permissions={{ ...permissions, editContent: false }}
          onClose={done}
          returnFocus={button.current}
        />
      )}
      {open === 'history' && (
        <HistoryDialog messageId={message.id} onClose={done} returnFocus={button.current} />
      )}
      {open === 'source' && (
        <SourceDialog messageId={message.id} onClose={done} returnFocus={button.current} />
      )}
      {open === 'remind' && (
        <ScheduleDialog
          title="Remind me about this"
          submitLabel="Schedule reminder"
          withNote
          onSubmit={remind}
          onClose={done}
        />
      )}
      {open === 'receipts' && <ReadReceiptsDialog messageId={message.id} onClose={done} />}
      {open === 'report' && (
        <ReportDialog
          messageId={message.id}
          senderName={message.sender_full_name}
          onClose={done}
          onReported={() => report('Message reported.', false)}
        />
      )}
      {open === 'mute' && (
        <ConfirmDialog
          title={`Mute ${message.sender_full_name}?`}
          confirmLabel="Confirm"
          onCancel={done}
          onConfirm={() => {
            done();
            void muteSender();
          }}
        >
          <p>
            Messages sent by {message.sender_full_name} will be hidden, and you will not get
            notifications about their messages or emoji reactions.
          </p>
        </ConfirmDialog>
      )}
      {open === 'delete' && (
        <Dialog title="Delete message?" onClose={done} returnFocus={button.current}>
          {(close) => (
            <>
              <p>Deleting a message permanently removes it for everyone.</p>
              <div className="actions">
                <button type="button" className="button" onClick={close}>
                  Cancel
                </button>
                <button
                  type="button"
                  className="button danger"
                  onClick={() => void deleteMessage(close)}
                >
                  Delete
                </button>
              </div>
            </>
          )}
        </Dialog>
      )}
    </div>
  );
}
