// The reference row of bench:http: a bare Express 5 app in a process of its own, as the server
// runs, answering each query's path with the exact response body the product gave it, parsed once
// and stringified per request (what any JSON API pays at least), with no ETag and no middleware.
// What the product reaches against it is the share of Express's own limit it uses.
// REFERENCE_BODIES names a JSON file { "<path and query>": <body> }; prints READY <url>.
import express from 'express';
import fs from 'node:fs';

const bodies = new Map<string, unknown>(
  Object.entries(JSON.parse(fs.readFileSync(process.env.REFERENCE_BODIES!, 'utf8')) as Record<string, unknown>),
);
const app = express();
app.set('etag', false);
app.set('x-powered-by', false);
app.use((req, res) => {
  const body = bodies.get(req.originalUrl);
  if (body === undefined) {
    res.status(404).end();
    return;
  }
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
});
const server = app.listen(0, '127.0.0.1', () => {
  const a = server.address();
  console.log(`READY http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0} -`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
