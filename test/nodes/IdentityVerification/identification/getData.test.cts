/**
 * Identification → Get Data: what the service read from a verification's document, with the
 * Personal Data choice: Leave Out keeps an allow-list of the references and the decision.
 */
import fc from 'fast-check';

import { decisionOnly } from '../../../../nodes/IdentityVerification/actions/identification/getData.operation';
import { providerEnumValues } from '../../../real-service/provider.cjs';
import { expectError, expectPaired, serviceRequests } from '../util.cjs';
import { useKycSandbox } from '../kyc-util.cjs';

const ctx = useKycSandbox();

const getData = (scanRef: string, extra: Record<string, unknown> = {}) => ({
	resource: 'identification',
	operation: 'getData',
	scanRef,
	...extra,
});

/** Personal values of the sandbox's document (bodies.cts). */
const PERSONAL = [
	'ĄŽUOLAS',
	'ŽEMAITIS',
	'10293847',
	'38504120123',
	'1985-04-12',
	'Žirmūnų',
	'ŠIAULIAI',
];

describe('Identification: Get Data', () => {
	test('Include: everything the service read from the document', async () => {
		const scanRef = await ctx.finished('customer-data');
		const { items, error } = await ctx.run(getData(scanRef));
		expect(error).toBeUndefined();
		expectPaired(items);
		expect(items[0].json).toMatchObject({
			scanRef,
			clientId: 'customer-data',
			docFirstName: 'ĄŽUOLAS',
			docLastName: 'ŽEMAITIS',
			docNumber: '10293847',
			docType: 'ID_CARD',
		});
	});

	test('Leave Out: only the references and the decision, none of the person’s data', async () => {
		const scanRef = await ctx.finished('customer-private');
		const { items, error } = await ctx.run(getData(scanRef, { personalData: 'leaveOut' }));
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			scanRef,
			clientId: 'customer-private',
			docType: 'ID_CARD',
			manuallyDataChanged: false,
			clientIpProxyRiskLevel: 'LOW',
		});
		const text = JSON.stringify(items[0].json);
		expect(PERSONAL.filter((value) => text.includes(value))).toEqual([]);
	});

	test('Leave Out keeps a field only when it is on its list: fields the service adds later are left out', () => {
		expect(
			decisionOnly({
				scanRef: 's',
				status: {
					overall: 'DENIED',
					fraudTags: ['FACE_SUSPECTED'],
					note: 'Jonas',
					data: { docNumber: '1' },
				},
				autoFace: 'FACE_MATCH',
				docFirstName: 'Jonas',
				selfieOfTheDay: 'https://files.example.com/face.png',
			}),
		).toEqual({
			scanRef: 's',
			status: { overall: 'DENIED', fraudTags: ['FACE_SUSPECTED'] },
			autoFace: 'FACE_MATCH',
		});
	});

	test('Leave Out keeps a status object’s decision as the trigger’s Leave Out does: with its suspicion reasons and additional steps', () => {
		const status = {
			overall: 'SUSPECTED',
			suspicionReasons: ['FACE_SUSPECTED'],
			additionalSteps: 'VALID',
		};
		expect(decisionOnly({ scanRef: 's', status })).toEqual({ scanRef: 's', status });
	});

	test('Leave Out keeps a field only with a value of its type in the contract: an object or free text is left out', async () => {
		ctx.sb.faults.add({
			path: '/api/v2/data',
			status: 200,
			body: {
				scanRef: 's-typed',
				clientId: 'jonas@example.com',
				docType: { name: 'Jonas Jonaitis' },
				clientIpProxyRiskLevel: 'Jonas Jonaitis, Vilnius',
				manuallyDataChanged: 'by Ona Reviewer',
				final: { reviewer: 'Ona Reviewer' },
				autoDocument: 'DOC_VALIDATED',
				autoFace: 'Jonas Jonaitis',
				fraudTags: ['FACE_SUSPECTED', 'Jonas Jonaitis'],
				mismatchTags: ['NAME'],
				status: { overall: 'Approved for Jonas', manualFace: 'FACE_MATCH' },
			},
		});
		const { items, error } = await ctx.run(getData('s-typed', { personalData: 'leaveOut' }));
		expect(error).toBeUndefined();
		// The Client ID stays as sent: workflows find the customer by it.
		expect(items[0].json).toEqual({
			scanRef: 's-typed',
			clientId: 'jonas@example.com',
			autoDocument: 'DOC_VALIDATED',
			mismatchTags: ['NAME'],
			status: { manualFace: 'FACE_MATCH' },
		});
	});

	test('Leave Out keeps the values the contract gives each field: its statuses, levels, document types and tags', () => {
		const answer = {
			scanRef: 's',
			clientId: 42,
			status: 'EXPIRED-DELETED',
			final: false,
			docType: 'PASSPORT',
			clientIpProxyRiskLevel: 'VERY_HIGH',
			manuallyDataChanged: true,
			autoDocument: 'DOC_EXPIRED',
			autoFace: 'FACE_MISMATCH',
			manualDocument: null,
			manualFace: null,
			fraudTags: ['DUPLICATE_FACE', 'VIRTUAL_CAMERA'],
			mismatchTags: [],
		};
		expect(decisionOnly(answer)).toEqual(answer);
		expect(decisionOnly({ scanRef: 's', status: { overall: 'Jonas' } })).toEqual({ scanRef: 's' });
		expect(decisionOnly({ scanRef: 's', clientId: { email: 'jonas@example.com' } })).toEqual({
			scanRef: 's',
		});
	});

	test('Leave Out, whatever the answer holds: every value kept is one of the provider’s words, true, false or null, apart from the references', () => {
		const words = providerEnumValues();
		const fields = [
			'status',
			'final',
			'autoDocument',
			'autoFace',
			'manualDocument',
			'manualFace',
			'fraudTags',
			'mismatchTags',
			'docType',
			'manuallyDataChanged',
			'clientIpProxyRiskLevel',
		];
		const word = fc.constantFrom(...words);
		const value = fc.oneof(
			fc.anything(),
			word,
			fc.array(word),
			fc.array(fc.oneof(word, fc.string())),
		);
		const status = fc.dictionary(
			fc.constantFrom('overall', 'autoFace', 'fraudTags', 'note'),
			value,
		);
		const answer = fc.record({
			scanRef: fc.anything(),
			clientId: fc.anything(),
			...Object.fromEntries(fields.map((field) => [field, fc.oneof(value, status)])),
		});
		/** The values of a kept field, down to its leaves. */
		const leaves = (kept: unknown): unknown[] =>
			Array.isArray(kept)
				? kept.flatMap(leaves)
				: kept !== null && typeof kept === 'object'
					? Object.values(kept).flatMap(leaves)
					: [kept];
		fc.assert(
			fc.property(answer, (data) => {
				const { scanRef, clientId, ...kept } = decisionOnly(data as never);
				for (const reference of [scanRef, clientId]) {
					expect(
						reference === null || ['undefined', 'string', 'number'].includes(typeof reference),
					).toBe(true);
				}
				for (const [field, held] of Object.entries(kept)) {
					expect(fields).toContain(field);
					if (field !== 'status')
						expect(Array.isArray(held) || typeof held !== 'object' || held === null).toBe(true);
					for (const leaf of leaves(held)) {
						expect(typeof leaf === 'boolean' || leaf === null || words.has(leaf)).toBe(true);
					}
				}
			}),
		);
	});

	test('after the data was deleted, the service has nothing: every field is empty', async () => {
		const scanRef = await ctx.finished('customer-gone');
		await ctx.run({ resource: 'identification', operation: 'deletePersonalData', scanRef });
		const { items } = await ctx.run(getData(scanRef));
		expect(items[0].json).toMatchObject({ scanRef, docFirstName: null, docNumber: null });
	});

	test('an empty Scan Reference is refused before anything is sent; an unknown one is a 404', async () => {
		const empty = await ctx.run(getData('={{ $json.scanRef }}'), {
			input: [{ json: { scanRef: ' ' } }],
		});
		expectError(empty, 'Scan Reference: must not be empty');
		expect(serviceRequests(ctx.sb)).toBe(0);
		const error = expectError(await ctx.run(getData('unknown')), '404');
		expect(error.description).toMatch(/check the ids/i);
	});

	test('Continue On Fail: the unknown verification becomes an error item, the others go on', async () => {
		const scanRef = await ctx.finished('customer-cof');
		const { items, error } = await ctx.run(getData('={{ $json.scanRef }}'), {
			continueOnFail: true,
			input: [{ json: { scanRef: 'unknown' } }, { json: { scanRef } }],
		});
		expect(error).toBeUndefined();
		expectPaired(items, (i) => i);
		expect(items[0].json).toMatchObject({ httpCode: '404' });
		expect(items[1].json.docLastName).toBe('ŽEMAITIS');
	});
});
