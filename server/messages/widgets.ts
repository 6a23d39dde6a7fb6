/**
 * Widgets (polls and to-do lists) as Zulip's zerver/lib/widget.py: a message
 * starting with `/poll` or `/todo` gets a first `widget` submessage declaring
 * the widget, and the data later submessages may carry is checked as
 * zerver/lib/validator.py's validate_poll_data / validate_todo_data do.
 */

/** Highest option index / task key a widget client uses (Zulip's MAX_IDX). */
export const MAX_WIDGET_IDX = 1000;

export type WidgetType = 'poll' | 'todo';

// Python's str.splitlines() line breaks.
const LINE_BREAKS = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
// The list marker a line may start with ("- ", "* "), removed once.
const LIST_MARKER = /^\s*[-*]?\s*/;

function itemLines(content: string): { first: string; rest: string[] } {
  const lines = content.split(LINE_BREAKS);
  let first = '';
  if (lines.length > 0 && lines[0] !== '') first = lines.shift()!.trim();
  const rest = lines
    .map((line) => line.trim().replace(LIST_MARKER, ''))
    .filter((line) => line.length > 0);
  return { first, rest };
}

/** The widget a new message declares, or null (Zulip's get_widget_data). */
export function widgetOf(
  content: string,
): { widget_type: WidgetType; extra_data: Record<string, unknown> } | null {
  const command = content.split(/\s+/)[0] ?? '';
  if (!command.startsWith('/')) return null;
  const type = command.slice(1);
  if (type !== 'poll' && type !== 'todo') return null;
  const { first, rest } = itemLines(content.replace(command, ''));
  if (type === 'poll') {
    return { widget_type: 'poll', extra_data: { question: first, options: rest } };
  }
  const tasks = rest.map((line) => {
    const at = line.indexOf(': ');
    return at === -1
      ? { task: line.trim(), desc: '' }
      : { task: line.slice(0, at).trim(), desc: line.slice(at + 2).trim() };
  });
  return { widget_type: 'todo', extra_data: { task_list_title: first, tasks } };
}

/** The widget type declared by a stored widget submessage, if readable. */
export function widgetTypeOf(content: string | undefined): string | null {
  if (content === undefined) return null;
  try {
    const data: unknown = JSON.parse(content);
    if (data && typeof data === 'object' && !Array.isArray(data)) {
      const type = (data as Record<string, unknown>).widget_type;
      return typeof type === 'string' ? type : null;
    }
  } catch {
    // Unreadable: no widget type, as Zulip.
  }
  return null;
}

class WidgetDataError extends Error {}

type Check = (name: string, value: unknown) => void;

const fail = (msg: string): never => {
  throw new WidgetDataError(msg);
};
const isDict = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
// Python's bool is an int, so true/false pass an integer check there.
const asInt = (v: unknown): number | null =>
  typeof v === 'boolean' ? Number(v) : Number.isInteger(v) ? (v as number) : null;

const checkString: Check = (name, v) => {
  if (typeof v !== 'string') fail(`${name} is not a string`);
};
const checkBool: Check = (name, v) => {
  if (typeof v !== 'boolean') fail(`${name} is not a boolean`);
};
const checkIntIn =
  (allowed: number[]): Check =>
  (name, v) => {
    const n = asInt(v);
    if (n === null) fail(`${name} is not an integer`);
    if (!allowed.includes(n!)) fail(`Invalid ${name}`);
  };
const checkIntRange =
  (low: number, high: number): Check =>
  (name, v) => {
    const n = asInt(v);
    if (n === null) fail(`${name} is not an integer`);
    if (n! < low) fail(`${name} is too small`);
    if (n! > high) fail(`${name} is too large`);
  };

/** Zulip's check_dict (only: check_dict_only) on a widget datum. */
function checkDict(
  name: string,
  value: unknown,
  keys: Array<[string, Check]>,
  only: boolean,
): asserts value is Record<string, unknown> {
  if (!isDict(value)) fail(`${name} is not a dict`);
  const dict = value as Record<string, unknown>;
  for (const [key, check] of keys) {
    if (!(key in dict)) fail(`${key} key is missing from ${name}`);
    check(`${name}["${key}"]`, dict[key]);
  }
  if (only) {
    const listed = new Set(keys.map(([key]) => key));
    const extra = Object.keys(dict).filter((key) => !listed.has(key));
    if (extra.length > 0) fail(`Unexpected arguments: ${extra.join(', ')}`);
  }
}

function validatePollData(data: unknown, isAuthor: boolean): void {
  checkDict('poll data', data, [['type', checkString]], false);
  const only = (keys: Array<[string, Check]>) => checkDict('poll data', data, keys, true);
  switch (data.type) {
    case 'vote':
      only([
        ['type', checkString],
        ['key', checkString],
        ['vote', checkIntIn([1, -1])],
      ]);
      return;
    case 'question':
      if (!isAuthor) fail("You can't edit a question unless you are the author.");
      only([
        ['type', checkString],
        ['question', checkString],
      ]);
      return;
    case 'new_option':
      only([
        ['type', checkString],
        ['option', checkString],
        ['idx', checkIntRange(0, MAX_WIDGET_IDX)],
      ]);
      return;
    default:
      fail(`Unknown type for poll data: ${data.type as string}`);
  }
}

function validateTodoData(data: unknown, isAuthor: boolean): void {
  checkDict('todo data', data, [['type', checkString]], false);
  const only = (keys: Array<[string, Check]>) => checkDict('todo data', data, keys, true);
  switch (data.type) {
    case 'new_task':
      only([
        ['type', checkString],
        ['key', checkIntRange(0, MAX_WIDGET_IDX)],
        ['task', checkString],
        ['desc', checkString],
        ['completed', checkBool],
      ]);
      return;
    case 'strike':
      only([
        ['type', checkString],
        ['key', checkString],
      ]);
      return;
    case 'new_task_list_title':
      if (!isAuthor) fail("You can't edit the task list title unless you are the author.");
      only([
        ['type', checkString],
        ['title', checkString],
      ]);
      return;
    default:
      fail(`Unknown type for todo data: ${data.type as string}`);
  }
}

/**
 * Checks a submessage's data against the message's widget; returns the
 * error message Zulip gives, or null when acceptable (other widgets: any JSON).
 */
export function widgetDataError(
  widgetType: string | null,
  data: unknown,
  isAuthor: boolean,
): string | null {
  try {
    if (widgetType === 'poll') validatePollData(data, isAuthor);
    else if (widgetType === 'todo') validateTodoData(data, isAuthor);
    return null;
  } catch (error) {
    if (error instanceof WidgetDataError) return error.message;
    throw error;
  }
}
