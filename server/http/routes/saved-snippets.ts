import {
  createSavedSnippet,
  editSavedSnippet,
  listSavedSnippets,
  removeSavedSnippet,
} from '../../saved-snippets/index.js';
import { p } from '../params.js';
import { route } from '../route.js';

const savedSnippetId = p.int();

/** GET/POST /saved_snippets, PATCH/DELETE /saved_snippets/{saved_snippet_id} */
export const savedSnippetRoutes = [
  route({
    method: 'GET',
    path: '/saved_snippets',
    api: '/saved_snippets',
    params: {},
    handler: (ctx, user) => listSavedSnippets(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/saved_snippets',
    api: '/saved_snippets',
    params: { title: p.str(), content: p.str() },
    handler: (ctx, user, params) => createSavedSnippet(ctx, user, params),
  }),
  route({
    method: 'PATCH',
    path: '/saved_snippets/:saved_snippet_id(^\\d+)',
    api: '/saved_snippets/{saved_snippet_id}',
    params: {
      saved_snippet_id: savedSnippetId,
      title: p.str().optional(),
      content: p.str().optional(),
    },
    handler: (ctx, user, params) =>
      editSavedSnippet(ctx, user, params.saved_snippet_id, {
        title: params.title,
        content: params.content,
      }),
  }),
  route({
    method: 'DELETE',
    path: '/saved_snippets/:saved_snippet_id(^\\d+)',
    api: '/saved_snippets/{saved_snippet_id}',
    params: { saved_snippet_id: savedSnippetId },
    handler: (ctx, user, params) => removeSavedSnippet(ctx, user, params.saved_snippet_id),
  }),
];
