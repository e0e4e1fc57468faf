import '@fontsource/noto-sans-sc/chinese-simplified-400.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './pda.css';

// The handheld page (docs/PDA.md): its own entry, plain React and a small stylesheet, no antd.

/** How long the first render waits for the Chinese font, ms; without it the page shows in a fallback. */
const FONT_WAIT_MS = 2500;

// Chinese drawn in bold before the shipped font arrives can stay as empty boxes in Chromium, so
// the first render waits (briefly) for it; both languages show some Chinese (the language switch).
const font = document.fonts?.load('400 16px "Noto Sans SC"', '中文').catch(() => undefined) ?? Promise.resolve();
const root = document.getElementById('pda');
void Promise.race([font, new Promise((r) => setTimeout(r, FONT_WAIT_MS))]).then(() => {
  if (root)
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
});
