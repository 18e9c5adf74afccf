/**
 * Secrets out of every text an error carries: the service, or a proxy's error page, may echo a key
 * or a password back as it is, or encoded the way HTML, a URL or a JSON string writes it. What the
 * service wrote is held to more (`quote`): a piece of a secret, or a secret in base64, is taken out
 * too, and a text holding a secret too short to take out safely is left out whole.
 */

/** Replaces every secret in a text (the node's own words with values put into them). */
export interface Redactor {
	(text: string): string;
	/**
	 * A text the service wrote, fit to quote: every secret, every piece of one (FRAGMENT characters or
	 * more) and its base64 forms replaced; undefined when it holds a secret too short for that.
	 */
	quote(text: string): string | undefined;
}

const REDACTED = '[redacted]';
/**
 * A shorter secret is taken out only where it is a whole text (e.g. a value of an error answer):
 * replacing every `abc` in a message would mangle it, and show where the secret was.
 */
const MIN_SECRET_LENGTH = 4;
/**
 * A run of this many characters of a secret in a text the service wrote is taken as a piece of it
 * (an echo cut short, or of its start): long enough that ordinary words do not match a random key.
 */
const FRAGMENT = 6;

/** One escape at a position of a text: the text it stands for, and its length. */
type Unescaped = { value: string; length: number } | undefined;

/** A way a secret may be written in a text. */
interface Encoding {
	/** Whether the text may hold it at all (cheap: most texts hold no escape). */
	mayHold(text: string): boolean;
	/** The escape at `at`, or undefined where the text has a plain character. */
	unescape(text: string, at: number): Unescaped;
	/** The secret as the decoded text holds it. */
	form(secret: string): string;
}

const HTML_ESCAPE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));?/y;
const HTML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/y;
const JSON_NAMED: Record<string, string> = {
	'"': '"',
	'\\': '\\',
	'/': '/',
	b: '\b',
	f: '\f',
	n: '\n',
	r: '\r',
	t: '\t',
};

function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
	pattern.lastIndex = at;
	return pattern.exec(text);
}

/** `&amp;`, `&lt;`, `&#39;`, `&#x27;`: an HTML page quoting the secret. */
const html: Encoding = {
	mayHold: (text) => text.includes('&'),
	unescape(text, at) {
		const match = matchAt(HTML_ESCAPE, text, at);
		if (!match) return undefined;
		const [whole, decimal, hex, name] = match;
		if (name) return { value: HTML_NAMED[name], length: whole.length };
		const code = decimal ? Number(decimal) : parseInt(hex, 16);
		return code <= 0x10ffff
			? { value: String.fromCodePoint(code), length: whole.length }
			: undefined;
	},
	form: (secret) => secret,
};

/** `\"`, `\\`, `\u0027`: a JSON string (or a script) quoting the secret. */
const json: Encoding = {
	mayHold: (text) => text.includes('\\'),
	unescape(text, at) {
		const match = matchAt(JSON_ESCAPE, text, at);
		if (!match) return undefined;
		const [whole, hex, named] = match;
		const value = hex ? String.fromCharCode(parseInt(hex, 16)) : JSON_NAMED[named];
		return { value, length: whole.length };
	},
	form: (secret) => secret,
};

/** The UTF-8 bytes of a text, one character per byte: how a URL's escapes are compared. */
function bytesOf(text: string): string {
	return Buffer.from(text, 'utf8').toString('latin1');
}

/**
 * `%2B`, `%c3%a4` (either case) and, in a form, `+` for a space: a URL or a form quoting the
 * secret. Compared byte by byte, as the escapes of a character other than ASCII are its bytes.
 */
function urlEncoding(plusIsSpace: boolean): Encoding {
	return {
		mayHold: (text) => text.includes('%') || (plusIsSpace && text.includes('+')),
		unescape(text, at) {
			const hex = text.slice(at + 1, at + 3);
			if (text[at] === '%' && /^[0-9a-fA-F]{2}$/.test(hex)) {
				return { value: String.fromCharCode(parseInt(hex, 16)), length: 3 };
			}
			if (plusIsSpace && text[at] === '+') return { value: ' ', length: 1 };
			const char = String.fromCodePoint(text.codePointAt(at) ?? 0);
			return { value: bytesOf(char), length: char.length };
		},
		form: bytesOf,
	};
}

const ENCODINGS: Encoding[] = [html, json, urlEncoding(true), urlEncoding(false)];

/** A text decoded one way, and for each of its code units where it came from in the original. */
interface Decoded {
	text: string;
	from: number[];
	to: number[];
}

