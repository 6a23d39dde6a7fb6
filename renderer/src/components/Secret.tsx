import { CopyButton } from './CopyButton.js';

/**
 * A credential shown once (a new API key): the server keeps it, but this is
 * the moment the person sees it, so it stays until they dismiss it.
 */
export function Secret(props: { title: string; value: string; note?: string; onDismiss(): void }) {
  return (
    <section className="secret" aria-label={props.title}>
      <h3>{props.title}</h3>
      {props.note ? <p>{props.note}</p> : null}
      <div className="secret-value">
        <code className="secret-text">{props.value}</code>
        <CopyButton text={props.value} />
      </div>
      <button type="button" className="button small" onClick={props.onDismiss}>
        Done
      </button>
    </section>
  );
}
