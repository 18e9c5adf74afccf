/**
 * The one place requests to the identity verification service are sent, and what the nodes import.
 * A request's path is joined to the credential's Base URL (its trailing slash kept); n8n's
 * `httpRequestWithAuthentication` adds the credential; every answer is read under the bounds of
 * limits.ts (time without a byte, time in all, size), by the transport or by the request's own
 * reader (a page read result by result, a file stored as it downloads); 429 is retried for every
 * request, within a budget per execution, and 5xx, network failures and answers that stop coming
 * for requests safe to repeat, with exponential backoff, jitter and `Retry-After`. Errors say what
 * to do and never carry a secret (the credential's or the request's own, in any encoding a page
 * may quote them in). Nothing is sent outside the Base URL (redirects are not followed), and
 * stopping the execution stops the requests and their waits.
 *
 * types.ts: what a request and its answer are. request.ts: the attempts (options, what an answer
 * means, waits, stopping). download.ts: files, from the service or from a link it gave.
 * credential.ts: the credential, where a request may go, the credential tests. body.ts: reading an
 * answer under its bounds. limits.ts: the bounds. retry.ts: when to retry, how long to wait.
 * errors.ts: the messages and the status table. redact.ts: secrets out of every error.
 * jsonStream.ts and readers.ts: a JSON answer read as it arrives (a page's results one by one, an
 * upload's echo skipped). fileType.ts: what a file is, from its first bytes.
 */
export { apiRequest } from './request';
export { downloadFile, downloadLink } from './download';
export { assertUnderBaseUrl, getBaseUrl, joinUrl, serviceCredentialTests } from './credential';
export { ACCEPTED_FILE_TYPES_TEXT, detectFileType } from './fileType';
export { releasedOnceRead } from './jsonStream';
export {
	DEFAULT_MAX_FILE_MB,
	isRunOver,
	MAX_JSON_BYTES,
	MAX_PAGES,
	requestOptionsProperty,
	runBudgetOf,
} from './limits';
export { runOverWords } from './errors';
export { backoffDelay, parseRetryAfter } from './retry';
export type { RunBudget } from './limits';
export type { ApiRequest, Auth, AuthMode, StreamedBody } from './types';
