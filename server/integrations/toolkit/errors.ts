/** Zulip's webhook errors (zerver/lib/exceptions.py, lib/webhooks/common.py): codes and texts are the contract. */
import { ApiError } from '../../core/errors.js';

/**
 * An event the tool really sends that Hearth does not turn into a message.
 * Answered 200, as Zulip does, so that the tool does not retry it forever.
 */
export const unsupportedEvent = (integration: string, eventType: string) =>
  new ApiError(
    `The '${eventType}' event isn't currently supported by the ${integration} webhook; ignoring`,
    {
      code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
      status: 200,
      extra: { webhook_name: integration, event_type: eventType },
    },
  );

/** A payload that does not look like the tool's: another tool pointed at this URL, most often. */
export const anomalousPayload = (integration: string) =>
  new ApiError(`Unable to parse request: Did ${integration} generate this event?`, {
    code: 'ANOMALOUS_WEBHOOK_PAYLOAD',
    extra: { webhook_name: integration },
  });

/** The header that names the event is missing (a URL meant for another tool, or an old version). */
export const missingEventHeader = (header: string) =>
  new ApiError(`Missing the HTTP event header '${header}'`, {
    code: 'MISSING_HTTP_EVENT_HEADER',
    extra: { header },
  });

export const malformedJson = () => new ApiError('Malformed JSON', { code: 'INVALID_JSON' });
