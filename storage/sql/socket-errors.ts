// Socket and stream codes by which Node tells that a database server is lost or unreachable:
// the same on every backend, so each driver's error classifier adds only its own codes.
export const SOCKET_UNAVAILABLE_CODES: readonly string[] = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ERR_STREAM_DESTROYED',
  'ERR_SOCKET_CLOSED', // written to a connection already closed
];
