import '@fontsource/noto-sans-sc/chinese-simplified-400.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './pda.css';

// The handheld page (docs/PDA.md): its own entry, plain React and a small stylesheet, no antd.
const root = document.getElementById('pda');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
