/** Small pieces of text the error messages share. */

/** The most of the service's words (or of its field rules) quoted in a message. */
export const QUOTE_LIMIT = 500;

export function cut(text: string, limit: number): string {
	return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** Whether text ends a sentence itself (the service's words often do): no second full stop. */
function endsSentence(text: string): boolean {
	return /[.!?]$/.test(text);
}

/** `text` ended with a full stop, unless it ends a sentence already. */
export function sentence(text: string): string {
	return endsSentence(text) ? text : `${text}.`;
}

/** The service's own words, to put before the advice; nothing when it said nothing. */
export function quoted(text: string | undefined): string {
	if (!text) return '';
	return endsSentence(text) ? `The service said: "${text}" ` : `The service said: "${text}". `;
}

/** A duration as a person reads it: `200 ms`, `1.5 seconds`, `15 minutes`. */
export function formatDuration(ms: number): string {
	if (ms < 1000) return `${ms} ms`;
	if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} minutes`;
	const seconds = Math.round(ms / 100) / 10;
	return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
