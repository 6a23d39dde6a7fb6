/** The chat view's entry (bundled to renderer/dist/chat.js, served at /). STUB: replaced by the views work. */
export {};
