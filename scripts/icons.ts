/**
 * Renders the app icon (renderer/icon.svg) into what electron-builder needs
 * on each OS, under build/ (its buildResources folder):
 *   build/icon.png            1024 px, the master and the window icon
 *   build/icons/NxN.png       Linux (AppImage, deb): one PNG per size
 *   build/icon.ico            Windows (exe, NSIS installer): PNG-compressed sizes
 *   build/icon.icns           macOS (app, dmg): PNG-compressed sizes
 * The outputs are committed: packaging must not depend on running this.
 * Run `npm run icons` after changing the SVG (a test checks they match).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const ICON_SVG = path.join(ROOT, 'renderer', 'icon.svg');
export const BUILD_DIR = path.join(ROOT, 'build');

export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
/** Windows shows 16-48 in lists and 256 in large views; 256 is the ICO maximum. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS entry types that hold PNG data, by pixel size (the @2x types share sizes). */
export const ICNS_TYPES: [string, number][] = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32],
  ['ic12', 64],
  ['ic07', 128],
  ['ic13', 256],
  ['ic08', 256],
  ['ic14', 512],
  ['ic09', 512],
  ['ic10', 1024],
];

/** The SVG as a square PNG of `size` pixels, rasterised at that size (not scaled down). */
export async function renderIcon(size: number, svg = readFileSync(ICON_SVG)): Promise<Buffer> {
  const { width = 64 } = await sharp(svg).metadata();
  return sharp(svg, { density: (72 * size) / width })
    .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** An ICO file whose images are PNGs (Windows Vista and later read them). */
export function icoFile(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // 0 means 256
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

/** An ICNS file: a big-endian length-prefixed list of typed PNG entries. */
export function icnsFile(entries: { type: string; png: Buffer }[]): Buffer {
  const chunks = entries.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(8 + png.length, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + chunks.reduce((n, c) => n + c.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}

export async function writeIcons(outDir = BUILD_DIR): Promise<string[]> {
  const svg = readFileSync(ICON_SVG);
  const sizes = [...new Set([...LINUX_SIZES, ...ICO_SIZES, ...ICNS_TYPES.map(([, s]) => s)])];
  const png = new Map<number, Buffer>();
  for (const size of sizes) png.set(size, await renderIcon(size, svg));
  const at = (size: number) => png.get(size)!;

  mkdirSync(path.join(outDir, 'icons'), { recursive: true });
  const written: [string, Buffer][] = [
    ['icon.png', at(1024)],
    ...LINUX_SIZES.map((s): [string, Buffer] => [path.join('icons', `${s}x${s}.png`), at(s)]),
    ['icon.ico', icoFile(ICO_SIZES.map((size) => ({ size, png: at(size) })))],
    ['icon.icns', icnsFile(ICNS_TYPES.map(([type, size]) => ({ type, png: at(size) })))],
  ];
  for (const [name, data] of written) writeFileSync(path.join(outDir, name), data);
  return written.map(([name]) => name);
}

const invokedDirectly =
  process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  writeIcons().then(
    (names) => console.log(`wrote ${names.length} icons into build/`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
