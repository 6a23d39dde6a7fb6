/** The `PATCH /messages/{id}` parameters for what the edit form changed (nothing: null). */
export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface EditForm {
  content: string | null;
  topic: string | null;
  channelId: number | null;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

export interface EditOriginal {
  content: string | null;
  topic: string;
  channelId: number | null;
}

export function editParams(form: EditForm, original: EditOriginal): Record<string, unknown> | null {
  const params: Record<string, unknown> = {};
  if (form.content !== null && original.content !== null && form.content !== original.content) {
    params.content = form.content;
  }
  const topic = form.topic?.trim();
  const topicChanged = topic !== undefined && topic !== original.topic;
  const channelChanged = form.channelId !== null && form.channelId !== original.channelId;
  if (topicChanged) params.topic = topic;
  if (channelChanged) params.stream_id = form.channelId;
  if (topicChanged || channelChanged) {
    params.propagate_mode = form.propagateMode;
    params.send_notification_to_old_thread = form.notifyOldThread;
    params.send_notification_to_new_thread = form.notifyNewThread;
  }
  return Object.keys(params).length === 0 ? null : params;
}

/** Zulip's words for each way of moving a topic. */
export const PROPAGATE_LABELS: Record<PropagateMode, string> = {
  change_one: 'Move only this message',
  change_later: 'Move this and all following messages in this topic',
  change_all: 'Move all messages in this topic',
};
