/**
 * A failure without an answer (refused, unknown host, timeout, dropped connection): what kind it
 * was, read from the error codes on its chain, and what the user is told for each kind.
 */
import type { INode, NodeApiError } from 'n8n-workflow';

import { DEFAULT_BASE_URL } from '../../../shared/urlGuards';
import type { ApiMethod } from '../types';
import { apiError } from './apiError';
import type { Redactor } from './redact';
import { formatDuration } from './wording';

export type NetworkProblem = 'refused' | 'dns' | 'timeout' | 'reset' | 'tls' | 'other';

/** The kind of one error on the chain, by its Node.js / axios code or its message; in this order. */
function problemOf(code: string | undefined, message: string): NetworkProblem | undefined {
	if (code === 'ECONNREFUSED') return 'refused';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout of \d+ms exceeded/i.test(message))
		return 'timeout';
	if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(message)) return 'reset';
	if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENETDOWN') return 'refused';
	if (code && /CERT|SSL|TLS/i.test(code)) return 'tls';
	if (code === 'ERR_NETWORK' || code === 'ERR_BAD_RESPONSE') return 'other';
	return undefined;
}

/**
 * The error's Node.js / axios code: `code`, or `httpCode` where n8n 1.x keeps it (its request
 * errors drop the `cause` and carry e.g. `httpCode: 'ECONNRESET'`); a status number is no code.
 */
function codeOf(record: Record<string, unknown>): string | undefined {
	if (typeof record.code === 'string') return record.code;
	if (typeof record.httpCode === 'string' && !/^\d+$/.test(record.httpCode)) return record.httpCode;
	return undefined;
}

/** Classifies a failure without a response by the first error on its `cause` chain that says. */
export function classifyNetworkError(
	error: unknown,
): { problem: NetworkProblem; code?: string } | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (typeof current === 'object' && current !== null && !seen.has(current)) {
		seen.add(current);
		const record = current as Record<string, unknown>;
		const code = codeOf(record);
		const problem = problemOf(code, typeof record.message === 'string' ? record.message : '');
		if (problem) return { problem, code };
		current = record.cause;
	}
	return undefined;
}

export interface NetworkFailure {
	problem: NetworkProblem;
	code?: string;
	origin: string;
	method: ApiMethod;
	attempts: number;
	timeoutMs: number;
	itemIndex?: number;
}

/** What a message may say: the failure, how often it was tried, whether a POST may have landed. */
type NetworkWords = NetworkFailure & { tries: string; notRepeated: string };

type NetworkHint = (words: NetworkWords) => { message: string; description: string };

const NETWORK_HINTS: Record<NetworkProblem, NetworkHint> = {
	refused: ({ origin, tries }) => ({
		message: `Could not connect to the service at ${origin}${tries}`,
		description:
			'Nothing accepted the connection. Check the Base URL in the credential (host name and port) and that the service is reachable from n8n.',
	}),
	dns: ({ origin, tries }) => ({
		message: `The host of the Base URL could not be found (${origin})${tries}`,
		description: `Check the spelling of the Base URL in the credential, e.g. ${DEFAULT_BASE_URL}.`,
	}),
	timeout: ({ timeoutMs, tries, notRepeated }) => ({
		message: `The service did not answer within ${formatDuration(timeoutMs)}${tries}`,
		description: 'The service may be slow or unreachable right now. Try again later.' + notRepeated,
	}),
	reset: ({ tries, notRepeated }) => ({
		message: `The connection to the service was closed before it answered${tries}`,
		description:
			'The service or a proxy in between dropped the connection. Try again later.' + notRepeated,
	}),
	tls: ({ origin }) => ({
		message: `The secure connection to ${origin} could not be established`,
		description:
			'The server’s HTTPS certificate was not accepted. Check that the Base URL is the service’s real address.',
	}),
	other: ({ origin, tries, notRepeated }) => ({
		message: `The request to the service at ${origin} failed without an answer${tries}`,
		description: 'Check the Base URL in the credential and try again later.' + notRepeated,
	}),
};

/** A POST that may have reached the service before the connection failed is not repeated. */
function notRepeatedText({ method, problem }: NetworkFailure): string {
	return method === 'POST' && (problem === 'timeout' || problem === 'reset' || problem === 'other')
		? ' The request was not repeated, because the service may already have processed it: check in the dashboard whether it went through before running again.'
		: '';
}

/** What the user is told about a failure without an answer: the message and what to do. */
export function networkWords(failure: NetworkFailure): { message: string; description: string } {
	const tries = failure.attempts === 1 ? '' : ` after ${failure.attempts} attempts`;
	const hint = NETWORK_HINTS[failure.problem] ?? NETWORK_HINTS.other;
	const { message, description } = hint({
		...failure,
		tries,
		notRepeated: notRepeatedText(failure),
	});
	const code = failure.code ? ` (network code: ${failure.code})` : '';
	return { message, description: description + code };
}

/** No answer at all (refused, unknown host, timeout, dropped connection), after any retries. */
export function networkError(node: INode, redact: Redactor, failure: NetworkFailure): NodeApiError {
	return apiError(node, redact, { ...networkWords(failure), itemIndex: failure.itemIndex });
}
