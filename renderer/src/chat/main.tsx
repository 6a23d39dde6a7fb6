/**
 * The chat view's entry, bundled to renderer/dist/chat.js and served at `/`.
 * Its styles come from renderer/chat.css (which pulls in the shared colour
 * tokens and KaTeX's stylesheet).
 */
import { createRoot } from 'react-dom/client';
import { App } from './views/App.js';

createRoot(document.getElementById('root')!).render(<App />);
