// Preact with htm: components written as tagged templates (htm's Preact binding), no JSX transform.
export { html } from 'htm/preact';
