/**
 * One HTTP/1.1 keep-alive connection for load clients, one request at a
 * time, on a bare socket. Node's http client costs the load process more per
 * long-poll than the server spends answering it; with 20,000 answers a
 * second on a 2-core machine, a heavy client measures itself rather than the
 * server. Bodies must carry Content-Length (both benchmarked servers do).
 */
import { connect, type Socket } from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;

export class KeepAliveConnection {
  private readonly socket: Socket;
  private readonly ready: Promise<void>;
  /** The Host header: the server refuses names it is not reached by (allowed-hosts.ts). */
  private readonly host: string;
  private pending: Buffer = Buffer.alloc(0);
  private waiting: { resolve(body: string): void; reject(error: Error): void } | null = null;

  constructor(url: string) {
    const { hostname, port, host } = new URL(url);
    this.host = host;
    this.socket = connect(Number(port), hostname);
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
    this.socket.on('data', (chunk: Buffer) => this.received(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
  }

  /** Sends one request and resolves with the body of a 200 answer. */
  async request(method: string, path: string, auth: string, form?: string): Promise<string> {
    await this.ready;
    const body = form === undefined ? '' : form;
    const head =
      `${method} ${path} HTTP/1.1\r\nHost: ${this.host}\r\nAuthorization: ${auth}\r\n` +
      (form === undefined
        ? '\r\n'
        : `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(head + body);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private received(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const headerEnd = this.pending.indexOf(HEADER_END);
    if (headerEnd < 0) return;
    const head = this.pending.toString('latin1', 0, headerEnd);
    const length = CONTENT_LENGTH.exec(head);
    if (!length) {
      this.fail(new Error(`no Content-Length in ${head}`));
      return;
    }
    const bodyStart = headerEnd + HEADER_END.length;
    const bodyEnd = bodyStart + Number(length[1]);
    if (this.pending.length < bodyEnd) return;
    const body = this.pending.toString('utf8', bodyStart, bodyEnd);
    this.pending = this.pending.subarray(bodyEnd);
    const waiting = this.waiting;
    this.waiting = null;
    if (!head.startsWith('HTTP/1.1 200')) {
      waiting?.reject(new Error(`${head.split('\r\n')[0]}: ${body}`));
    } else {
      waiting?.resolve(body);
    }
  }

  private fail(error: Error): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(error);
  }
}
