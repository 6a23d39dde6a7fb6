import {
  callTRPCProcedure,
  getErrorShape,
  getTRPCErrorFromUnknown,
  TRPCError,
  transformTRPCResponse,
} from '@trpc/server';
import type { TrpcContext } from './context.js';
import type { IpcOperation, IpcResponse } from './ipc-wire.js';
import type { AppRouter } from './router.js';

export type { IpcOperation, IpcResponse } from './ipc-wire.js';

/**
 * Runs one renderer call against the router, wherever the router lives: the
 * desktop's server process answers its window this way, relayed by the main
 * process, so the window's IPC link (ipc-wire.ts) reaches every procedure
 * next to the database.
 */
export async function runIpcOperation(
  router: AppRouter,
  createContext: () => TrpcContext,
  operation: IpcOperation,
): Promise<IpcResponse> {
  const config = router._def._config;
  const { id, type, path } = operation;
  let input: unknown;
  let ctx: TrpcContext | undefined;
  try {
    if (type === 'subscription') {
      throw new TRPCError({ code: 'METHOD_NOT_SUPPORTED', message: 'No subscriptions here' });
    }
    input =
      operation.input === undefined
        ? undefined
        : config.transformer.input.deserialize(operation.input);
    ctx = createContext();
    const data = await callTRPCProcedure({
      router,
      ctx,
      path,
      type,
      getRawInput: async () => input,
      signal: undefined,
      batchIndex: 0,
    });
    return transformTRPCResponse(config, { id, result: { type: 'data', data } }) as IpcResponse;
  } catch (cause) {
    const error = getTRPCErrorFromUnknown(cause);
    if (error.code === 'INTERNAL_SERVER_ERROR') {
      ctx?.app.log.error(`tRPC ${path} failed`, error.cause ?? error);
    }
    const shape = getErrorShape({ config, error, type, path, input, ctx });
    return transformTRPCResponse(config, { id, error: shape }) as IpcResponse;
  }
}
