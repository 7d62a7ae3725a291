// A background job's progress: its status and a bar of rows done out of the total (an indeterminate bar
// while the total is not known yet).
import { html } from '../lib/html.js';
import type { JobState } from '../lib/job.js';

export function JobProgress({ state }: { state: JobState }) {
  const known = state.total !== null && state.total > 0 && state.done !== null;
  return html`<div class="job-progress" data-testid="job-progress" data-status=${state.status}>
    <label for="job-bar">Background import: ${state.label}</label>
    ${
      known
        ? html`<progress id="job-bar" max=${state.total} value=${Math.min(state.done!, state.total!)}></progress>
            <span class="muted">${state.done} of ${state.total} rows</span>`
        : html`<progress id="job-bar" value=${state.finished ? 1 : undefined}></progress>`
    }
  </div>`;
}
