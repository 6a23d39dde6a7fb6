/** A user's picture, or their initial on a tinted square when there is none or it fails. */
export function Avatar({ url, name, size }: { url: string | null; name: string; size: number }) {
  const initial = [...name.trim()][0]?.toUpperCase() ?? '?';
  if (!url) {
    return (
      <span
        className="avatar avatar-initial"
        style={{ width: size, height: size }}
        aria-hidden="true"
      >
        {initial}
      </span>
    );
  }
  return (
    <img
      className="avatar"
      src={url}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
    />
  );
}
