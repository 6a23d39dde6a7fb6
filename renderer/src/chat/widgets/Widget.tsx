import './widgets.css';
import { type FormEvent, useMemo, useState } from 'react';
import { ApiError } from '../data/api.js';
import type { Message } from '../data/model.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import {
  isTaken,
  newOptionEvent,
  newTaskEvent,
  type Poll,
  questionEvent,
  type Submessage,
  strikeEvent,
  type TodoList,
  titleEvent,
  voteEvent,
  type WidgetState,
  widgetFrom,
} from './widget-data.js';

/** The poll or to-do list a message carries, or null (see `widgetFrom`). */
export function useWidget(message: Message | undefined): WidgetState | null {
  const senderId = message?.sender_id;
  const submessages = message?.submessages;
  return useMemo(
    () =>
      senderId === undefined || !submessages || submessages.length === 0
        ? null
        : widgetFrom(senderId, submessages as Submessage[]),
    [senderId, submessages],
  );
}

/** Sends one widget event (`POST /submessage`); the `submessage` event brings it back to all. */
function useSubmit(messageId: number) {
  const api = useZulipApi();
  const [error, setError] = useState<string | null>(null);
  const submit = (data: object) => {
    setError(null);
    api
      .call('POST', '/submessage', {
        message_id: messageId,
        msg_type: 'widget',
        content: JSON.stringify(data),
      })
      .catch((err: unknown) =>
        setError(err instanceof ApiError || err instanceof Error ? err.message : String(err)),
      );
  };
  return { submit, error };
}

/**
 * A message's poll or to-do list in place of its text (Zulip's widgets):
 * everyone who sees the message votes, adds options, adds and ticks tasks;
 * its author may rename the question or the list.
 */
export function Widget({ message, widget }: { message: Message; widget: WidgetState }) {
  const me = useChat((s) => s.ownUserId);
  const mine = message.sender_id === me;
  // An echo not yet confirmed has no id to attach to.
  const live = message.local_id === undefined;
  return widget.kind === 'poll' ? (
    <PollWidget messageId={message.id} poll={widget} me={me} mine={mine} live={live} />
  ) : (
    <TodoWidget messageId={message.id} list={widget} me={me} mine={mine} live={live} />
  );
}

interface WidgetProps {
  messageId: number;
  me: number;
  mine: boolean;
  live: boolean;
}

