/** Secrets out of every text an error carries: the service may echo a key back in its answer. */

/** Replaces every secret in a text. */
export type Redactor = (text: string) => string;

export function makeRedactor(secrets: string[]): Redactor {
	// Longest first: a key that is part of the secret must not leave the rest of the secret behind.
	const values = secrets
		.filter((s) => typeof s === 'string' && s.length >= 4)
		.sort((a, b) => b.length - a.length);
	return (text: string) => {
		let result = text;
		for (const secret of values) result = result.split(secret).join('[redacted]');
		return result;
	};
}
