import './compose.css';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../data/api.js';
import type { ComposeTarget } from '../data/model.js';
import { useChat, useChatActions, useChatStore, useZulipApi } from '../data/store-context.js';
import { EmojiPicker } from '../message-actions/EmojiPicker.js';
import { applySuggestion, emojiCharacter, emojiKey } from './autocomplete.js';
import { type ComposeRequest, onComposeRequest, takeArrivalRequest } from './compose-control.js';
import { draftKey } from './drafts.js';
import { noteEmojiUse } from './emoji-data.js';
import { FormatBar, formatShortcut } from './FormatBar.js';
import { applyFormat, type FormatKind } from './formatting.js';
import { contentProblem, MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH, textLength } from './limits.js';
import { type EditingTarget, RecipientFields } from './RecipientFields.js';
import { ScheduleButton } from './ScheduleButton.js';
import { deliveryText, useTwentyFourHour } from './ScheduleDialog.js';
import { SnippetsButton } from './SnippetsButton.js';
import { SuggestionList } from './SuggestionList.js';
import { scheduleParams } from './scheduled.js';
import { emojiSyntax } from './syntax.js';
import { DEFAULT_TYPING_PERIODS, TypingNotifier, typingParams } from './typing.js';
import { useDraftStore } from './use-draft-store.js';
import { useTargetLabel } from './use-target-label.js';
import { useTypeahead } from './use-typeahead.js';
import { useUploads } from './use-uploads.js';

export interface ComposeBoxProps {
  /** The narrow's default target (composeTargetFor); null where the user must choose. */
  defaultTarget: ComposeTarget | null;
}

const editingFrom = (target: ComposeTarget | null): EditingTarget =>
  target ?? { kind: 'channel', channelId: null, topic: '' };

/** The target once the fields name one (a channel chosen, or at least one person). */
function completeTarget(editing: EditingTarget): ComposeTarget | null {
  if (editing.kind === 'direct') return editing.userIds.length > 0 ? editing : null;
  return editing.channelId === null
    ? null
    : { kind: 'channel', channelId: editing.channelId, topic: editing.topic.trim() };
}

const keyOf = (target: ComposeTarget | null) => (target ? draftKey(target) : 'none');

/** How long typing pauses before the draft is saved. */
const DRAFT_SAVE_DELAY_MS = 800;

const errorText = (err: unknown) =>
  err instanceof ApiError ? err.message : err instanceof Error ? err.message : String(err);

/**
 * The compose box at the foot of the feed: closed, a button to write to the
 * narrow's conversation (and one for a new direct message); open, the
 * recipient fields, the Markdown text with its typeaheads, preview, uploads
 * and the send controls. Unsent text is kept as a draft per conversation.
 */
