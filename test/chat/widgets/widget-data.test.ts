/**
 * Polls and to-do lists read from submessages as Zulip's web app reads them
 * (poll_data.ts, todo_widget.ts): the declaration, events in id order, keys,
 * toggles, duplicates and the events the chat sends back.
 */
import { describe, expect, it } from 'vitest';
import {
  newOptionEvent,
  newTaskEvent,
  type Poll,
  type Submessage,
  strikeEvent,
  type TodoList,
  voteEvent,
  widgetFrom,
} from '../../../renderer/src/chat/widgets/widget-data.js';

const AUTHOR = 10;
const MEL = 11;
let nextId = 1;
const sub = (sender: number, content: object): Submessage => ({
  id: nextId++,
  sender_id: sender,
  msg_type: 'widget',
  content: JSON.stringify(content),
});

const pollDeclaration = (question: string, options: string[]) =>
  sub(AUTHOR, { widget_type: 'poll', extra_data: { question, options } });

describe('polls', () => {
  it('lists the canned options, applies votes in order and toggles them off', () => {
    const poll = widgetFrom(AUTHOR, [
      pollDeclaration('Lunch?', ['Tacos', 'Pizza', 'Tacos']),
      sub(MEL, { type: 'vote', key: 'canned,0', vote: 1 }),
      sub(AUTHOR, { type: 'vote', key: 'canned,0', vote: 1 }),
      sub(MEL, { type: 'vote', key: 'canned,0', vote: -1 }),
      sub(MEL, { type: 'vote', key: 'canned,1', vote: 1 }),
      sub(MEL, { type: 'vote', key: 'nope,3', vote: 1 }),
    ]) as Poll;
    expect(poll.kind).toBe('poll');
    expect(poll.question).toBe('Lunch?');
    expect(poll.options).toEqual([
      { key: 'canned,0', option: 'Tacos', voters: [AUTHOR] },
      { key: 'canned,1', option: 'Pizza', voters: [MEL] },
    ]);
  });

  it("takes new options by sender and idx, and question changes only from the poll's author", () => {
    const poll = widgetFrom(AUTHOR, [
      pollDeclaration('', []),
      sub(MEL, { type: 'new_option', idx: 1, option: 'Sushi' }),
      sub(MEL, { type: 'new_option', idx: 2, option: 'Sushi' }),
      sub(MEL, { type: 'new_option', idx: 5000, option: 'Too far' }),
      sub(MEL, { type: 'question', question: 'Hijacked' }),
      sub(AUTHOR, { type: 'question', question: 'Dinner?' }),
    ]) as Poll;
    expect(poll.question).toBe('Dinner?');
    expect(poll.options.map((o) => [o.key, o.option])).toEqual([[`${MEL},1`, 'Sushi']]);
  });

  it('sends a vote that toggles and a new option one past the last idx used', () => {
    const poll = widgetFrom(AUTHOR, [
      pollDeclaration('Q', ['A']),
      sub(MEL, { type: 'new_option', idx: 3, option: 'B' }),
      sub(MEL, { type: 'vote', key: 'canned,0', vote: 1 }),
    ]) as Poll;
    expect(voteEvent(poll, 'canned,0', MEL)).toEqual({ type: 'vote', key: 'canned,0', vote: -1 });
    expect(voteEvent(poll, 'canned,0', AUTHOR)).toEqual({ type: 'vote', key: 'canned,0', vote: 1 });
    expect(newOptionEvent(poll, 'C', MEL)).toEqual({ type: 'new_option', idx: 4, option: 'C' });
    expect(newOptionEvent(poll, 'C', AUTHOR)).toEqual({ type: 'new_option', idx: 1, option: 'C' });
  });
});

describe('to-do lists', () => {
  const declaration = () =>
    sub(AUTHOR, {
      widget_type: 'todo',
      extra_data: { task_list_title: 'Launch', tasks: [{ task: 'Write', desc: 'the notes' }] },
    });

  it('strikes tasks on and off, adds tasks by idx and sender, keeps names unique', () => {
    const list = widgetFrom(AUTHOR, [
      declaration(),
      sub(MEL, { type: 'strike', key: '0,canned' }),
      sub(MEL, { type: 'new_task', key: 2, task: 'Ship', desc: '', completed: false }),
      sub(AUTHOR, { type: 'new_task', key: 2, task: 'Write', desc: 'again', completed: false }),
      sub(AUTHOR, { type: 'strike', key: `2,${MEL}` }),
      sub(AUTHOR, { type: 'strike', key: `2,${MEL}` }),
      sub(MEL, { type: 'new_task_list_title', title: 'Hijacked' }),
    ]) as TodoList;
    expect(list.title).toBe('Launch');
    expect(list.tasks).toEqual([
      { key: '0,canned', task: 'Write', desc: 'the notes', completed: true },
      { key: `2,${MEL}`, task: 'Ship', desc: '', completed: false },
    ]);
    expect(strikeEvent('0,canned')).toEqual({ type: 'strike', key: '0,canned' });
    expect(newTaskEvent(list, 'Test', 'it', MEL)).toEqual({
      type: 'new_task',
      key: 3,
      task: 'Test',
      desc: 'it',
      completed: false,
    });
  });

  it('names an untitled list "Task list", as Zulip does', () => {
    const list = widgetFrom(AUTHOR, [sub(AUTHOR, { widget_type: 'todo', extra_data: {} })]);
    expect(list).toEqual({ kind: 'todo', title: 'Task list', tasks: [] });
  });
});

describe('what is not a widget', () => {
  it('needs the first submessage to be the sender’s declaration of a known widget', () => {
    expect(widgetFrom(AUTHOR, [])).toBeNull();
    expect(widgetFrom(AUTHOR, [sub(MEL, { widget_type: 'poll', extra_data: {} })])).toBeNull();
    expect(widgetFrom(AUTHOR, [sub(AUTHOR, { widget_type: 'zform', extra_data: {} })])).toBeNull();
    expect(
      widgetFrom(AUTHOR, [{ id: 1, sender_id: AUTHOR, msg_type: 'widget', content: '{oops' }]),
    ).toBeNull();
  });
});
