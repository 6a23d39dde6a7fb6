import { useState } from 'react';
import { useZulipApi } from '../data/store-context.js';
import { Dialog } from '../ui/Dialog.js';
import type { MessageImage } from './message-shortcuts.js';

/**
 * The pictures of one message, one at a time (`v`, Zulip's lightbox):
 * ←/→ or the buttons go through them, the link opens the file itself.
 */
export function ImageViewer({ images, onClose }: { images: MessageImage[]; onClose: () => void }) {
  const api = useZulipApi();
  const [at, setAt] = useState(0);
  const image = images[at];
  if (!image) return null;
  const go = (delta: number) => setAt((i) => (i + delta + images.length) % images.length);
  const title = image.title || `Image ${at + 1}`;
  return (
    <Dialog title={title} onClose={onClose} className="image-viewer">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: arrow keys page through the pictures */}
      <div
        className="image-viewer-body"
        onKeyDown={(event) => {
          if (images.length < 2) return;
          if (event.key === 'ArrowRight') go(1);
          else if (event.key === 'ArrowLeft') go(-1);
          else return;
          event.preventDefault();
        }}
      >
        <img src={api.url(image.url)} alt={title} className="image-viewer-picture" />
        <div className="chat-dialog-actions">
          {images.length > 1 && (
            <>
              <button type="button" className="button" onClick={() => go(-1)}>
                Previous
              </button>
              <span className="image-viewer-count" aria-live="polite">
                {at + 1} of {images.length}
              </span>
              <button type="button" className="button" onClick={() => go(1)}>
                Next
              </button>
            </>
          )}
          <a
            className="button"
            href={api.url(image.url)}
            target="_blank"
            rel="noopener noreferrer"
            data-autofocus
          >
            Open original
          </a>
        </div>
      </div>
    </Dialog>
  );
}
