import type { FormState } from './use-form.js';

/**
 * Beside a form's submit button: its success, or an error no field of
 * `fields` shows. Only one of them at a time (see useForm.run).
 */
export function FormStatus({ form, fields = [] }: { form: FormState; fields?: readonly string[] }) {
  const error = form.generalError(fields);
  if (error) {
    return (
      <p className="alert alert-error" role="alert">
        {error}
      </p>
    );
  }
  return (
    <p className="alert alert-success" role="status" hidden={!form.success}>
      {form.success}
    </p>
  );
}
