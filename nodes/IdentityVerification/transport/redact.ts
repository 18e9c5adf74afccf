/**
 * Secrets out of every text an error carries: each secret as it is, and its base64. These cover the
 * two echoes a real service or proxy makes (the tests have both):
 * - the Authorization header it got, `Basic <base64 of key:secret>` (the credential passes that
 *   base64 as a secret; the base64 forms also find the key or the secret inside other base64);
 * - a JSON error answer quoting a value it was sent (a key, a token, the AML PDF password), which
 *   reads as it is once parsed; a password under 4 characters leaves the quoting text out whole.
 */

/** Replaces every secret in a text (the node's own words with values put into them). */
export interface Redactor {
	(text: string): string;
	/** A text the service wrote, fit to quote; undefined when it holds a secret too short to replace. */
	quote(text: string): string | undefined;
}

const REDACTED = '[redacted]';
/**
 * A shorter secret is replaced only where it is a whole text (e.g. a value of an error answer):
 * replacing every `abc` in a message would mangle it, and show where the secret was.
 */
const MIN_SECRET_LENGTH = 4;
/** A shorter base64 form (of a 4-character secret at an alignment) may be an ordinary word. */
const MIN_BASE64_LENGTH = 6;

/**
 * The base64 of a secret wherever it sits in encoded bytes: for each of the three alignments, the
 * characters that depend on the secret's bits alone, in the standard and the URL-safe alphabet.
 */
export function base64Forms(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	const forms: string[] = [];
	for (let offset = 0; offset < 3; offset++) {
		const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
		const first = Math.ceil((8 * offset) / 6);
		const end = Math.floor((8 * (offset + bytes.length)) / 6);
		const core = encoded.slice(first, end);
		forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return forms;
}

/** The text with every occurrence of the patterns replaced, overlapping ones as one. */
function replaced(text: string, patterns: string[]): string {
	const hidden = new Uint8Array(text.length);
	let found = false;
	for (const pattern of patterns) {
		for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) {
			hidden.fill(1, at, at + pattern.length);
			found = true;
		}
	}
	if (!found) return text;
	let result = '';
	for (let at = 0; at < text.length; at++) {
		if (!hidden[at]) result += text[at];
		else if (at === 0 || !hidden[at - 1]) result += REDACTED;
	}
	return result;
}

export function makeRedactor(secrets: string[]): Redactor {
	const values = secrets.filter((s) => typeof s === 'string' && s !== '');
	const long = values.filter((s) => s.length >= MIN_SECRET_LENGTH);
	const short = values.filter((s) => s.length < MIN_SECRET_LENGTH);
	const base64 = long.flatMap(base64Forms).filter((form) => form.length >= MIN_BASE64_LENGTH);
	const patterns = [...long, ...base64];
	const redact = (text: string) => (short.includes(text) ? REDACTED : replaced(text, patterns));
	const quote = (text: string) =>
		short.some((secret) => text.includes(secret)) ? undefined : replaced(text, patterns);
	return Object.assign(redact, { quote });
}
