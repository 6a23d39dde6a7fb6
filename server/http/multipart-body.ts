/**
 * multipart/form-data bodies, read with busboy: the fields become the body's
 * parameters (together at most BODY_LIMIT_BYTES, counted as they arrive, since
 * Fastify's body limit does not apply to a streaming parser), and each file
 * part is written as it arrives to a temporary file of the file store
 * (`incoming/`), which its endpoint reads or moves into the store. Memory
 * holds no more of a file than the streams' buffers, however many arrive.
 *
 * A file part longer than MAX_UPLOAD_READ_BYTES stops the read there: the
 * endpoint gets the parts so far, that one marked truncated, and answers
 * with its own size error; what is left of the body is drained only up to
 * the refused-body bound (refused-body.ts), then the connection closes.
 *
 * The temporary files are removed on every way out: a failed read at once,
 * otherwise when the endpoint is done with them or, if it never ran, when
 * the response closes (sent, or the client gone).
 *
 * Not @fastify/multipart (which wraps the same busboy): registering it reads
 * `globalThis.FormData`, and that makes Node load its bundled undici, 13 MB of
 * resident memory kept for the life of the process, for a `request.formData()`
 * this server never calls.
 */
import { createWriteStream, rmSync, type WriteStream } from 'node:fs';
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../core/context.js';
import { badRequest, requestTooLarge } from '../core/errors.js';
import { clearIncomingFiles, newIncomingFilePath } from '../core/file-store.js';
import type { UploadedFile } from '../shared/files.js';
import { BODY_LIMIT_BYTES, MAX_UPLOAD_READ_BYTES } from '../shared/limits.js';

/** A form carries at most this many files; more is a request too large. */
const MAX_FILES = 4;
const MAX_FIELDS = 1000;
const MAX_PARTS = 1000;

/** Form fields by name; a repeated name keeps every value, in order. */
type FormFields = Record<string, string | string[]>;

/** The file parts of one multipart request and their temporary files. */
export class IncomingFiles {
  /** In the request's order. */
  readonly files: UploadedFile[] = [];
  private readonly writers = new Set<WriteStream>();
  private handling = false;
  private discarded = false;

  /** Starts writing one arriving part to a fresh temporary file. */
  add(
    ctx: AppContext,
    file: Omit<UploadedFile, 'path' | 'size' | 'truncated'>,
  ): {
    file: UploadedFile;
    writer: WriteStream;
  } {
    const stored: UploadedFile = {
      ...file,
      path: newIncomingFilePath(ctx),
      size: 0,
      truncated: false,
    };
    const writer = createWriteStream(stored.path, { flags: 'wx', mode: 0o600 });
    this.files.push(stored);
    this.writers.add(writer);
    writer.once('close', () => {
      stored.size = writer.bytesWritten;
      this.writers.delete(writer);
      // Removed while it was still being written: its file appeared only now.
      if (this.discarded) rmSync(stored.path, { force: true });
    });
    return { file: stored, writer };
  }

  /** Resolves once every part is on disk and its file closed; rejects on a write error. */
  async written(): Promise<void> {
    const pending = [...this.writers].map(
      (writer) =>
        new Promise<void>((resolve, reject) => {
          writer.once('close', resolve);
          writer.once('error', reject);
        }),
    );
    await Promise.all(pending);
  }

  /** The endpoint reads the files from now until `release`. */
  hold(): void {
    this.handling = true;
  }

  release(): void {
    this.handling = false;
    this.discard();
  }

  /** The response is over (sent, or its client gone): unless the endpoint still reads them. */
  responseClosed(): void {
    if (!this.handling) this.discard();
  }

  /** Stops any write still going and removes every file (again is harmless). */
  discard(): void {
    this.discarded = true;
    for (const writer of this.writers) writer.destroy();
    for (const file of this.files) rmSync(file.path, { force: true });
  }
}

export interface MultipartBodies {
  /** The request's file parts, or undefined when its body is not a form. */
  filesOf(request: FastifyRequest): IncomingFiles | undefined;
}

/** A multipart form: the one body that is not read whole within BODY_LIMIT_BYTES. */
export const isMultipart = (request: FastifyRequest) =>
  request.headers['content-type']?.trimStart().toLowerCase().startsWith('multipart/') === true;

