/**
 * Identification → Get Data: what the service read from a verification's document, with the
 * Personal Data choice: Leave Out keeps an allow-list of the references and the decision.
 */
import { decisionOnly } from '../../../nodes/IdentityVerification/actions/identification/getData.operation';
import { expectError, expectPaired, serviceRequests } from './util.cjs';
import { useKycSandbox } from './kyc-util.cjs';

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
				status: { overall: 'DENIED', fraudTags: ['X'], note: 'Jonas', data: { docNumber: '1' } },
				autoFace: 'FACE_MATCH',
				docFirstName: 'Jonas',
				selfieOfTheDay: 'https://files.example.com/face.png',
			}),
		).toEqual({
			scanRef: 's',
			status: { overall: 'DENIED', fraudTags: ['X'] },
			autoFace: 'FACE_MATCH',
		});
	});

	test('Leave Out keeps a status object’s decision as the trigger’s Leave Out does: with its suspicion reasons and additional steps', () => {
		const status = {
			overall: 'SUSPECTED',
			suspicionReasons: ['FACE_SUSPECTED'],
			additionalSteps: { UTILITY_BILL: 'VALID' },
		};
		expect(decisionOnly({ scanRef: 's', status })).toEqual({ scanRef: 's', status });
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
