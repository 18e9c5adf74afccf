/**
 * Errors a user can act on, that never carry a secret: what the transport throws, and the rules
 * behind them (redaction, the excerpt of an error answer, the service's words) for their tests.
 */
export { makeRedactor } from './redact';
export type { Redactor } from './redact';
export { parseErrorBody, prunedErrorBody } from './excerpt';
export { fieldErrors, serviceMessage } from './serviceWords';
export { httpError, redirectError } from './http';
export { classifyNetworkError, networkError } from './network';
export { cancelledError, unexpectedError } from './local';