/** A failure of the server's own disk while saving a part: not the client's fault. */
const writeFailure = (error: Error) => Object.assign(error, { statusCode: 500 });

export function addMultipartParser(app: FastifyInstance, ctx: AppContext): MultipartBodies {
  const formsByRequest = new WeakMap<FastifyRequest, IncomingFiles>();
  // What a previous run was writing when it stopped.
  clearIncomingFiles(ctx);

  // The response's end removes the files of a request whose endpoint never ran.
  app.addHook('onRequest', (request, reply, next) => {
    if (isMultipart(request)) {
      reply.raw.once('close', () => formsByRequest.get(request)?.responseClosed());
    }
    next();
  });

  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    const incoming = new IncomingFiles();
    formsByRequest.set(request, incoming);
    const fields: FormFields = {};
    let settled = false;
    let sawData = false;
    let fieldBytes = 0;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      // The rest of the body stays unread: the answer drains it, within a bound.
      payload.unpipe(parser);
      if (error) {
        incoming.discard();
        done(error, undefined);
        return;
      }
      incoming.written().then(
        () => done(null, fields),
        (failure: Error) => {
          incoming.discard();
          done(writeFailure(failure), undefined);
        },
      );
    };

    let parser: BusboyInstance;
    try {
      parser = new Busboy({
        headers: request.headers as BusboyHeaders,
        limits: {
          fileSize: MAX_UPLOAD_READ_BYTES,
          files: MAX_FILES,
          fields: MAX_FIELDS,
          fieldSize: BODY_LIMIT_BYTES,
          parts: MAX_PARTS,
        },
      });
    } catch (error) {
      // A multipart Content-Type without a usable boundary.
      done(badRequest(`Malformed request: ${(error as Error).message}`), undefined);
      return;
    }

    parser.on('field', (name: string, value: string) => {
      // Names like `__proto__` or `constructor` would reach Object.prototype.
      if (name in Object.prototype)
        return finish(badRequest(`Malformed request: field name ${name}`));
      // A field cut at fieldSize arrives truncated without an error; the total catches it.
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (fieldBytes >= BODY_LIMIT_BYTES) return finish(requestTooLarge());
      const earlier = fields[name];
      if (earlier === undefined) fields[name] = value;
      else if (Array.isArray(earlier)) earlier.push(value);
      else fields[name] = [earlier, value];
    });
    parser.on('file', (name, stream, fileName, _encoding, contentType) => {
      if (settled) {
        stream.resume();
        return;
      }
      if (name in Object.prototype) {
        stream.resume();
        return finish(badRequest(`Malformed request: field name ${name}`));
      }
      let part: ReturnType<IncomingFiles['add']>;
      try {
        // Parts end in order, so adding each at its start keeps the request's order.
        part = incoming.add(ctx, { field: name, fileName, contentType });
      } catch (error) {
        stream.resume();
        return finish(writeFailure(error as Error));
      }
      const { file, writer } = part;
      writer.on('error', (error) => finish(writeFailure(error)));
      stream.on('limit', () => {
        file.truncated = true;
        stream.unpipe(writer);
        // Its bytes are of no use: the endpoint refuses the file for its size.
        writer.end();
        finish(null);
      });
      stream.pipe(writer);
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(limit, () => finish(requestTooLarge()));
    }
    parser.on('finish', () => finish(null));
    parser.on('error', (failure: unknown) => {
      const error = failure instanceof Error ? failure : new Error(String(failure));
      // An empty body is an empty form, not a truncated one.
      if (!sawData && error.message === 'Unexpected end of multipart data') finish(null);
      else finish(badRequest(`Malformed request: ${error.message}`));
    });
    payload.once('data', () => {
      sawData = true;
    });
    payload.on('error', (error) => finish(badRequest(`Malformed request: ${error.message}`)));
    payload.on('close', () => {
      if (!payload.complete) finish(badRequest('Malformed request: the body ended early'));
    });
    payload.pipe(parser);
  });

  return {
    filesOf: (request) => formsByRequest.get(request),
  };
}
