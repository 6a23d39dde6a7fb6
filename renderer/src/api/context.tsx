import { createContext, useContext } from 'react';
import type { Api } from './client.js';

const ApiContext = createContext<Api | null>(null);

export const ApiProvider = ApiContext.Provider;

/** The tRPC client of the surrounding app (IPC in Electron, HTTP in a browser). */
export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside <ApiProvider>');
  return api;
}
