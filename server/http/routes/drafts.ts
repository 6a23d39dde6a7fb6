import { z } from 'zod';
import { createDrafts, editDraft, listDrafts, removeDraft } from '../../drafts/index.js';
import { jsonFloat, p } from '../params.js';
import { route } from '../route.js';

const requiredKeys = ['type', 'to', 'topic', 'content'] as const;
const allowedKeys = new Set<string>([...requiredKeys, 'timestamp']);

/**
 * One draft object, with Zulip's wording for each mistake: a missing key,
 * a value of the wrong type, blank content (content is stripped first), a
 * key a draft does not have (such as `id`).
 */
const draftSchema = z.preprocess(
  (value, ctx) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const missing = requiredKeys.find((key) => !(key in value));
      if (missing !== undefined) {
        ctx.issues.push({
          code: 'custom',
          message: `${missing} key is missing from {var_name}`,
          input: value,
        });
      }
    }
    return value;
  },
  z
    .looseObject({
      type: z.enum(['', 'stream', 'private']),
      to: z.array(z.int()),
      topic: z.string(),
      content: z
        .string()
        .transform((s) => s.trim())
        .refine((s) => s.length > 0, { message: '{var_name} cannot be blank' }),
      timestamp: jsonFloat().nullable().optional(),
    })
    .superRefine((draft, ctx) => {
      for (const key of Object.keys(draft)) {
        if (!allowedKeys.has(key)) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `Argument "${key}" at {var_name} is unexpected`,
          });
        }
      }
    }),
);

const draftId = p.int();

/** GET/POST /drafts, PATCH/DELETE /drafts/{draft_id} */
export const draftRoutes = [
  route({
    method: 'GET',
    path: '/drafts',
    api: '/drafts',
    params: {},
    handler: (ctx, user) => listDrafts(ctx, user),
  }),
  route({
    method: 'POST',
    path: '/drafts',
    api: '/drafts',
    params: { drafts: p.json(z.array(draftSchema)).default([]) },
    handler: (ctx, user, params) => createDrafts(ctx, user, params.drafts),
  }),
  route({
    method: 'PATCH',
    path: '/drafts/:draft_id(^\\d+)',
    api: '/drafts/{draft_id}',
    params: { draft_id: draftId, draft: p.json(draftSchema) },
    handler: (ctx, user, params) => editDraft(ctx, user, params.draft_id, params.draft),
  }),
  route({
    method: 'DELETE',
    path: '/drafts/:draft_id(^\\d+)',
    api: '/drafts/{draft_id}',
    params: { draft_id: draftId },
    handler: (ctx, user, params) => removeDraft(ctx, user, params.draft_id),
  }),
];
