import { createRequire } from 'node:module';
import type SharpConstructor from 'sharp';

const require = createRequire(import.meta.url);

let loaded: typeof SharpConstructor | undefined;

/**
 * sharp, loaded at the first image it handles rather than at start-up: it
 * brings libvips in, a noticeable part of starting the server and of its
 * idle memory, and most starts handle no image.
 */
export const sharp = ((...args: Parameters<typeof SharpConstructor>) => {
  loaded ??= require('sharp') as typeof SharpConstructor;
  return loaded(...args);
}) as typeof SharpConstructor;
