import { z } from 'zod';
import {
  createProfileField,
  deleteProfileFieldById,
  getProfileFields,
  reorderProfileFields,
  updateProfileFieldById,
} from '../profile-fields/index.js';
import { blame, procedure, router } from './init.js';

const fieldId = z.number().int().positive();

/** What a field definition may change; `fieldData`'s shape is the area's to check, in Zulip's words. */
const fieldSettings = {
  name: z.string().optional(),
  hint: z.string().optional(),
  fieldData: z.unknown().optional(),
  displayInProfileSummary: z.boolean().optional(),
  required: z.boolean().optional(),
  editableByUser: z.boolean().optional(),
};

const fieldRules = { hint: /hint/i, fieldData: /option|field_data|choice/i, name: /name|label/i };

export const profileFieldRouter = router({
  /** GET /realm/profile_fields */
  list: procedure.query(({ ctx }) => getProfileFields(ctx.app, ctx.actor).custom_fields),
  /** POST /realm/profile_fields */
  create: blame(fieldRules)
    .input(z.object({ ...fieldSettings, fieldType: z.number().int() }))
    .mutation(({ ctx, input }) => createProfileField(ctx.app, ctx.actor, input)),
  /** PATCH /realm/profile_fields/{id} */
  update: blame(fieldRules)
    .input(z.object({ ...fieldSettings, fieldId }))
    .mutation(({ ctx, input }) => {
      const { fieldId: id, ...changes } = input;
      return updateProfileFieldById(ctx.app, ctx.actor, id, changes);
    }),
  /** DELETE /realm/profile_fields/{id} */
  delete: procedure
    .input(z.object({ fieldId }))
    .mutation(({ ctx, input }) => deleteProfileFieldById(ctx.app, ctx.actor, input.fieldId)),
  /** PATCH /realm/profile_fields: every field's id, in the new order. */
  reorder: procedure
    .input(z.object({ order: z.array(fieldId) }))
    .mutation(({ ctx, input }) => reorderProfileFields(ctx.app, ctx.actor, input.order)),
});
