import { type FileHandle, open } from 'node:fs/promises';

/** Bytes gathered before one write: large enough to be cheap, small enough to stay flat. */
const FLUSH_AT = 1 << 20;

/**
 * A JSON file written piece by piece, so a table of millions of rows never
 * sits in memory as one string. Write errors (a full disk) reject the
 * awaited call that hit them.
 */
export class JsonFileWriter {
  private pending: string[] = [];
  private pendingLength = 0;
  private bytes = 0;

  private constructor(private readonly handle: FileHandle) {}

  static async create(file: string): Promise<JsonFileWriter> {
    return new JsonFileWriter(await open(file, 'wx', 0o600));
  }

  async raw(text: string): Promise<void> {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= FLUSH_AT) await this.flush();
  }

  /** An array's rows, each as JSON, one per line. */
  async rows(rows: Iterable<unknown>): Promise<void> {
    let first = true;
    await this.raw('[');
    for (const row of rows) {
      await this.raw(`${first ? '\n' : ',\n'}${JSON.stringify(row)}`);
      first = false;
    }
    await this.raw(first ? ']' : '\n]');
  }

  /** An array of rows already written as JSON text. */
  async jsonRows(rows: readonly string[]): Promise<void> {
    await this.raw(rows.length === 0 ? '[]' : `[\n${rows.join(',\n')}\n]`);
  }

  /** A whole object whose values are small enough to hold (realm.json's little tables). */
  async value(value: unknown): Promise<void> {
    await this.raw(JSON.stringify(value, null, 1));
  }

  get size(): number {
    return this.bytes + Buffer.byteLength(this.pending.join(''));
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    const buffer = Buffer.from(text);
    await this.handle.write(buffer);
    this.bytes += buffer.length;
  }

  /**
   * No fsync per file: a million messages make a thousand files, and an
   * export cut short by a crash is incomplete whatever was synced (its
   * manifest, written last, is then missing).
   */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.handle.close();
    }
  }

  /** Closes without flushing (the export failed; the folder is removed). */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => {});
  }
}

/** A small JSON file written at once. */
export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  const writer = await JsonFileWriter.create(file);
  try {
    await writer.value(value);
    await writer.raw('\n');
  } catch (err) {
    await writer.abandon();
    throw err;
  }
  await writer.close();
}
