import './index.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';

import { App, routes } from './app/App';
import { setApiBase } from './api/mutator';

setApiBase(import.meta.env.VITE_API_BASE);

const router = createBrowserRouter(routes);

const root = document.getElementById('root');
if (root === null) {
  throw new Error('index.html has no #root element');
}

createRoot(root).render(
  <StrictMode>
    <App router={router} />
  </StrictMode>,
);
