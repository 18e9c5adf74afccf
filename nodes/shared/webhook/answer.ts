/**
 * How a delivery that starts nothing is answered: acknowledged (2xx, e.g. a kind the workflow does
 * not want), or refused where someone can see why. In production the sender gets the refusal (401,
 * 400 or 500: the service keeps the delivery and retries) and n8n's log one line with the reason
 * and the header names the delivery carried (never their values, the body, the signature or the
 * key), as a refusal starts no execution. While the editor listens for a test event, or a manual
 * run waits, the node throws instead: n8n then ends that run with the error in the editor and
 * answers the sender 500 itself (packages/cli webhook-helpers.ts `executeWebhook`, 1.x and 2.x).
 */
import { NodeOperationError, type IDataObject, type IWebhookFunctions } from 'n8n-workflow';

/** Why a delivery is refused: the answer's status and error, the log level, and what to do. */
export interface Refusal {
	status: 400 | 401 | 500;
	/** The answer's `error`, and the editor's message; no value the sender chose. */
	error: string;
	level: 'warn' | 'error';
	/** What to do about it, in the user's words (the editor's description, the log line's end). */
	fix: string;
	/** A detail for the log only (e.g. why there is no signing key); never from the body. */
	detail?: string;
}

/** At most this many header names in a log line or message: the sender chooses how many it sends. */
const MAX_NAMES = 30;

/** The names of the request's headers (no values), as Node gives them, cut to a sane length. */
function carriedHeaderNames(context: IWebhookFunctions): string {
	const names = Object.keys(context.getRequestObject().headers ?? {})
		.map((name) => name.replace(/[^A-Za-z0-9!#$%&'*+.^_`|~-]/g, '?').slice(0, 60))
		.sort();
	if (names.length === 0) return 'none';
	const more = names.length > MAX_NAMES ? `, and ${names.length - MAX_NAMES} more` : '';
	return names.slice(0, MAX_NAMES).join(', ') + more;
}

/** Answers the delivery without starting (or resuming) a workflow. */
export function answer(this: IWebhookFunctions, status: number, body: IDataObject) {
	this.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true as const };
}

/** Refuses the delivery: logs one line, then ends a manual run with the reason, or answers the sender. */
export function refuse(context: IWebhookFunctions, refusal: Refusal) {
	const { name } = context.getNode();
	const headers = carriedHeaderNames(context);
	const why = refusal.detail ? `${refusal.error} (${refusal.detail})` : refusal.error;
	context.logger[refusal.level](
		`${name}: delivery refused (${refusal.status}): ${why}. Header names it carried: ${headers}. ${refusal.fix}`,
	);
	if (context.getMode() === 'manual') {
		throw new NodeOperationError(context.getNode(), `Delivery refused: ${refusal.error}`, {
			description: `${refusal.fix} Header names the delivery carried: ${headers}.`,
		});
	}
	return answer.call(context, refusal.status, { received: false, error: refusal.error });
}
