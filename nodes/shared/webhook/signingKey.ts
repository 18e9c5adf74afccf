/**
 * The signing key a delivery is checked with, and the header names it may be read under: read from
 * the Webhook Signing credential, and kept in this n8n process for a few seconds per workflow and
 * credential, so that a burst of deliveries reads it once. Used by the signature check in delivery.ts.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { acceptedHeaderSets, type WebhookHeaderNames } from '../contract';

const SIGNING_CREDENTIAL = 'identityVerificationWebhookSigningApi';

/**
 * How long a signing key read from its credential is used for the deliveries that follow, in this
 * n8n process: a changed key takes effect within this time (at once for a delivery signed with the
 * new key, see SIGNING_KEY_REREAD_MS). In n8n each read (`getCredentials` in a webhook) is a
 * database query, a decryption and a fresh expression isolate: a burst reads the key once.
 */
const SIGNING_KEY_TTL_MS = 5_000;
/**
 * A signature that does not match a kept key makes the receiver read the key again (it may have
 * just been changed), at most once per this time per workflow and credential: forged deliveries
 * cannot make it read the key for each of them.
 */
const SIGNING_KEY_REREAD_MS = 1_000;
/** At most this many kept keys (workflow and credential pairs); the oldest is dropped first. */
const MAX_KEPT_KEYS = 200;

/**
 * What a delivery is checked with: the key ('' when the credential has none) and the header sets
 * the credential's Header Prefix accepts (acceptedHeaderSets).
 */
export interface SigningCredential {
	key: string;
	headers: WebhookHeaderNames[];
}

interface KeptKey {
	/** The read, under way or done. */
	key: Promise<SigningCredential>;
	/** When the read started (`Date.now()`). */
	readAt: number;
	/** When a signature that did not match last made the key be read again (0: never). */
	rereadAt: number;
}

/**
 * Signing keys by workflow id and credential id. Only a key read for that workflow through n8n's
 * own credential resolution serves it: never another workflow's, never a node without a credential
 * id. Never written to the output or the log.
 */
const keptKeys = new Map<string, KeptKey>();

/** Where a delivery's key may be kept: its workflow and credential, when both have an id. */
export function keyScope(context: IWebhookFunctions): string | undefined {
	const credentialId = context.getNode().credentials?.[SIGNING_CREDENTIAL]?.id;
	if (typeof credentialId !== 'string' || credentialId === '') return undefined;
	const workflowId = context.getWorkflow().id;
	if (typeof workflowId !== 'string' || workflowId === '') return undefined;
	return `${workflowId}\n${credentialId}`;
}

/** Reads the signing key and header prefix from the credential (throws when the node has none). */
async function readSigningKey(context: IWebhookFunctions): Promise<SigningCredential> {
	const credentials = await context.getCredentials(SIGNING_CREDENTIAL);
	const key = credentials.signingSecret;
	return {
		key: typeof key === 'string' ? key : '',
		headers: acceptedHeaderSets(credentials.headerPrefix),
	};
}

/** Reads the key and keeps the read for `scope`; a failed read or an empty key is not kept. */
function readAndKeep(context: IWebhookFunctions, scope: string, now: number): KeptKey {
	const kept: KeptKey = { key: readSigningKey(context), readAt: now, rereadAt: 0 };
	keptKeys.delete(scope);
	keptKeys.set(scope, kept);
	while (keptKeys.size > MAX_KEPT_KEYS) keptKeys.delete(keptKeys.keys().next().value as string);
	const forget = () => {
		if (keptKeys.get(scope) === kept) keptKeys.delete(scope);
	};
	kept.key.then((read) => read.key === '' && forget(), forget);
	return kept;
}

/** The key a delivery is checked with, and the kept read it came from (none: read for it alone). */
export interface SigningKey {
	key: Promise<SigningCredential>;
	kept?: KeptKey;
	/** Read for this delivery (not kept from an earlier one): reading again would change nothing. */
	fresh: boolean;
}

export function signingKeyFor(
	context: IWebhookFunctions,
	scope: string | undefined,
	now: number,
): SigningKey {
	if (scope === undefined) return { key: readSigningKey(context), fresh: true };
	const kept = keptKeys.get(scope);
	if (kept && now >= kept.readAt && now - kept.readAt < SIGNING_KEY_TTL_MS) {
		return { key: kept.key, kept, fresh: false };
	}
	const read = readAndKeep(context, scope, now);
	return { key: read.key, kept: read, fresh: true };
}

/**
 * After a signature that did not match the key `used`: the key to check again with, or undefined.
 * A newer read of the same credential (another delivery's) is used as it is; otherwise the key is
 * read again, unless that was done less than SIGNING_KEY_REREAD_MS ago.
 */
export function keyAfterMismatch(
	context: IWebhookFunctions,
	scope: string | undefined,
	used: SigningKey,
	now: number,
): Promise<SigningCredential> | undefined {
	if (scope === undefined || used.kept === undefined) return undefined;
	const current = keptKeys.get(scope);
	if (current && current !== used.kept) return current.key;
	if (used.fresh) return undefined;
	const last = used.kept.rereadAt;
	if (now >= last && now - last < SIGNING_KEY_REREAD_MS) return undefined;
	used.kept.rereadAt = now;
	const read = readAndKeep(context, scope, now);
	read.rereadAt = now;
	return read.key;
}
