/**
 * Identification → Create Verification Token: the token and the link to send the person, the
 * typed and free-form fields, the rules checked before anything is sent, and "Send the Result to
 * This Workflow" with the Wait for Result step after it.
 */
import type { INodeParameters } from 'n8n-workflow';
import { runNode, sandboxCredentials } from '../../../harness/index.cjs';
import { expectError, expectPaired, serviceRequests, useSandbox, type RunOpts } from '../util.cjs';

const ctx = useSandbox();
/** A later step that waits for the result (what "Send the Result to This Workflow" needs). */
const WAIT_STEP = {
	name: 'Wait for the result',
	parameters: { resource: 'identification', operation: 'waitForResult' },
};

/** Runs the node's Create Verification Token with these parameters. */
const createToken = (parameters: INodeParameters, opts?: RunOpts) =>
	ctx.run(
		{ resource: 'identification', operation: 'createVerificationToken', ...parameters },
		opts,
	);

describe('Identification: Create Verification Token', () => {
	test('creates a verification token and outputs the service answer (authToken, scanRef)', async () => {
		const { items, error } = await createToken({ clientId: 'customer-42' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expectPaired(items);
		expect(items[0].json.clientId).toBe('customer-42');
		expect(typeof items[0].json.authToken).toBe('string');
		expect(typeof items[0].json.scanRef).toBe('string');
		expect(ctx.sb.kyc.get(String(items[0].json.scanRef))?.clientId).toBe('customer-42');
	});

	test('passes Additional Fields through unchanged, with the types expressions give them', async () => {
		const { items, error } = await createToken({
			clientId: 'customer-43',
			additionalFields: {
				field: [
					{ name: 'locale', value: 'lt' },
					{ name: 'expiryTime', value: '={{ 900 }}' },
				],
			},
		});
		expect(error).toBeUndefined();
		const session = ctx.sb.kyc.get(String(items[0].json.scanRef));
		expect(session?.request).toMatchObject({
			clientId: 'customer-43',
			locale: 'lt',
			expiryTime: 900,
		});
		expect(items[0].json.expiryTime).toBe(900);
	});

	test('uses the Client ID of each item (expressions per item)', async () => {
		const { items, error } = await createToken(
			{ clientId: '={{ $json.customer }}' },
			{ input: [{ json: { customer: 'a-1' } }, { json: { customer: 'b-2' } }] },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.clientId)).toEqual(['a-1', 'b-2']);
		expectPaired(items, (i) => i);
	});

	test('refuses an empty Client ID before sending anything', async () => {
		const result = await createToken({ clientId: ' ' });
		const error = expectError(result, 'Client ID', 'must not be empty');
		expect(error.message).not.toMatch(/Client ID: Client ID/);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('sends the typed token fields with their types (numbers, a list of documents, upper-case country)', async () => {
		// The text fields, which go out exactly as given.
		const sentAsGiven = {
			firstName: 'Jonas',
			lastName: 'Jonaitis',
			externalRef: 'order-7',
			successUrl: 'https://example.com/ok',
			errorUrl: 'https://example.com/error',
			unverifiedUrl: 'https://example.com/later',
			callbackUrl: 'https://example.com/kyc',
			locale: 'lt',
		};
		const { items, error } = await createToken({
			clientId: 'customer-46',
			tokenFields: {
				...sentAsGiven,
				country: 'lt',
				expiryTime: '={{ "1800" }}',
				sessionLength: 900,
				documents: ['ID_CARD', 'PASSPORT'],
				dateOfBirth: '1990-12-31',
			},
		});
		expect(error).toBeUndefined();
		expect(ctx.sb.kyc.get(String(items[0].json.scanRef))?.request).toEqual({
			clientId: 'customer-46',
			...sentAsGiven,
			country: 'LT',
			expiryTime: 1800,
			sessionLength: 900,
			documents: ['ID_CARD', 'PASSPORT'],
			dateOfBirth: '1990-12-31',
		});
	});

	describe('Documents', () => {
		const sentDocuments = async (documents: unknown, typeVersion?: number) => {
			const { items, error } = await runNode({
				node: 'identityVerification',
				typeVersion,
				parameters: {
					resource: 'identification',
					operation: 'createVerificationToken',
					clientId: 'customer-60',
					tokenFields: { documents },
				} as INodeParameters,
				credentials: sandboxCredentials(ctx.sb),
			});
			expect(error).toBeUndefined();
			return ctx.sb.kyc.get(String(items[0].json.scanRef))?.request.documents;
		};

		test('sends the types picked from the list', async () => {
			expect(await sentDocuments(['PASSPORT', 'ID_CARD'])).toEqual(['PASSPORT', 'ID_CARD']);
		});

		test('sends a type the list does not name, given by an expression', async () => {
			expect(await sentDocuments('={{ ["ID_CARD", "MY_ACCOUNT_TYPE"] }}')).toEqual([
				'ID_CARD',
				'MY_ACCOUNT_TYPE',
			]);
		});

		test('sends no list when none is picked', async () => {
			expect(await sentDocuments([])).toBeUndefined();
		});

		test('version 1 keeps the text field: "ID_CARD, PASSPORT" is sent as a list', async () => {
			expect(await sentDocuments('ID_CARD, PASSPORT', 1)).toEqual(['ID_CARD', 'PASSPORT']);
		});
	});

	test.each([
		['clientId', 'x'.repeat(101), 'Client ID', 'at most 100 characters'],
		['externalRef', 'x'.repeat(41), 'External Reference', 'at most 40 characters'],
		['expiryTime', 2592001, 'Expiry Time (Seconds)', 'at most 2592000 seconds'],
		['expiryTime', -1, 'Expiry Time (Seconds)', 'at least 0 seconds'],
		['sessionLength', 59, 'Session Length (Seconds)', 'at least 60 seconds'],
		['sessionLength', 3601, 'Session Length (Seconds)', 'at most 3600 seconds'],
		['successUrl', 'example.com/ok', 'Success URL', 'full address'],
		['firstName', 'x'.repeat(101), 'First Name', 'at most 100 characters'],
		['callbackUrl', 'ftp://example.com', 'Callback URL', 'full web address'],
		['dateOfBirth', '31.12.1990', 'Date of Birth', 'YYYY-MM-DD'],
		['dateOfBirth', '1990-02-30', 'Date of Birth', 'real calendar date'],
		['locale', 'english please', 'Language', 'at most 7 characters'],
	])(
		'refuses %s = %j with an error naming the field, before any request',
		async (name, value, label, rule) => {
			const parameters =
				name === 'clientId'
					? { clientId: value }
					: { clientId: 'customer-47', tokenFields: { [name]: value } };
			const result = await createToken(parameters);
			const error = expectError(result, label, rule);
			expect(
				error.message.startsWith(name === 'clientId' ? 'Client ID' : 'Additional Fields › '),
			).toBe(true);
			expect(serviceRequests(ctx.sb)).toBe(0);
		},
	);

	test('sends what the service accepts although it is not a common code: it decides (its schema limits only these lengths)', async () => {
		const { items, error } = await createToken({
			clientId: 'customer-48',
			tokenFields: {
				locale: 'zh-Hans',
				country: 'Lithuania',
				successUrl: 'myapp://verification/done',
				firstName: 'x'.repeat(100),
			},
			additionalFields: { field: [{ name: 'documents', value: '={{ ["PASSPORT", ""] }}' }] },
		});
		expect(error).toBeUndefined();
		expect(ctx.sb.kyc.get(String(items[0].json.scanRef))?.request).toMatchObject({
			locale: 'zh-Hans',
			country: 'Lithuania',
			successUrl: 'myapp://verification/done',
			documents: ['PASSPORT', ''],
		});
	});

	test('the checks a compliance team sets per case reach the service with their types', async () => {
		const checks = {
			checkAml: true,
			autoAmlMonitoring: true,
			checkFaceBlacklist: true,
			checkDocFaceBlacklist: false,
			checkPersonBlacklist: true,
			questionnaire: 'onboarding-questions',
			questionnaireRequired: false,
			theme: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
			riskAssessmentProfile: '5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a10',
		};
		const { items, error } = await createToken({ clientId: 'customer-49', tokenFields: checks });
		expect(error).toBeUndefined();
		expect(ctx.sb.kyc.get(String(items[0].json.scanRef))?.request).toMatchObject(checks);
	});

	test.each([
		['checkAml', '={{ "yes" }}', 'Additional Fields › AML Check'],
		['checkPersonBlacklist', '={{ 1 }}', 'Additional Fields › Blocklist Check: Personal Data'],
		['theme', 'blue', 'Additional Fields › Theme'],
		['riskAssessmentProfile', 'strict', 'Additional Fields › Risk Assessment Profile'],
	])(
		'refuses the typed %s = %j naming the field, before any request',
		async (name, value, label) => {
			const result = await createToken({ clientId: 'customer-50', tokenFields: { [name]: value } });
			expectError(result, `${label}:`);
			expect(serviceRequests(ctx.sb)).toBe(0);
		},
	);

	test('a Custom Field named as a check is still sent as given (as before the typed field came)', async () => {
		const { items, error } = await createToken({
			clientId: 'customer-51',
			additionalFields: { field: [{ name: 'checkAml', value: 'true' }] },
		});
		expect(error).toBeUndefined();
		expect(ctx.sb.kyc.get(String(items[0].json.scanRef))?.request).toMatchObject({
			checkAml: 'true',
		});
	});

	test('keeps free-form Custom Fields for settings the node does not name; typed fields win', async () => {
		const { items, error } = await createToken({
			clientId: 'customer-48',
			tokenFields: { locale: 'de' },
			additionalFields: {
				field: [
					{ name: 'tokenType', value: 'DOCUMENT' },
					{ name: 'locale', value: 'en' },
				],
			},
		});
		expect(error).toBeUndefined();
		expect(ctx.sb.kyc.get(String(items[0].json.scanRef))?.request).toMatchObject({
			tokenType: 'DOCUMENT',
			locale: 'de',
		});
	});

	test('"Send the Result to This Workflow" sets the callback URL to the execution\'s resume URL', async () => {
		const { items, error } = await createToken(
			{ clientId: 'customer-49', sendResultToWorkflow: true },
			{ after: [WAIT_STEP] },
		);
		expect(error).toBeUndefined();
		const callbackUrl = ctx.sb.kyc.get(String(items[0].json.scanRef))?.request.callbackUrl;
		expect(callbackUrl).toMatch(/^https?:\/\/[^/]+\/webhook-waiting\/[^/?]+/);
	});

	test('"Send the Result to This Workflow" binds the later Wait for Result to the scanRef the service answered', async () => {
		const { items, error, run } = await createToken(
			{ clientId: 'customer-53', sendResultToWorkflow: true },
			{ after: [WAIT_STEP] },
		);
		expect(error).toBeUndefined();
		expect(run.status).toBe('waiting');
		const scanRef = String(items[0].json.scanRef);
		expect(scanRef).not.toBe('');
		const kept = run.data.executionData!.nodeExecutionStack[0].data.main[0];
		expect(kept).toEqual([{ json: { timedOut: true, scanRef }, pairedItem: { item: 0 } }]);
	});

	test('"Send the Result to This Workflow" refuses several items before any request (one result per execution)', async () => {
		const input = [{ json: { n: 1 } }, { json: { n: 2 } }];
		const result = await createToken(
			{ clientId: 'customer-54', sendResultToWorkflow: true },
			{ after: [WAIT_STEP], input },
		);
		expectError(result, 'Send the Result to This Workflow', 'one person per execution', '2 items');
		expect(result.error!.description).toContain('Execute Workflow');
		expect(serviceRequests(ctx.sb)).toBe(0);

		const kept = await createToken(
			{ clientId: 'customer-54', sendResultToWorkflow: true },
			{ input, continueOnFail: true },
		);
		expect(kept.items.map((item) => item.json.error)).toEqual([
			expect.stringContaining('one person per execution'),
			expect.stringContaining('one person per execution'),
		]);
		expectPaired(kept.items, (index) => index);
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('"Send the Result to This Workflow" refuses a resume address a real service cannot reach (http or loopback), naming WEBHOOK_URL', async () => {
		// The harness's resume address is http://127.0.0.1:5678/webhook-waiting/...; a Base URL off
		// this machine is a real service, which only delivers to public https:// addresses.
		const result = await createToken(
			{ clientId: 'customer-55', sendResultToWorkflow: true },
			{ after: [WAIT_STEP], baseUrl: 'https://ivs.example.com' },
		);
		const error = expectError(result, 'Send the Result to This Workflow', 'resume address');
		expect(error.description).toContain('WEBHOOK_URL');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('refuses "Send the Result to This Workflow" together with a Callback URL', async () => {
		const result = await createToken(
			{
				clientId: 'customer-50',
				sendResultToWorkflow: true,
				tokenFields: { callbackUrl: 'https://example.com/kyc' },
			},
			{ after: [WAIT_STEP] },
		);
		expectError(result, 'Send the Result to This Workflow', 'Callback URL');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('refuses "Send the Result to This Workflow" in a production run when no later step waits for the result', async () => {
		const result = await createToken(
			{ clientId: 'customer-52', sendResultToWorkflow: true },
			{ mode: 'trigger' },
		);
		expectError(result, 'Send the Result to This Workflow', 'Wait for Result');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});

	test('a token made without "Send the Result to This Workflow" binds no later Wait for Result: the wait says it has nothing to wait for', async () => {
		const { items, error, run } = await createToken(
			{ clientId: 'customer-57' },
			{ after: [WAIT_STEP] },
		);
		expect(run.status).not.toBe('waiting');
		expect(items[0].json.scanRef).toEqual(expect.any(String));
		// The execution's error is the wait's (the token step succeeded).
		expect(error?.message).toBe('Wait for Result: no verification to wait for');
		expect(run.data.resultData.lastNodeExecuted).toBe(WAIT_STEP.name);
	});

	test('a manual run of the token step alone (no Wait for Result yet) makes the token without a callback and says what the wait needs', async () => {
		const { items, error, run } = await createToken({
			clientId: 'customer-56',
			sendResultToWorkflow: true,
		});
		expect(error).toBeUndefined();
		expect(run.status).toBe('success');
		const scanRef = String(items[0].json.scanRef);
		expect(ctx.sb.kyc.get(scanRef)?.request.callbackUrl).toBeUndefined();
		const [task] = run.data.resultData.runData['Identity Verification'];
		expect(task.hints).toEqual([
			{ message: expect.stringContaining('Wait for Result'), location: 'outputPane' },
		]);
		expect(task.hints?.[0].message).toMatch(/^Send the Result to This Workflow: this test run/);
		// Nothing is bound: no execution waits for this verification.
		expect(run.data.resultData.runData['Wait for the result']).toBeUndefined();
	});

	test('Simplify returns the fields a workflow routes on; off returns the whole answer', async () => {
		const full = await createToken({
			clientId: 'customer-51',
			tokenFields: { externalRef: 'order-9', firstName: 'Ona', lastName: 'Onaite', locale: 'lt' },
		});
		expect(Object.keys(full.items[0].json).length).toBeGreaterThan(10);
		const simple = await createToken({
			clientId: 'customer-51',
			tokenFields: { externalRef: 'order-9', firstName: 'Ona', lastName: 'Onaite', locale: 'lt' },
			simplify: true,
		});
		expect(simple.error).toBeUndefined();
		expect(Object.keys(simple.items[0].json).sort()).toEqual(
			[
				'authToken',
				'verificationUrl',
				'clientId',
				'expiryTime',
				'externalRef',
				'redirectUrl',
				'scanRef',
				'sessionLength',
			].sort(),
		);
		expectPaired(simple.items);
	});

	test('outputs the link to send the person, right after the token: the hosted page under the Base URL, or the account’s own page', async () => {
		const { items, error } = await createToken({ clientId: 'customer-52' });
		expect(error).toBeUndefined();
		const { authToken } = items[0].json as { authToken: string };
		expect(Object.keys(items[0].json).slice(0, 2)).toEqual(['authToken', 'verificationUrl']);
		expect(items[0].json.verificationUrl).toBe(
			`${ctx.sb.url}/api/v2/redirect?authToken=${encodeURIComponent(authToken)}`,
		);
		const own = await createToken({
			clientId: 'customer-53',
			linkOptions: { verificationPage: 'https://example.com/verify?lang=lt' },
		});
		expect(own.items[0].json.verificationUrl).toBe(
			`https://example.com/verify?lang=lt&authToken=${encodeURIComponent(String(own.items[0].json.authToken))}`,
		);
	});

	test('the service’s own redirectUrl is the link when it gives one', async () => {
		ctx.sb.faults.add({
			method: 'POST',
			path: '/api/v2/token',
			status: 201,
			body: {
				authToken: 'tok-1',
				scanRef: 's-1',
				redirectUrl: 'https://ivs.example.org/api/v2/redirect?authToken=tok-1',
			},
		});
		const { items } = await createToken({ clientId: 'customer-54' });
		expect(items[0].json.verificationUrl).toBe(
			'https://ivs.example.org/api/v2/redirect?authToken=tok-1',
		);
	});
});
