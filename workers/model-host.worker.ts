/**
 * The model worker (WebGPU → WASM): the browser's model host (runtime/browser-host.ts), exposed with comlink as it
 * is — every method of ModelHostApi is the host's own.
 */
import { expose } from 'comlink';
import { BrowserModelHost } from '../src/runtime/browser-host.ts';

const host = new BrowserModelHost();
void host.sweep().catch(() => undefined);
expose(host);
