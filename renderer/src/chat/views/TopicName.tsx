import { resolvedParts } from '../data/resolved-topic.js';

/**
 * A topic's name as Zulip shows it: general chat in italics, and a resolved
 * topic's check mark set apart from its name (the "✔ " is part of the
 * topic on the server, not something the user typed).
 */
export function TopicName({ topic }: { topic: string }) {
  if (topic === '') return <em>general chat</em>;
  const { resolved, name } = resolvedParts(topic);
  if (!resolved) return <>{topic}</>;
  return (
    <>
      <span className="topic-resolved-check" aria-hidden="true">
        ✔
      </span>
      <span className="visually-hidden">Resolved: </span>
      {name}
    </>
  );
}