/** A text as it is: each code unit comes from itself. */
function asItIs(text: string): Decoded {
	const from = Array.from({ length: text.length }, (_, at) => at);
	return { text, from, to: from.map((at) => at + 1) };
}

function decode(text: string, encoding: Encoding): Decoded {
	const decoded: Decoded = { text: '', from: [], to: [] };
	for (let at = 0; at < text.length; ) {
		const { value, length } = encoding.unescape(text, at) ?? { value: text[at], length: 1 };
		for (let unit = 0; unit < value.length; unit++) {
			decoded.from.push(at);
			decoded.to.push(at + length);
		}
		decoded.text += value;
		at += length;
	}
	return decoded;
}

/** Where the secrets are in the text, as written there: [start, end) of the original. */
function spansOf(decoded: Decoded, secrets: string[]): Array<[number, number]> {
	const spans: Array<[number, number]> = [];
	for (const secret of secrets) {
		for (
			let at = decoded.text.indexOf(secret);
			at !== -1;
			at = decoded.text.indexOf(secret, at + 1)
		) {
			spans.push([decoded.from[at], decoded.to[at + secret.length - 1]]);
		}
	}
	return spans;
}

/** The text with every span replaced (overlapping spans as one). */
function replaced(text: string, spans: Array<[number, number]>): string {
	spans.sort((a, b) => a[0] - b[0]);
	let result = '';
	let done = 0;
	for (const [start, end] of spans) {
		if (end <= done) continue;
		if (start >= done) result += text.slice(done, start) + REDACTED;
		done = end;
	}
	return result + text.slice(done);
}

/** Where the secrets are in the text: as they are, and in every encoding the text may hold. */
function secretSpans(text: string, secrets: string[]): Array<[number, number]> {
	const spans = secrets.some((secret) => text.includes(secret))
		? spansOf(asItIs(text), secrets)
		: [];
	for (const encoding of ENCODINGS) {
		if (encoding.mayHold(text)) {
			spans.push(...spansOf(decode(text, encoding), secrets.map(encoding.form)));
		}
	}
	return spans;
}

/** Where runs of FRAGMENT or more characters of the secrets are in the decoded text. */
function fragmentSpans(decoded: Decoded, pieces: Set<string>): Array<[number, number]> {
	const spans: Array<[number, number]> = [];
	for (let at = 0; at + FRAGMENT <= decoded.text.length; at++) {
		if (pieces.has(decoded.text.slice(at, at + FRAGMENT))) {
			spans.push([decoded.from[at], decoded.to[at + FRAGMENT - 1]]);
		}
	}
	return spans;
}

/** Every run of FRAGMENT characters of the secrets, in the forms an encoding compares them in. */
function piecesOf(secrets: string[], form: (secret: string) => string): Set<string> {
	const pieces = new Set<string>();
	for (const secret of secrets.map(form)) {
		for (let at = 0; at + FRAGMENT <= secret.length; at++)
			pieces.add(secret.slice(at, at + FRAGMENT));
	}
	return pieces;
}

/** Where pieces of the secrets are in the text: as they are, and in every encoding it may hold. */
function pieceSpans(text: string, secrets: string[]): Array<[number, number]> {
	const spans = fragmentSpans(
		asItIs(text),
		piecesOf(secrets, (secret) => secret),
	);
	for (const encoding of ENCODINGS) {
		if (encoding.mayHold(text)) {
			spans.push(...fragmentSpans(decode(text, encoding), piecesOf(secrets, encoding.form)));
		}
	}
	return spans;
}

/** Whether the text holds the secret, as it is or in an encoding. */
function holds(text: string, secret: string): boolean {
	if (text.includes(secret)) return true;
	return ENCODINGS.some(
		(encoding) =>
			encoding.mayHold(text) && decode(text, encoding).text.includes(encoding.form(secret)),
	);
}

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

export function makeRedactor(secrets: string[]): Redactor {
	const values = secrets.filter((s) => typeof s === 'string' && s !== '');
	const long = values.filter((s) => s.length >= MIN_SECRET_LENGTH);
	const short = values.filter((s) => s.length < MIN_SECRET_LENGTH);
	const whole = new Set(short);
	const quotable = [...long, ...long.flatMap(base64Forms)].filter((s) => s.length >= FRAGMENT);
	const redact = (text: string) => {
		if (whole.has(text)) return REDACTED;
		const spans = long.length ? secretSpans(text, long) : [];
		return spans.length ? replaced(text, spans) : text;
	};
	const quote = (text: string) => {
		if (short.some((secret) => holds(text, secret))) return undefined;
		const spans = [...secretSpans(text, long), ...pieceSpans(text, quotable)];
		return spans.length ? replaced(text, spans) : text;
	};
	return Object.assign(redact, { quote });
}
