// The GraphQL differential test (differential.test.ts) again on integer stores (memory and PostgreSQL): the
// same module imported under another URL is a second instance, which reads its id style from that URL.
const integerRun: string = './differential.test.js?ids=integer';
await import(integerRun);
