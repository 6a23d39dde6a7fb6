import { type ReactNode, useId } from 'react';
import type { FormState } from './use-form.js';

/** What a control needs to be labelled, described and marked invalid. */
export interface ControlProps {
  id: string;
  name: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  label: string;
  name: string;
  hint?: ReactNode;
  /** The server's message about this field, shown under it. */
  error?: string | null;
  children: (props: ControlProps) => ReactNode;
}

/** A labelled control with its hint and its error, which screen readers announce with it. */
export function Field({ label, name, hint, error, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children({ id, name, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy })}
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A checkbox with its label beside it. */
export function CheckField(props: {
  label: string;
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="field check">
      <input
        id={id}
        type="checkbox"
        name={props.name}
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
      />
      <label htmlFor={id}>{props.label}</label>
      {props.hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A text input bound to one string of a form's values, with the server's
 * error for that field: the shape nearly every admin form repeats.
 */
export function TextField<Values extends object>(props: {
  label: string;
  name: keyof Values & string;
  form: Pick<FormState, 'errorFor'>;
  values: Values;
  setValues: (values: Values) => void;
  hint?: ReactNode;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
}) {
  const { label, name, form, values, setValues, hint, type, autoComplete, placeholder } = props;
  return (
    <Field label={label} name={name} error={form.errorFor(name)} hint={hint}>
      {(p) => (
        <input
          {...p}
          type={type}
          autoComplete={autoComplete}
          placeholder={placeholder}
          value={String(values[name] ?? '')}
          onChange={(e) => setValues({ ...values, [name]: e.target.value })}
        />
      )}
    </Field>
  );
}