export function ComposeBox({ defaultTarget }: ComposeBoxProps) {
  const id = useId();
  const api = useZulipApi();
  const store = useChatStore();
  const actions = useChatActions();
  const settings = useChat((s) => s.settings);
  const realmSettings = useChat((s) => s.realm.settings);

  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<EditingTarget>(() => editingFrom(defaultTarget));
  const [text, setText] = useState('');
  const [cursor, setCursor] = useState<number | null>(null);
  const [preview, setPreview] = useState<{ html: string } | 'loading' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [enterSendsChoice, setEnterSendsChoice] = useState<boolean | null>(null);
  const [dragging, setDragging] = useState(false);
  const [pickingEmoji, setPickingEmoji] = useState(false);
  const emojiButton = useRef<HTMLButtonElement>(null);
  /** A success to say (the message was scheduled), with a link to where it now is. */
  const [notice, setNotice] = useState<{ text: string; link: string; linkText: string } | null>(
    null,
  );
  /** The time of a scheduled message taken back for editing: "Schedule for …" offers it again. */
  const [unscheduledFrom, setUnscheduledFrom] = useState<number | null>(null);
  const twentyFour = useTwentyFourHour();

  const textarea = useRef<HTMLTextAreaElement>(null);
  const firstField = useRef<HTMLSelectElement & HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const pendingSelection = useRef<number | null>(null);
  /** The selection a format button leaves, applied once its text is in the box. */
  const pendingRange = useRef<{ start: number; end: number } | null>(null);
  const selectRange = (area: HTMLTextAreaElement, range: { start: number; end: number }) => {
    area.focus();
    area.setSelectionRange(range.start, range.end);
    setCursor(range.end);
  };

  // ---- drafts -------------------------------------------------------------
  const drafts = useDraftStore();
  /** Where the text in the box was last saved (or loaded from), and what was saved. */
  const saved = useRef<{ target: ComposeTarget | null; text: string }>({ target: null, text: '' });
  const latest = useRef({ editing, text });
  latest.current = { editing, text };

  const persist = useCallback(() => {
    const { editing: now, text: content } = latest.current;
    const target = completeTarget(now);
    const before = saved.current;
    if (keyOf(before.target) === keyOf(target) && before.text === content) return;
    const hadDraft = before.text.trim() !== '';
    // The recipient changed under the text: its draft moves with it.
    const moved = before.target !== null && keyOf(before.target) !== keyOf(target);
    if (moved && hadDraft) drafts.remove(before.target!).catch(() => {});
    saved.current = { target, text: content };
    if (target && (content.trim() !== '' || (!moved && hadDraft))) {
      drafts.save(target, content).catch(() => {});
    }
  }, [drafts]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: every change of the text or recipient restarts the wait
  useEffect(() => {
    const timer = setTimeout(persist, DRAFT_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [persist, text, editing]);
  useEffect(() => {
    window.addEventListener('pagehide', persist);
    return () => {
      window.removeEventListener('pagehide', persist);
      persist();
    };
  }, [persist]);

  /** Saves what is in the box, then shows `target`'s conversation with its draft. */
  const switchTo = useCallback(
    (next: EditingTarget): string => {
      persist();
      const target = completeTarget(next);
      const draft = target ? drafts.load(target) : '';
      saved.current = { target, text: draft };
      setEditing(next);
      setText(draft);
      setPreview(null);
      setError(null);
      return draft;
    },
    [persist, drafts],
  );

  // The narrow changed: its conversation's draft comes back with it.
  const defaultKey = keyOf(defaultTarget);
  const defaultRef = useRef(defaultTarget);
  defaultRef.current = defaultTarget;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the conversation, not the object's identity
  useEffect(() => {
    const draft = switchTo(editingFrom(defaultRef.current));
    if (draft.trim() !== '') setOpen(true);
  }, [defaultKey]);

  // ---- typing notifications -------------------------------------------------
  const typing = useMemo(() => {
    const period = (name: string, fallback: number) => {
      const value = realmSettings[name];
      return typeof value === 'number' && value > 0 ? value : fallback;
    };
    return new TypingNotifier(
      (op, target) => {
        const wanted =
          target.kind === 'channel'
            ? settings.send_stream_typing_notifications !== false
            : settings.send_private_typing_notifications !== false;
        if (wanted || op === 'stop') {
          api.call('POST', '/typing', typingParams(op, target)).catch(() => {});
        }
      },
      {
        startedWaitMs: period(
          'server_typing_started_wait_period_milliseconds',
          DEFAULT_TYPING_PERIODS.startedWaitMs,
        ),
        stoppedWaitMs: period(
          'server_typing_stopped_wait_period_milliseconds',
          DEFAULT_TYPING_PERIODS.stoppedWaitMs,
        ),
      },
    );
  }, [api, realmSettings, settings]);
  useEffect(() => () => typing.stop(), [typing]);

  // ---- editing the text -----------------------------------------------------
  const changeText = (next: string, selection: number | null = null) => {
    setText(next);
    setError(null);
    setNotice(null);
    if (selection !== null) pendingSelection.current = selection;
    typing.typed(completeTarget(latest.current.editing), next.trim() !== '');
  };

  useLayoutEffect(() => {
    const area = textarea.current;
    if (area && pendingRange.current !== null) {
      selectRange(area, pendingRange.current);
      pendingRange.current = null;
    }
    if (area && pendingSelection.current !== null) {
      area.setSelectionRange(pendingSelection.current, pendingSelection.current);
      setCursor(pendingSelection.current);
      pendingSelection.current = null;
    }
  });

  /**
   * Inserts at the cursor (at the end when the box was closed); blocks start
   * on a line of their own, and `ownLine` snippets (uploads) also end their
   * line. Several inserts before the box redraws follow one another rather
   * than all landing at the old cursor.
   */
  const insert = useCallback((snippet: string, ownLine = false) => {
    setText((current) => {
      const area = textarea.current;
      const focused = area !== null && document.activeElement === area;
      const queued = pendingSelection.current;
      const at = queued ?? (focused ? area.selectionStart : current.length);
      const end = queued ?? (focused ? area.selectionEnd : current.length);
      const before = current.slice(0, at);
      const after = current.slice(end);
      const block = ownLine || snippet.includes('\n');
      const lead = block && before !== '' && !before.endsWith('\n') ? '\n' : '';
      const trail = ownLine && after !== '' && !after.startsWith('\n') ? '\n' : '';
      pendingSelection.current = at + lead.length + snippet.length + trail.length;
      return before + lead + snippet + trail + after;
    });
  }, []);

  const typeahead = useTypeahead(text, cursor, completeTarget(editing), (token, suggestion) => {
    const next = applySuggestion(text, token, suggestion);
    changeText(next.text, next.cursor);
  });
  const uploads = useUploads((placeholder) => insert(placeholder, true), setText);

  // ---- opening and closing --------------------------------------------------
  const focusFirst = useCallback((target: EditingTarget) => {
    requestAnimationFrame(() => {
      if (completeTarget(target)) textarea.current?.focus();
      else firstField.current?.focus();
    });
  }, []);

  const openBox = (next: EditingTarget | null) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const target = next ?? latest.current.editing;
    if (next) switchTo(next);
    setOpen(true);
    focusFirst(target);
  };

  const close = () => {
    typing.stop();
    persist();
    setOpen(false);
    setPreview(null);
    const back = opener.current;
    opener.current = null;
    requestAnimationFrame(() => back?.isConnected && back.focus());
  };

  // A shortcut or a message action asks for the box (`c`, `r`, quote and reply).
  useEffect(() => {
    const handle = (request: ComposeRequest) => {
      opener.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
      let target = latest.current.editing;
      if (request.target === 'choose') {
        // Forwarding: a new message whose recipient is still to be chosen.
        target = editingFrom(null);
        switchTo(target);
      } else {
        const sameConversation =
          request.target !== null && keyOf(request.target) === keyOf(completeTarget(target));
        if (request.target && !sameConversation) {
          target = request.target;
          switchTo(target);
        }
      }
      setOpen(true);
      setPreview(null);
      setNotice(null);
      setUnscheduledFrom(request.unscheduledFrom ?? null);
      if (request.content !== undefined) {
        setText(request.content);
        pendingSelection.current = request.content.length;
      }
      if (request.insert) insert(request.insert);
      focusFirst(target);
    };
    const waiting = takeArrivalRequest();
    if (waiting) handle(waiting);
    return onComposeRequest(handle);
  }, [switchTo, insert, focusFirst]);

  // ---- sending --------------------------------------------------------------
  const savedEnterSends = settings.enter_sends === true;
  const enterSends = enterSendsChoice ?? savedEnterSends;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once the saved setting changes (the event came), the local choice has served
  useEffect(() => setEnterSendsChoice(null), [savedEnterSends]);
  const toggleEnterSends = (value: boolean) => {
    setEnterSendsChoice(value);
    api.call('PATCH', '/settings', { enter_sends: value }).catch((err: unknown) => {
      setEnterSendsChoice(null);
      setError(errorText(err));
    });
  };

  const length = textLength(text);
  const topicLength = editing.kind === 'channel' ? textLength(editing.topic.trim()) : 0;

  /** Why the box's message cannot go (null when it can), shown in the box. */
  const problemNow = () => {
    const target = completeTarget(editing);
    const problem = contentProblem({
      editing,
      target,
      text,
      uploading: uploads.pending > 0,
      topicsRequired: realmSettings.realm_mandatory_topics === true,
    });
    if (problem) setError(problem);
    return problem;
  };

  /** Zulip's "Schedule message": the box's message goes at `timestamp`; the box empties. */
  const schedule = async (timestamp: number) => {
    const problem = problemNow();
    if (problem) throw new Error(problem);
    const target = completeTarget(editing)!;
    const content = text;
    try {
      await api.call('POST', '/scheduled_messages', scheduleParams(target, content, timestamp));
    } catch (err) {
      setError(errorText(err));
      throw err;
    }
    changeText('');
    setPreview(null);
    setUnscheduledFrom(null);
    saved.current = { target, text: '' };
    drafts.remove(target).catch(() => {});
    setNotice({
      text: `Your message has been scheduled for ${deliveryText(timestamp, twentyFour)}.`,
      link: '#scheduled',
      linkText: 'View scheduled messages',
    });
  };

  const format = (kind: FormatKind) => {
    const area = textarea.current;
    if (!area) return;
    const next = applyFormat(kind, {
      text,
      selectionStart: area.selectionStart,
      selectionEnd: area.selectionEnd,
    });
    const range = { start: next.selectionStart, end: next.selectionEnd };
    if (next.text === text) {
      selectRange(area, range);
      return;
    }
    // Selected as the new text is committed, before the next key is
    // handled: a shortcut pressed right after the button formats the same words.
    pendingRange.current = range;
    changeText(next.text);
  };

  const send = async () => {
    if (problemNow()) return;
    const target = completeTarget(editing);
    const content = text;
    changeText('');
    setPreview(null);
    setUnscheduledFrom(null);
    saved.current = { target, text: '' };
    drafts.remove(target!).catch(() => {});
    const failedShown = () => {
      const state = store.getState();
      return (state.list?.ids ?? []).some((id) => state.messages.get(id)?.failed === true);
    };
    const failedBefore = failedShown();
    try {
      await actions.send(target!, content);
    } catch (err) {
      if (!failedBefore && failedShown()) {
        // The feed shows it, marked "Not sent" with Retry: the text stays there, not here twice.
        setError(`${errorText(err)} Your message is kept in the feed: retry it from there.`);
        return;
      }
      setError(errorText(err));
      // Nothing is lost: the text comes back unless something new was written meanwhile.
      setText((current) => (current === '' ? content : current));
    }
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (typeahead.onKeyDown(event)) return;
    const shortcut = formatShortcut(event);
    if (shortcut) {
      event.preventDefault();
      format(shortcut);
      return;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'Enter') return;
    const modified = event.ctrlKey || event.metaKey;
    if (enterSends ? !event.shiftKey && !modified && !event.altKey : modified) {
      event.preventDefault();
      void send();
    } else if (enterSends && modified) {
      // Ctrl+Enter adds a line where Enter sends (the textarea would not).
      event.preventDefault();
      const area = event.currentTarget;
      const at = area.selectionStart;
      changeText(`${text.slice(0, at)}\n${text.slice(area.selectionEnd)}`, at + 1);
    }
  };

  const togglePreview = async () => {
    if (preview !== null) {
      setPreview(null);
      requestAnimationFrame(() => textarea.current?.focus());
      return;
    }
    if (text.trim() === '') {
      setPreview({ html: '<p><em>Nothing to preview</em></p>' });
      return;
    }
    setPreview('loading');
    try {
      const answer = await api.call<{ rendered: string }>('POST', '/messages/render', {
        content: text,
      });
      setPreview({ html: answer.rendered });
    } catch (err) {
      setPreview(null);
      setError(errorText(err));
    }
  };

  const targetLabel = useTargetLabel(completeTarget(editingFrom(defaultTarget)));

  if (!open) {
    return (
      <section className="compose compose-closed" aria-label="Compose">
        <button
          type="button"
          className="button compose-open"
          onClick={() => openBox(defaultTarget ? editingFrom(defaultTarget) : null)}
        >
          {defaultTarget ? `Message ${targetLabel}` : 'Start new conversation'}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => openBox({ kind: 'direct', userIds: [] })}
        >
          New direct message
        </button>
      </section>
    );
  }

  const listId = `${id}-suggestions`;
  const showList = typeahead.suggestions.length > 0 && preview === null;
  const errors = [error, typeahead.error, ...uploads.errors].filter((e): e is string => !!e);
  const nearLimit = length > MAX_MESSAGE_LENGTH * 0.9;

  return (
    <section
      className={dragging ? 'compose compose-open-box dragging' : 'compose compose-open-box'}
      aria-label="Compose"
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        if (event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        setDragging(false);
        uploads.upload(Array.from(event.dataTransfer.files));
      }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <div className="compose-header">
          <RecipientFields
            value={editing}
            firstFieldRef={firstField}
            onChange={(next) => {
              setEditing(next);
              setError(null);
            }}
          />
          <button
            type="button"
            className="icon-button compose-close"
            aria-label="Close the compose box"
            title="Close (Esc)"
            onClick={close}
          >
            ×
          </button>
        </div>
        {editing.kind === 'channel' && topicLength > MAX_TOPIC_LENGTH && (
          <p className="compose-limit over" role="status">
            The topic is {topicLength - MAX_TOPIC_LENGTH} characters over the limit of{' '}
            {MAX_TOPIC_LENGTH}.
          </p>
        )}
        {unscheduledFrom !== null && (
          <div className="compose-banner" role="status">
            <span>This message is no longer scheduled to be sent.</span>
            <button
              type="button"
              className="link-button"
              onClick={() => void schedule(unscheduledFrom).catch(() => {})}
            >
              Schedule for {deliveryText(unscheduledFrom, twentyFour)}
            </button>
          </div>
        )}
        <FormatBar disabled={preview !== null} onFormat={format} />
        <div className="compose-editor">
          {preview === null ? (
            <textarea
              ref={textarea}
              className="compose-textarea"
              aria-label="Message"
              role="combobox"
              aria-autocomplete="list"
              aria-expanded={showList}
              aria-controls={listId}
              aria-activedescendant={showList ? `${listId}-${typeahead.active}` : undefined}
              aria-describedby={`${id}-hint`}
              placeholder={editing.kind === 'direct' ? 'Write a direct message' : 'Write a message'}
              rows={3}
              value={text}
              onChange={(event) => {
                changeText(event.target.value);
                setCursor(event.target.selectionStart);
              }}
              onSelect={(event) => setCursor(event.currentTarget.selectionStart)}
              onBlur={() => setCursor(null)}
              onKeyDown={onKeyDown}
              onPaste={(event) => {
                if (event.clipboardData.files.length === 0) return;
                event.preventDefault();
                uploads.upload(Array.from(event.clipboardData.files));
              }}
            />
          ) : (
            <section
              className="compose-preview rendered-markdown"
              aria-label="Preview"
              aria-busy={preview === 'loading'}
              // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own Markdown rendering, as the feed shows messages
              dangerouslySetInnerHTML={{
                __html: preview === 'loading' ? '<p>Rendering…</p>' : preview.html,
              }}
            />
          )}
          {showList && (
            <SuggestionList
              id={listId}
              label="Suggestions"
              suggestions={typeahead.suggestions}
              active={typeahead.active}
              onChoose={typeahead.choose}
            />
          )}
        </div>
        {notice && errors.length === 0 && (
          <p className="compose-banner success" role="status">
            <span>{notice.text}</span> <a href={notice.link}>{notice.linkText}</a>
          </p>
        )}
        {errors.length > 0 && (
          <div className="compose-errors" role="alert">
            {errors.map((message) => (
              <p key={message}>{message}</p>
            ))}
            {uploads.errors.length > 0 && (
              <button type="button" className="link-button" onClick={uploads.clearErrors}>
                Dismiss
              </button>
            )}
          </div>
        )}
        <div className="compose-toolbar">
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            onChange={(event) => {
              if (event.target.files) uploads.upload(Array.from(event.target.files));
              event.target.value = '';
            }}
          />
          <button
            type="button"
            className="button"
            onClick={() => fileInput.current?.click()}
            disabled={preview !== null}
          >
            Upload files
          </button>
          <button
            ref={emojiButton}
            type="button"
            className="button compose-emoji"
            aria-label="Add emoji"
            title="Add emoji"
            onClick={() => setPickingEmoji(true)}
            disabled={preview !== null}
          >
            <span className="emoji emoji-1f642" aria-hidden="true" />
          </button>
          <SnippetsButton
            disabled={preview !== null}
            currentText={() => latest.current.text}
            onInsert={(content) => {
              insert(content);
              requestAnimationFrame(() => textarea.current?.focus());
            }}
          />
          <button
            type="button"
            className="button"
            aria-pressed={preview !== null}
            onClick={() => void togglePreview()}
          >
            {preview === null ? 'Preview' : 'Edit'}
          </button>
          <label className="compose-enter-sends">
            <input
              type="checkbox"
              checked={enterSends}
              onChange={(event) => toggleEnterSends(event.target.checked)}
            />
            Enter to send
          </label>
          <span id={`${id}-hint`} className="compose-hint">
            {enterSends ? 'Shift+Enter for a new line' : 'Ctrl+Enter to send'}
          </span>
          {nearLimit && (
            <span
              className={length > MAX_MESSAGE_LENGTH ? 'compose-limit over' : 'compose-limit'}
              role="status"
            >
              {length > MAX_MESSAGE_LENGTH
                ? `${length - MAX_MESSAGE_LENGTH} characters over the limit`
                : `${MAX_MESSAGE_LENGTH - length} characters left`}
            </span>
          )}
          {uploads.pending > 0 && (
            <span className="compose-uploading" role="status">
              Uploading {uploads.pending} {uploads.pending === 1 ? 'file' : 'files'}…
            </span>
          )}
          <button
            type="submit"
            className="button primary compose-send"
            disabled={length > MAX_MESSAGE_LENGTH || topicLength > MAX_TOPIC_LENGTH}
          >
            Send
          </button>
          <ScheduleButton
            disabled={length > MAX_MESSAGE_LENGTH || topicLength > MAX_TOPIC_LENGTH}
            onSchedule={schedule}
          />
        </div>
      </form>
      {pickingEmoji && (
        <EmojiPicker
          title="Add an emoji"
          skinTones
          returnFocus={textarea.current}
          onClose={() => setPickingEmoji(false)}
          onPick={(emoji) => {
            noteEmojiUse(emojiKey(emoji));
            // A skin tone has no Zulip name: it goes in as the characters themselves.
            const text = emoji.toned ? emojiCharacter(emoji.toned) : emojiSyntax(emoji.name);
            insert(`${text} `);
            setPickingEmoji(false);
            requestAnimationFrame(() => textarea.current?.focus());
          }}
        />
      )}
    </section>
  );
}
