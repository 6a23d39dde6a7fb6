import { z } from 'zod';
import { addAlertWords, listAlertWords, removeAlertWords } from '../../alert-words/index.js';
import { MAX_ALERT_WORD_LENGTH } from '../../shared/limits.js';
import { p } from '../params.js';
import { route } from '../route.js';

/** Counted in characters (code points), before surrounding whitespace is stripped. */
const alertWord = z.string().refine((w) => [...w].length <= MAX_ALERT_WORD_LENGTH, {
  message: `{var_name} is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`,
});

/** GET/POST/DELETE /users/me/alert_words */
export const alertWordRoutes = [
  route({
    method: 'GET',
    path: '/users/me/alert_words',
    api: '/users/me/alert_words',
    params: {},
    handler: (ctx, user) => listAlertWords(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/users/me/alert_words',
    api: '/users/me/alert_words',
    params: { alert_words: p.json(z.array(alertWord)) },
    handler: (ctx, user, params) => addAlertWords(ctx, user, params.alert_words),
  }),
  route({
    method: 'DELETE',
    path: '/users/me/alert_words',
    api: '/users/me/alert_words',
    params: { alert_words: p.json(z.array(z.string())) },
    handler: (ctx, user, params) => removeAlertWords(ctx, user, params.alert_words),
  }),
];
