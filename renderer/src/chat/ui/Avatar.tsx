/** Up to two initials (the first and last words'), for a user without a picture. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words;
  return letters.map((word) => [...word][0]?.toUpperCase() ?? '').join('');
}

/**
 * A user's picture, or their initials on a tinted square when there is none.
 * Decorative: the name is always next to it. `size` is in CSS pixels.
 */
export function Avatar({ url, name, size }: { url: string | null; name: string; size: number }) {
  if (!url) {
    return (
      <span
        className="avatar avatar-initial"
        style={{ width: size, height: size, fontSize: Math.round(size * 0.36) }}
        aria-hidden="true"
      >
        {initials(name) || '?'}
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
      style={{ width: size, height: size }}
      loading="lazy"
      decoding="async"
    />
  );
}
