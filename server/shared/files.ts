/**
 * Files that cross the HTTP boundary: what a multipart request carried, and
 * what a handler answers instead of JSON when it serves a file.
 */

/**
 * One file part of a multipart request, on disk: a temporary file that is
 * removed once the endpoint has answered (or the request failed or was
 * abandoned), so an endpoint that keeps the bytes moves it into the store
 * (file-store's storeFileFrom) and otherwise just reads it.
 */
export interface UploadedFile {
  /** The form field it came in (Zulip clients use "file" or "filename"). */
  field: string;
  /** The name the client gave it; not sanitised here. */
  fileName: string;
  /** The content type the client claimed; not to be trusted. */
  contentType: string;
  /** The absolute path of the bytes. */
  path: string;
  /** Bytes read (at most MAX_UPLOAD_READ_BYTES). */
  size: number;
  /**
   * More arrived than the server reads (see MAX_UPLOAD_READ_BYTES): the file
   * is too large, and the rest of the request was not read.
   */
  truncated: boolean;
}

export interface FileAnswerInit {
  /** The bytes, or the absolute path of a file on disk. */
  body: Buffer | { path: string };
  contentType: string;
  /** `inline` or `attachment`, with the file's name; omitted when undefined. */
  disposition?: { type: 'inline' | 'attachment'; fileName?: string };
  /** Cache-Control; defaults to private, one hour. */
  cacheControl?: string;
  status?: number;
  /** Extra headers (e.g. Location for a redirect with no body). */
  headers?: Record<string, string>;
}

/** A handler's answer that is a file (or a redirect), not Zulip's JSON envelope. */
export class FileAnswer {
  constructor(readonly init: FileAnswerInit) {}
}