function PollWidget({ messageId, poll, me, mine, live }: WidgetProps & { poll: Poll }) {
  const users = useChat((s) => s.users);
  const { submit, error } = useSubmit(messageId);
  const name = (id: number) => (id === me ? 'You' : (users.get(id)?.full_name ?? 'Unknown user'));
  return (
    <section
      className="widget poll-widget"
      aria-label={`Poll: ${poll.question || 'no question yet'}`}
    >
      <EditableHeading
        text={poll.question}
        empty="No question yet"
        editLabel="Edit question"
        fieldLabel="Question"
        canEdit={mine && live}
        onSave={(question) => submit(questionEvent(question))}
      />
      <ul className="poll-options">
        {poll.options.map((option) => {
          const voted = option.voters.includes(me);
          const count = option.voters.length;
          return (
            <li key={option.key} className={voted ? 'poll-option voted' : 'poll-option'}>
              <button
                type="button"
                className="poll-vote"
                aria-pressed={voted}
                aria-label={`${voted ? 'Remove your vote for' : 'Vote for'} ${option.option} (${count} ${count === 1 ? 'vote' : 'votes'})`}
                disabled={!live}
                onClick={() => submit(voteEvent(poll, option.key, me))}
              >
                {count}
              </button>
              <span className="poll-option-text">{option.option}</span>
              {count > 0 && (
                <span className="poll-voters">({option.voters.map(name).join(', ')})</span>
              )}
            </li>
          );
        })}
      </ul>
      {live && (
        <AddItem
          fieldLabel="New option"
          buttonLabel="Add option"
          taken={(text) => isTaken(poll, text)}
          takenText="This option is already there."
          onAdd={(text) => submit(newOptionEvent(poll, text, me))}
        />
      )}
      {error && (
        <p className="widget-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function TodoWidget({ messageId, list, me, mine, live }: WidgetProps & { list: TodoList }) {
  const { submit, error } = useSubmit(messageId);
  return (
    <section className="widget todo-widget" aria-label={`To-do list: ${list.title}`}>
      <EditableHeading
        text={list.title}
        empty="Task list"
        editLabel="Edit the list's title"
        fieldLabel="Title"
        canEdit={mine && live}
        onSave={(title) => submit(titleEvent(title))}
      />
      <ul className="todo-tasks">
        {list.tasks.map((task) => (
          <li key={task.key} className={task.completed ? 'todo-task done' : 'todo-task'}>
            <label>
              <input
                type="checkbox"
                checked={task.completed}
                disabled={!live}
                onChange={() => submit(strikeEvent(task.key))}
              />
              <span className="todo-task-text">
                <strong>{task.task}</strong>
                {task.desc && <span className="todo-task-desc">: {task.desc}</span>}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {live && (
        <AddItem
          fieldLabel="New task"
          buttonLabel="Add task"
          descriptionLabel="Description"
          taken={(text) => isTaken(list, text)}
          takenText="This task is already there."
          onAdd={(task, desc) => submit(newTaskEvent(list, task, desc, me))}
        />
      )}
      {error && (
        <p className="widget-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** The question or title; its author may change it in place. */
function EditableHeading({
  text,
  empty,
  editLabel,
  fieldLabel,
  canEdit,
  onSave,
}: {
  text: string;
  empty: string;
  editLabel: string;
  fieldLabel: string;
  canEdit: boolean;
  onSave: (text: string) => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  if (editing !== null) {
    const save = (event: FormEvent) => {
      event.preventDefault();
      const next = editing.trim();
      setEditing(null);
      if (next !== '' && next !== text) onSave(next);
    };
    return (
      <form className="widget-heading-form" onSubmit={save}>
        <input
          aria-label={fieldLabel}
          value={editing}
          // biome-ignore lint/a11y/noAutofocus: the person just asked to edit it
          autoFocus
          onChange={(event) => setEditing(event.target.value)}
          onKeyDown={(event) => {
            event.stopPropagation();
            if (event.key === 'Escape') setEditing(null);
          }}
        />
        <button type="submit" className="button small primary" disabled={editing.trim() === ''}>
          Save
        </button>
        <button type="button" className="button small" onClick={() => setEditing(null)}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <div className="widget-heading">
      <h4 className={text ? undefined : 'widget-empty'}>{text || empty}</h4>
      {canEdit && (
        <button
          type="button"
          className="link-button widget-edit"
          aria-label={editLabel}
          title={editLabel}
          onClick={() => setEditing(text)}
        >
          Edit
        </button>
      )}
    </div>
  );
}

/** A field (two for tasks: the task and its description) and the button that adds it. */
function AddItem({
  fieldLabel,
  buttonLabel,
  descriptionLabel,
  taken,
  takenText,
  onAdd,
}: {
  fieldLabel: string;
  buttonLabel: string;
  descriptionLabel?: string;
  taken: (text: string) => boolean;
  takenText: string;
  onAdd: (text: string, description: string) => void;
}) {
  const [text, setText] = useState('');
  const [description, setDescription] = useState('');
  const trimmed = text.trim();
  const duplicate = trimmed !== '' && taken(trimmed);
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || duplicate) return;
    onAdd(trimmed, description.trim());
    setText('');
    setDescription('');
  };
  return (
    // Keys typed here are the field's: the feed's shortcuts must not take them.
    <form className="widget-add" onSubmit={add} onKeyDown={(event) => event.stopPropagation()}>
      <input
        aria-label={fieldLabel}
        placeholder={fieldLabel}
        value={text}
        maxLength={200}
        onChange={(event) => setText(event.target.value)}
      />
      {descriptionLabel && (
        <input
          aria-label={descriptionLabel}
          placeholder={descriptionLabel}
          value={description}
          maxLength={200}
          onChange={(event) => setDescription(event.target.value)}
        />
      )}
      <button type="submit" className="button small" disabled={trimmed === '' || duplicate}>
        {buttonLabel}
      </button>
      {duplicate && <span className="widget-note">{takenText}</span>}
    </form>
  );
}
