// An AbortSignal that fires when the client closes the connection before its answer is sent, so
// a long query stops computing for nobody (under load, clients that time out would otherwise leave
// their queries running and delay everyone after them).
import type { Response } from 'express';

export function abortedWhenClientGone(res: Response): AbortSignal {
  const ac = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  return ac.signal;
}
