/**
 * A tRPC link over the desktop window's IPC port (main/preload.ts): each
 * call goes out as one request on the port and is settled by the answer
 * carrying its id. Inputs go out, data and error shapes come back, serialized
 * by the router's transformer, as server/trpc/ipc-wire.ts describes.
 */
import { TRPCClientError, type TRPCLink } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import type { IpcPort, IpcResponse } from '../../../server/trpc/ipc-wire.js';

export interface IpcTransformer {
  serialize(value: unknown): unknown;
  deserialize(value: never): unknown;
}

export interface IpcLinkOptions {
  port: IpcPort;
  transformer: IpcTransformer;
}

export function ipcLink<TRouter extends AnyRouter>({
  port,
  transformer,
}: IpcLinkOptions): TRPCLink<TRouter> {
  const deserialize = (value: unknown) => transformer.deserialize(value as never);
  const waiting = new Map<number | string, (response: IpcResponse) => void>();
  port.onMessage((response) => {
    const settle = waiting.get(response.id);
    waiting.delete(response.id);
    settle?.(response);
  });

  return () =>
    ({ op }) =>
      observable((observer) => {
        if (op.type === 'subscription') {
          observer.error(TRPCClientError.from(new Error('Subscriptions are not served over IPC')));
          return () => {};
        }
        waiting.set(op.id, (response) => {
          if ('error' in response) {
            observer.error(TRPCClientError.from({ error: deserialize(response.error) as never }));
            return;
          }
          observer.next({ result: { type: 'data', data: deserialize(response.result.data) } });
          observer.complete();
        });
        port.send({
          method: 'request',
          operation: {
            id: op.id,
            type: op.type,
            path: op.path,
            ...(op.input === undefined ? {} : { input: transformer.serialize(op.input) }),
          },
        });
        // An unsubscribed call (its page left, or it was aborted) ignores a late answer.
        return () => waiting.delete(op.id);
      });
}
