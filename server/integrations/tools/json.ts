/**
 * Zulip's generic JSON integration: any tool's JSON, posted as a code block
 * in the topic "JSON", for tools without an integration of their own (and
 * for seeing what a tool sends).
 */
import { type Integration, post, type WebhookInput, type WebhookReading } from '../types.js';

/** Room left under the message limit for the fences and the note. */
const SHOWN_CHARS = 9_000;

function readJson(input: WebhookInput): WebhookReading {
  let text = JSON.stringify(input.payload, null, 2);
  if (text.length > SHOWN_CHARS)
    text = `${text.slice(0, SHOWN_CHARS)}\n… (${text.length - SHOWN_CHARS} more characters)`;
  return post({ topic: 'JSON', content: `\`\`\`json\n${text}\n\`\`\``, eventType: null });
}

export const json: Integration = {
  name: 'json',
  displayName: 'JSON',
  description: 'Any JSON payload, shown as it came: for tools without an integration of their own.',
  eventTypes: null,
  urlOptions: [],
  setup: 'Paste the URL wherever a tool asks for a webhook URL that receives JSON.',
  read: readJson,
};
