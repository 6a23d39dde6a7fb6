/**
 * Slack-compatible incoming webhooks, which many tools speak: a JSON body,
 * or a form whose `payload` field holds the JSON. `text`, Block Kit
 * `blocks` and legacy `attachments` become Zulip Markdown; Slack's
 * `channel` names the topic when the URL does not. Nothing is posted for an
 * empty message.
 */
import { z } from 'zod';
import { linkTarget } from '../../markdown/index.js';
import { readPayload } from '../toolkit/payload.js';
import {
  type Integration,
  ignore,
  post,
  type WebhookInput,
  type WebhookReading,
} from '../types.js';

const TOOL = 'Slack';

const textObject = z.object({ type: z.string(), text: z.string() });
const element = z.object({
  type: z.string(),
  // A string in context elements; a text object in interactive ones, which are not shown.
  text: z.unknown().optional(),
  image_url: z.string().nullish(),
  alt_text: z.string().nullish(),
});

const block = z.object({
  type: z.string(),
  text: textObject.nullish(),
  fields: z.array(textObject).nullish(),
  accessory: element.nullish(),
  elements: z.array(element).nullish(),
  image_url: z.string().nullish(),
  alt_text: z.string().nullish(),
  title: textObject.nullish(),
});
type Block = z.infer<typeof block>;

const attachment = z.object({
  title: z.string().nullish(),
  title_link: z.string().nullish(),
  pretext: z.string().nullish(),
  text: z.string().nullish(),
  fields: z
    .array(
      z.object({ title: z.string().nullish(), value: z.union([z.string(), z.number()]).nullish() }),
    )
    .nullish(),
  blocks: z.array(block).nullish(),
  image_url: z.string().nullish(),
  footer: z.string().nullish(),
  ts: z.union([z.number(), z.string()]).nullish(),
});

const payload = z.object({
  text: z.string().nullish(),
  icon_emoji: z.string().nullish(),
  channel: z.string().nullish(),
  blocks: z.array(block).nullish(),
  attachments: z.array(attachment).nullish(),
});

/**
 * Slack's mrkdwn as Zulip Markdown: `<url|text>` links, `*bold*`, `_italic_`,
 * `~strike~`, and its three HTML entities. `<!here>`-style broadcasts become
 * plain words, never mentions.
 */
export function slackToMarkdown(text: string): string {
  return text
    .replace(/<((?:https?|mailto):[^|>\s]+)\|([^>]*)>/g, (_, url: string, label: string) => {
      const target = linkTarget(url);
      return target ? `[${label}](${target})` : label;
    })
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
    .replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, '@$1')
    .replace(/<[@#]([A-Z0-9]+)(?:\|([^>]*))?>/g, (_, id: string, label?: string) => label ?? id)
    .replace(/(^|[^\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])/g, '$1**$2**')
    .replace(/(^|[^\w_])_(?!\s)([^_\n]+?)(?<!\s)_(?![\w_])/g, '$1*$2*')
    .replace(/(^|[^\w~])~(?!\s)([^~\n]+?)(?<!\s)~(?![\w~])/g, '$1~~$2~~')
    .replace(/@(?=\*)/g, '@_')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const joinPieces = (pieces: readonly string[]) =>
  pieces
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join('\n\n');

function imageLink(alt: string | null | undefined, url: string | null | undefined): string {
  const target = linkTarget(url);
  return target ? `[${alt ?? ''}](${target})` : '';
}

function renderBlock(b: Block): string {
  switch (b.type) {
    case 'header':
      return b.text ? `## ${b.text.text}` : '';
    case 'divider':
      return '----';
    case 'image':
      return imageLink(b.title?.text ?? b.alt_text, b.image_url);
    case 'context':
      return joinPieces(
        (b.elements ?? []).map((e) =>
          e.type === 'image'
            ? imageLink(e.alt_text, e.image_url)
            : slackToMarkdown(typeof e.text === 'string' ? e.text : ''),
        ),
      );
    case 'section': {
      const pieces: string[] = [];
      if (b.text) pieces.push(slackToMarkdown(b.text.text));
      if (b.accessory?.type === 'image')
        pieces.push(imageLink(b.accessory.alt_text, b.accessory.image_url));
      const fields = b.fields ?? [];
      if (fields.length === 1) pieces.push(slackToMarkdown(fields[0]!.text));
      else if (fields.length > 1) {
        // Slack shows fields in two columns; a table without a header row does the same.
        const cells = fields.map((f) => slackToMarkdown(f.text).replace(/[\n|]/g, ' '));
        const rows = ['| | |', '|-|-|'];
        for (let i = 0; i < cells.length; i += 2)
          rows.push(`| ${cells[i]} | ${cells[i + 1] ?? ''} |`);
        pieces.push(rows.join('\n'));
      }
      return joinPieces(pieces);
    }
    default:
      // actions and input blocks are interactive: nothing to show in a message.
      return '';
  }
}

function renderAttachment(a: z.infer<typeof attachment>): string {
  const pieces: string[] = [];
  if (a.title) {
    const target = linkTarget(a.title_link);
    pieces.push(target ? `## [${a.title}](${target})` : `## ${a.title}`);
  }
  if (a.pretext) pieces.push(slackToMarkdown(a.pretext));
  if (a.text) pieces.push(slackToMarkdown(a.text));
  const fields = (a.fields ?? []).map((f) => {
    const value =
      f.value === null || f.value === undefined || f.value === ''
        ? ''
        : slackToMarkdown(String(f.value));
    if (f.title && value) return `**${f.title}**: ${value}`;
    return f.title ? `**${f.title}**` : value;
  });
  if (fields.some(Boolean)) pieces.push(fields.filter(Boolean).join('\n'));
  for (const b of a.blocks ?? []) pieces.push(renderBlock(b));
  if (a.image_url) pieces.push(imageLink('', a.image_url));
  if (a.footer) pieces.push(slackToMarkdown(a.footer));
  if (a.ts !== null && a.ts !== undefined && Number.isFinite(Number(a.ts)))
    pieces.push(`<time:${Math.floor(Number(a.ts))}>`);
  return joinPieces(pieces);
}

function readSlack(input: WebhookInput): WebhookReading {
  const p = readPayload(TOOL, payload, input.payload);
  let content = joinPieces([
    ...(p.blocks ?? []).map(renderBlock),
    ...(p.attachments ?? []).map(renderAttachment),
  ]);
  if (content === '' && p.text)
    content = slackToMarkdown(`${p.icon_emoji ? `${p.icon_emoji} ` : ''}${p.text}`).trim();
  if (content === '') return ignore('an empty message');
  const topic = p.channel ? p.channel.replace(/^[#@]/, '') : '';
  return post({ topic, content, eventType: null });
}

export const slackIncoming: Integration = {
  name: 'slack_incoming',
  displayName: 'Slack',
  description: 'Anything that can post to a Slack incoming webhook: text, blocks and attachments.',
  eventTypes: null,
  urlOptions: [],
  setup:
    'Wherever the tool asks for a Slack webhook URL, paste this URL instead. Add &topic=… to choose the topic; otherwise the message’s Slack channel names it.',
  read: readSlack,
};
