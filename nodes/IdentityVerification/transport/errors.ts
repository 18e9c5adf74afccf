/**
 * Errors a user can act on, that never carry a secret: what the transport throws, and the rules
 * behind them (redaction, the excerpt of an error answer, the service's words) for their tests.
 * The parts live in errors/. This entry is a file, not errors/index.ts, so a test build made before
 * the split cannot keep loading its old compiled errors.js in place of the folder.
 */
export { makeRedactor } from './errors/redact';
export type { Redactor } from './errors/redact';
export { parseErrorBody, prunedErrorBody } from './errors/excerpt';
export { fieldErrors, serviceMessage } from './errors/serviceWords';
export { httpError, redirectError } from './errors/http';
export { classifyNetworkError, networkError, networkWords } from './errors/network';
export { cancelledError, unexpectedError } from './errors/local';
export { stalledReadError, stalledReadOf } from './errors/stalled';
export type { Stall } from './errors/stalled';
