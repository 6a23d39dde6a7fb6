/** Reading a tool's payload with a schema of the fields an integration uses. */
import type { z } from 'zod';
import { anomalousPayload } from './errors.js';

/**
 * The payload checked against `schema` (unknown fields dropped). A payload
 * without the fields the tool always sends came from elsewhere:
 * ANOMALOUS_WEBHOOK_PAYLOAD, as Zulip answers.
 */
export function readPayload<S extends z.ZodType>(
  integration: string,
  schema: S,
  payload: unknown,
): z.infer<S> {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw anomalousPayload(integration);
  return parsed.data;
}
