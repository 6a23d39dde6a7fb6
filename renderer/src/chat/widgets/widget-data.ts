/**
 * Polls and to-do lists from a message's submessages, as Zulip's web app
 * reads them (web/shared/src/poll_data.ts, web/src/todo_widget.ts): the
 * sender's first submessage declares the widget (`widget_type`,
 * `extra_data`), and every later one is an event applied in order. Pure, so
 * it is unit-tested; the views send the outbound events with
 * `POST /submessage` and the answer comes back as a `submessage` event.
 */

/** A submessage as the API gives it (`submessages` of a message, `submessage` events). */
export interface Submessage {
  id: number;
  message_id?: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

/** Zulip's bound on the option and task indexes one person may use (MAX_IDX). */
export const MAX_WIDGET_IDX = 1000;

export interface PollOption {
  /** `{sender},{idx}`: `canned,{i}` for the options the message itself listed. */
  key: string;
  option: string;
  /** Voters in the order they voted. */
  voters: number[];
}

export interface Poll {
  kind: 'poll';
  question: string;
  options: PollOption[];
}

export interface TodoTask {
  /** `{idx},{sender}`: `{i},canned` for the tasks the message itself listed. */
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

export interface TodoList {
  kind: 'todo';
  title: string;
  tasks: TodoTask[];
}

export type WidgetState = Poll | TodoList;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function parse(content: string): Record<string, unknown> | null {
  try {
    const data: unknown = JSON.parse(content);
    return isRecord(data) ? data : null;
  } catch {
    return null;
  }
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

const isIdx = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_WIDGET_IDX;

/**
 * The widget a message carries, from its submessages in id order; null when
 * it has none (or its declaration is not one Hearth draws). Events that do
 * not fit are skipped, as Zulip's web app skips them.
 */
export function widgetFrom(
  senderId: number,
  submessages: readonly Submessage[],
): WidgetState | null {
  const ordered = [...submessages]
    .filter((s) => s.msg_type === 'widget')
    .sort((a, b) => a.id - b.id);
  const first = ordered[0];
  if (!first || first.sender_id !== senderId) return null;
  const declaration = parse(first.content);
  const extra = isRecord(declaration?.extra_data) ? declaration.extra_data : {};
  const events = ordered.slice(1).map((s) => ({ sender: s.sender_id, data: parse(s.content) }));
  if (declaration?.widget_type === 'poll') {
    return pollFrom(senderId, extra, events);
  }
  if (declaration?.widget_type === 'todo') {
    return todoFrom(senderId, extra, events);
  }
  return null;
}

type Inbound = { sender: number; data: Record<string, unknown> | null };

function pollFrom(senderId: number, extra: Record<string, unknown>, events: Inbound[]): Poll {
  let question = typeof extra.question === 'string' ? extra.question : '';
  const options = new Map<string, PollOption>();
  const addOption = (sender: number | 'canned', idx: number, option: string) => {
    // The /poll syntax allows duplicates; the widget shows each option once.
    if ([...options.values()].some((o) => o.option === option)) return;
    options.set(`${sender},${idx}`, { key: `${sender},${idx}`, option, voters: [] });
  };
  for (const [i, option] of strings(extra.options).entries()) addOption('canned', i, option);
  for (const { sender, data } of events) {
    if (!data) continue;
    if (data.type === 'new_option' && isIdx(data.idx) && typeof data.option === 'string') {
      addOption(sender, data.idx, data.option);
    } else if (data.type === 'question' && typeof data.question === 'string') {
      if (sender === senderId) question = data.question;
    } else if (data.type === 'vote' && typeof data.key === 'string') {
      const option = options.get(data.key);
      if (!option) continue;
      const without = option.voters.filter((id) => id !== sender);
      if (data.vote === 1) option.voters = [...without, sender];
      else if (data.vote === -1) option.voters = without;
    }
  }
  return { kind: 'poll', question, options: [...options.values()] };
}

function todoFrom(senderId: number, extra: Record<string, unknown>, events: Inbound[]): TodoList {
  let title = typeof extra.task_list_title === 'string' ? extra.task_list_title : '';
  const tasks = new Map<string, TodoTask>();
  const addTask = (
    sender: number | 'canned',
    idx: number,
    task: string,
    desc: string,
    completed: boolean,
  ) => {
    // Task names are unique in a list; a repeated one is dropped.
    if ([...tasks.values()].some((t) => t.task === task)) return;
    tasks.set(`${idx},${sender}`, { key: `${idx},${sender}`, task, desc, completed });
  };
  const canned = Array.isArray(extra.tasks) ? extra.tasks.filter(isRecord) : [];
  canned.forEach((t, i) => {
    if (typeof t.task === 'string')
      addTask('canned', i, t.task, typeof t.desc === 'string' ? t.desc : '', false);
  });
  for (const { sender, data } of events) {
    if (!data) continue;
    if (
      data.type === 'new_task' &&
      isIdx(data.key) &&
      typeof data.task === 'string' &&
      typeof data.desc === 'string' &&
      typeof data.completed === 'boolean'
    ) {
      addTask(sender, data.key, data.task, data.desc, data.completed);
    } else if (data.type === 'strike' && typeof data.key === 'string') {
      const task = tasks.get(data.key);
      if (task) tasks.set(data.key, { ...task, completed: !task.completed });
    } else if (data.type === 'new_task_list_title' && typeof data.title === 'string') {
      if (sender === senderId) title = data.title;
    }
  }
  return { kind: 'todo', title: title || 'Task list', tasks: [...tasks.values()] };
}

// ---------------------------------------------------------------------------
// Outbound events (the `content` of POST /submessage)

/** A vote for an option, or taking one's vote back (the same click toggles, as in Zulip). */
export function voteEvent(poll: Poll, key: string, me: number) {
  const option = poll.options.find((o) => o.key === key);
  return { type: 'vote', key, vote: option?.voters.includes(me) ? -1 : 1 };
}

/** The next index this person has not used in the widget (Zulip's `my_idx`, one past their last). */
function nextIdx(keys: string[], me: number, idxAt: 0 | 1): number {
  let next = 1;
  for (const key of keys) {
    const parts = key.split(',');
    if (parts[1 - idxAt] !== String(me)) continue;
    const idx = Number(parts[idxAt]);
    if (Number.isInteger(idx) && idx >= next) next = idx + 1;
  }
  return next;
}

export function newOptionEvent(poll: Poll, option: string, me: number) {
  return {
    type: 'new_option',
    idx: nextIdx(
      poll.options.map((o) => o.key),
      me,
      1,
    ),
    option,
  };
}

export const questionEvent = (question: string) => ({ type: 'question', question });

export function newTaskEvent(list: TodoList, task: string, desc: string, me: number) {
  return {
    type: 'new_task',
    key: nextIdx(
      list.tasks.map((t) => t.key),
      me,
      0,
    ),
    task,
    desc,
    completed: false,
  };
}

export const strikeEvent = (key: string) => ({ type: 'strike', key });

export const titleEvent = (title: string) => ({ type: 'new_task_list_title', title });

/** Whether an option (poll) or task (to-do list) with this text is already there. */
export function isTaken(widget: WidgetState, text: string): boolean {
  return widget.kind === 'poll'
    ? widget.options.some((o) => o.option === text)
    : widget.tasks.some((t) => t.task === text);
}
