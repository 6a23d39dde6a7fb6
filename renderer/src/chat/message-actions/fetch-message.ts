import type { ZulipApi } from '../data/api.js';

/** A message's Markdown as its sender wrote it (`GET /messages/{id}` without rendering). */
export async function rawContent(api: ZulipApi, messageId: number): Promise<string> {
  const answer = await api.call<{ message: { content: string }; raw_content?: string }>(
    'GET',
    `/messages/${messageId}`,
    { apply_markdown: false },
  );
  return answer.message?.content ?? answer.raw_content ?? '';
}

/** A time as the person likes it (their `twenty_four_hour_time` setting). */
export function formatTime(timestampSeconds: number, twentyFourHour: boolean): string {
  return new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
    hour12: !twentyFourHour,
  }).format(new Date(timestampSeconds * 1000));
}
