/**
 * multipart/form-data bodies, read with busboy: the fields become the body's
 * parameters (together at most BODY_LIMIT_BYTES, counted as they arrive, since
 * Fastify's body limit does not apply to a streaming parser), the file parts
 * are read whole (up to MAX_UPLOAD_READ_BYTES, then marked truncated so the
 * endpoint answers with its own size error) and kept beside the request for
 * its endpoint.
 *
 * Not @fastify/multipart (which wraps the same busboy): registering it reads
 * `globalThis.FormData`, and that makes Node load its bundled undici, 13 MB of
 * resident memory kept for the life of the process, for a `request.formData()`
 * this server never calls.
 */
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, requestTooLarge } from '../core/errors.js';
import type { UploadedFile } from '../shared/files.js';
import { BODY_LIMIT_BYTES, MAX_UPLOAD_READ_BYTES } from '../shared/limits.js';

/** A form carries at most this many files; more is a request too large. */
const MAX_FILES = 4;
const MAX_FIELDS = 1000;
const MAX_PARTS = 1000;

export interface MultipartBodies {
  /** The request's file parts, in order; empty for other bodies. */
  filesOf(request: FastifyRequest): UploadedFile[];
}

/** Form fields by name; a repeated name keeps every value, in order. */
type FormFields = Record<string, string | string[]>;

export function addMultipartParser(app: FastifyInstance): MultipartBodies {
  const filesByRequest = new WeakMap<FastifyRequest, UploadedFile[]>();

  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    const files: UploadedFile[] = [];
    filesByRequest.set(request, files);
    const fields: FormFields = {};
    let settled = false;
    let sawData = false;
    let fieldBytes = 0;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      payload.unpipe(parser);
      // Whatever is still arriving is read and dropped, so the answer can be sent.
      if (error) payload.resume();
      done(error, error ? undefined : fields);
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
      if (name in Object.prototype) {
        stream.resume();
        return finish(badRequest(`Malformed request: field name ${name}`));
      }
      const chunks: Buffer[] = [];
      // Parts end in order, so pushing at each start keeps the request's order.
      const file: UploadedFile = {
        field: name,
        fileName,
        contentType,
        data: Buffer.alloc(0),
        truncated: false,
      };
      files.push(file);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        file.data = Buffer.concat(chunks);
        file.truncated = (stream as { truncated?: boolean }).truncated === true;
      });
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
    filesOf: (request) => filesByRequest.get(request) ?? [],
  };
}
