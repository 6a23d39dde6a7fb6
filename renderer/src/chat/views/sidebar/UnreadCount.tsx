/** The count beside a sidebar entry; nothing when zero. */
export function UnreadCount({
  count,
  label = 'unread',
}: {
  count: number | undefined;
  label?: string;
}) {
  if (!count) return null;
  return (
    <span className="unread-count">
      {count}
      <span className="visually-hidden"> {label}</span>
    </span>
  );
}
