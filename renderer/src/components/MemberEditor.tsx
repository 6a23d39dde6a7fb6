import { type FormEvent, useState } from 'react';
import { Field } from './Field.js';
import { FormStatus } from './FormStatus.js';
import { useForm } from './use-form.js';

interface Person {
  user_id: number;
  full_name: string;
  is_active: boolean;
}

/**
 * A membership list (a channel's subscribers, a group's members) with a
 * picker to add someone and a button to remove each. The caller's calls
 * are run through one form state, so one message shows at a time.
 */
export function MemberEditor(props: {
  /** "subscriber", "member": used in labels and messages. */
  noun: string;
  memberIds: number[];
  people: Person[];
  add(userId: number): Promise<unknown>;
  remove(userId: number): Promise<unknown>;
  listId?: string;
}) {
  const form = useForm();
  const [chosen, setChosen] = useState('');
  const byId = new Map(props.people.map((p) => [p.user_id, p]));
  const members = new Set(props.memberIds);
  const candidates = props.people.filter((p) => p.is_active && !members.has(p.user_id));

  const add = (event: FormEvent) => {
    event.preventDefault();
    const person = byId.get(Number(chosen));
    if (!person) return;
    void form.run(async () => {
      await props.add(person.user_id);
      setChosen('');
      return `Added ${person.full_name}.`;
    });
  };
  const remove = (person: Person) =>
    form.run(async () => {
      await props.remove(person.user_id);
      return `Removed ${person.full_name}.`;
    });

  return (
    <>
      <form onSubmit={add} className="inline-form" aria-label={`New ${props.noun}`}>
        <Field label={`Add a ${props.noun}`} name="userIds" error={form.errorFor('userIds')}>
          {(p) => (
            <select {...p} value={chosen} onChange={(e) => setChosen(e.target.value)}>
              <option value="">Choose someone…</option>
              {candidates.map((c) => (
                <option key={c.user_id} value={c.user_id}>
                  {c.full_name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="button primary" disabled={form.busy || chosen === ''}>
          Add
        </button>
      </form>
      <FormStatus form={form} fields={['userIds']} />
      {props.memberIds.length === 0 ? (
        <p className="muted">Nobody yet.</p>
      ) : (
        <ul className="member-list" id={props.listId}>
          {props.memberIds.map((id) => {
            const person = byId.get(id);
            const name = person?.full_name ?? `User ${id}`;
            return (
              <li key={id}>
                <span>{name}</span>
                {person ? (
                  <button
                    type="button"
                    className="button small"
                    disabled={form.busy}
                    onClick={() => remove(person)}
                  >
                    Remove<span className="visually-hidden"> {name}</span>
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
