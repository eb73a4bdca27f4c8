// One built page, three views: main loads index.html?view=overlay|onboarding|feed.

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Feed } from './views/Feed.js';
import { Onboarding } from './views/Onboarding.js';
import { Overlay } from './views/Overlay.js';
import './styles.css';

const view = new URLSearchParams(window.location.search).get('view') ?? 'feed';
document.documentElement.dataset.view = view;

function View() {
  if (view === 'overlay') return <Overlay />;
  if (view === 'onboarding') return <Onboarding />;
  return <Feed />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <View />
  </StrictMode>,
);
