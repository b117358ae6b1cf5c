// The web viewer's entry point: takes the per-start token (or a one-time code for it) from the address
// `mnemo ui` gave, then renders the app (or the locked page without a token).
import './styles.css';

import { render } from 'preact';

import { adoptCredentials, hasToken } from './api.js';
import { App, Locked } from './app.js';

const root = document.getElementById('root');
void adoptCredentials()
  .catch(() => undefined)
  .then(() => {
    if (root !== null) render(hasToken() ? <App /> : <Locked />, root);
  });
