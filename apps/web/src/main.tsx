// Chinese glyphs for machines without a CJK font; only the simplified-Chinese subset, weight 400.
import '@fontsource/noto-sans-sc/chinese-simplified-400.css';
import './styles/global.css';
import './app/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { installErrorCollector } from './store/errorLog';

if (import.meta.env.PROD) installErrorCollector();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
