import { create } from 'tar';

/**
 * Packs `root/<top>` into one gzip-compressed tarball whose single top
 * directory is `top`, the layout `tar -xzf` then `manage.py import <top>`
 * expects. Uses npm's own `tar` (pure JS, streaming, no binary to build).
 */
export async function writeTarball(root: string, top: string, file: string): Promise<void> {
  await create({ gzip: true, file, cwd: root, portable: true }, [top]);
}
