/// <reference types="vite-plugin-pwa/client" />
import { mount } from 'svelte';
import './styles/tokens.css';
import App from './App.svelte';
import { startUpdates } from './lib/updates.svelte.ts';

mount(App, { target: document.getElementById('app')! });

// The offline precache and its updates (see vite.config.ts); only in builds — in dev it would serve stale modules.
if (import.meta.env.PROD) void startUpdates().catch(() => undefined);
