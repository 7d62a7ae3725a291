// Sending the statement that commits a write, the same for every driver: the fault points a test
// arms around it (storage/fault-points.ts), and a connection lost before its answer came back
// turned into a CommitInDoubt naming the database session, which storage/sql/commit-outcome.ts settles.
import type { Socket } from 'node:net';
import { faultAt } from '../fault-points.js';
import { CommitInDoubt, type ClassifiedError } from './driver.js';

/** The connection a commit goes out on: its socket, its session id at the database, how its errors read. */
export interface CommitConnection {
  readonly socket: Socket;
  readonly session: number;
  readonly classify: (e: unknown) => ClassifiedError;
}

export async function committing<T>(on: CommitConnection, send: () => Promise<T>): Promise<T> {
  const before = faultAt('commit-sending', { hold: () => on.socket.cork() });
  if (before) await before;
  const sent = send();
  sent.catch(() => undefined); // answered below, after the fault point
  const after = faultAt('commit-sent', { drop: () => on.socket.destroy() });
  if (after) await after;
  try {
    return await sent;
  } catch (e) {
    throw on.classify(e).kind === 'unavailable' ? new CommitInDoubt(on.session, e) : e;
  }
}
