/** Small pieces of text the error messages share. */

/** The most of the service's words (or of its field rules) quoted in a message. */
export const QUOTE_LIMIT = 500;

export function cut(text: string, limit: number): string {
	return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** The service's own words, to put before the advice; nothing when it said nothing. */
export function quoted(text: string | undefined): string {
	return text ? `The service said: "${text}". ` : '';
}
