// Chinese glyphs for machines without a CJK font; only the simplified-Chinese subset, weight 400.
import '@fontsource/noto-sans-sc/chinese-simplified-400.css';
import './styles/global.css';
import './platform/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App';
import { installErrorCollector } from './store/errorLog';

/** How long the first render waits for the Chinese font before going ahead without it. */
const FONT_WAIT_MS = 3000;

/**
 * Loads the shipped Chinese font before the first render. Text first shaped while the face was
 * still loading can stay as empty boxes in Chromium on a machine without any CJK font, so the
 * console waits for it (briefly: it comes from the same server, and is cached afterwards).
 */
function chineseFontReady(): Promise<unknown> {
  if (!document.fonts?.load) return Promise.resolve();
  const load = document.fonts.load('16px "Noto Sans SC"', '中文').catch(() => undefined);
  return Promise.race([load, new Promise((resolve) => setTimeout(resolve, FONT_WAIT_MS))]);
}

if (import.meta.env.PROD) installErrorCollector();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
void chineseFontReady().then(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
