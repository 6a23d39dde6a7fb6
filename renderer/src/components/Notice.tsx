import type { ReactNode } from 'react';

/** A page-wide message (no admin link, wrong token, unknown page). */
export function Notice({
  title,
  children,
  inline,
}: {
  title: string;
  children: ReactNode;
  inline?: boolean;
}) {
  const body = (
    <section className="card notice">
      <h1 tabIndex={-1}>{title}</h1>
      <p>{children}</p>
    </section>
  );
  return inline ? body : <main className="content solo">{body}</main>;
}
