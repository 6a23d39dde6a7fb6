/**
 * The chat page's first script (chat/boot.js), a few kilobytes run before the
 * app's bundle: with saved credentials it sends register at once. The
 * bundle takes a couple of hundred milliseconds to arrive, compile and run
 * before its store would ask; by then the answer is on its way, and the
 * store's own register takes it (ZulipApi.headStart).
 */
import { ZulipApi } from './data/api.js';
import { REGISTER_PARAMS } from './data/register-params.js';
import { savedCredentials } from './data/session.js';

const credentials = savedCredentials();
if (credentials) new ZulipApi({ credentials }).headStart('POST', '/register', REGISTER_PARAMS);
