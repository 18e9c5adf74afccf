// trigger.verifyMicros and trigger.parts: what the parts of a delivery this package runs itself
// cost, with no n8n around them: the signature check alone for 1 KB, 100 KB and 1 MB bodies; the
// body's JSON parse and the typed event; the delivery id, its duplicate key and the former keys.
// (The duplicate store's claim is the dedupe section; the key read and the static data write are
// n8n's, measured through n8n in the trigger section.)
import { randomBytes } from 'node:crypto';

import { sampleBody, sign } from '../../test/sandbox/index.cjs';
import { dedupe, events, signature } from './built.cjs';
import {
	log,
	median,
	microsPerCall,
	round,
	MB,
	type Options,
	type PartFigures,
	type VerifyFigures,
} from './common.cjs';

const { dedupeKey, formerDedupeKeys } = dedupe;
const { buildEvent } = events;
const { bodyHash, verifySignature } = signature;

/** A JSON body of exactly `size` bytes (an event with a padding field). */
function jsonBodyOfSize(size: number): Buffer {
	const head =
		JSON.stringify(sampleBody('IDENTIFICATION_AUTO_FINISHED')).slice(0, -1) + ',"padding":"';
	const tail = '"}';
	const fill = Math.max(0, size - Buffer.byteLength(head) - tail.length);
	const body = Buffer.from(
		head +
			randomBytes(Math.ceil(fill / 2))
				.toString('hex')
				.slice(0, fill) +
			tail,
	);
	return body;
}

export function benchVerify(opts: Options): VerifyFigures {
	const key = 'bench-signing-key-0123456789';
	const sizes: Array<['1KB' | '100KB' | '1MB', number, number]> = [
		['1KB', 1024, opts.quick ? 5000 : 20000],
		['100KB', 100 * 1024, opts.quick ? 500 : 2000],
		['1MB', MB, opts.quick ? 100 : 300],
	];
	const result = { '1KB': 0, '100KB': 0, '1MB': 0 };
	for (const [label, size, iterations] of sizes) {
		const body = jsonBodyOfSize(size);
		const header = sign(body, key);
		for (let i = 0; i < Math.min(200, iterations); i++) {
			if (!verifySignature(body, header, key).valid)
				throw new Error('the signature check refused a valid signature');
		}
		const samples: number[] = [];
		for (let i = 0; i < iterations; i++) {
			const t0 = process.hrtime.bigint();
			verifySignature(body, header, key);
			samples.push(Number(process.hrtime.bigint() - t0) / 1000);
		}
		result[label] = round(median(samples), 1);
		log(`verify ${label}: median ${result[label]} µs over ${iterations} checks`);
	}
	return result;
}

/** The body parse and event, and the keys, of a 1 KB delivery, µs each (as the trigger runs them). */
export function benchParts(opts: Options, details: string[]): PartFigures {
	const raw = jsonBodyOfSize(1024);
	const receivedAt = new Date();
	const batch = opts.quick ? 200 : 500;
	const samples = opts.quick ? 20 : 50;
	const eventMicros = microsPerCall(
		() =>
			buildEvent({
				headerEventType: 'IDENTIFICATION_AUTO_FINISHED',
				body: JSON.parse(raw.toString('utf8')),
				deliveryId: 'x'.repeat(64),
				receivedAt,
			}),
		batch,
		samples,
	);
	const keysMicros = microsPerCall(
		() => {
			const id = bodyHash(raw);
			return [dedupeKey(id), formerDedupeKeys(id)];
		},
		batch,
		samples,
	);
	details.push(
		`trigger.parts: a 1 KB delivery; JSON parse + typed event ${eventMicros.toFixed(1)} µs, delivery id + duplicate key + ${formerDedupeKeys('x').length} former keys ${keysMicros.toFixed(1)} µs (median of ${samples} batches of ${batch})`,
	);
	return { eventMicros: round(eventMicros, 1), keysMicros: round(keysMicros, 1) };
}
