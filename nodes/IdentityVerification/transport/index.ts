/**
 * The one place every request to the service is built and sent: base URL joining that keeps the
 * contract's trailing slashes, authentication through n8n's `httpRequestWithAuthentication`, a
 * timeout for the answer's headers and a read deadline for its body (idle and total), retries (429
 * for every method, within a budget per execution; 5xx, network failures and bodies that stop
 * coming for GET/DELETE only) with exponential backoff, jitter and `Retry-After`, and errors a
 * user can act on that never carry a secret (the credential's, or the request's own, in any of
 * the encodings a page may quote them in). Nothing is sent outside the credential's Base URL
 * (redirects are not followed), and stopping the execution stops its requests and their waits.
 *
 * One job per file: request.ts (the attempts: options, what an answer means, waits, stopping),
 * credential.ts (the credential, where a request may go, the credential tests), body.ts (reading
 * an answer under its read deadline), retry.ts (when to retry, how long to wait), errors.ts (the
 * messages and the status table), redact.ts (secrets out of every error). The nodes import this
 * file.
 */
export { apiRequest } from './request';
export { readJsonBody } from './body';
export { stalledReadOf } from './errors';
export { assertUnderBaseUrl, getBaseUrl, joinUrl, serviceCredentialTests } from './credential';
export { backoffDelay, parseRetryAfter } from './retry';
export type { ApiRequest, AuthMode, StreamedBody } from './types';
