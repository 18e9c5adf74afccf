/**
 * The one place every request to the service is built and sent: base URL joining that keeps the
 * contract's trailing slashes, authentication through n8n's `httpRequestWithAuthentication`, a
 * timeout, retries (429 for every method; 5xx and network failures for GET/DELETE only) with
 * exponential backoff, full jitter and `Retry-After`, and errors a user can act on that never
 * carry a secret. Nothing is sent outside the credential's Base URL (redirects are not followed),
 * and stopping the execution stops its requests and their waits.
 *
 * One job per file: request.ts (the attempt loop), call.ts (what the attempts share), outcome.ts
 * (what an attempt's result means), credential.ts, url.ts, options.ts, body.ts, cancel.ts,
 * retry.ts, errors.ts with errors/ (the messages; errors/hints.ts is the status table). The nodes
 * import this file.
 */
export { apiRequest } from './request';
export { readJsonBody } from './body';
export { getBaseUrl } from './credential';
export { assertUnderBaseUrl, joinUrl } from './url';
export { backoffDelay, parseRetryAfter } from './retry';
export type { ApiRequest, AuthMode, StreamedBody } from './types';
