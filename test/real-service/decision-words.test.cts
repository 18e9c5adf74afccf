/** The words Personal Data: Leave Out keeps of a decision are the provider's (its KYC OpenAPI enums). */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parse as parseYaml } from 'yaml';

import {
	ADDITIONAL_STEP_STATUSES,
	DOCUMENT_CHECK_RESULTS,
	FACE_CHECK_RESULTS,
	FRAUD_TAGS,
	IDENTIFICATION_STATUSES,
	MISMATCH_TAGS,
	RISK_LEVELS,
} from '../../nodes/shared/contract';
import { CORPUS } from './provider.cjs';

const kyc = parseYaml(readFileSync(path.join(CORPUS, 'openapi', 'kyc.yaml'), 'utf8')) as {
	components: { schemas: Record<string, { enum?: string[] }> };
};

test.each([
	[
		'IdentificationStatusEnum',
		IDENTIFICATION_STATUSES.filter((word) => word !== 'EXPIRED-DELETED'),
	],
	['DocumentStatusEnum', DOCUMENT_CHECK_RESULTS],
	['FaceStatusEnum', FACE_CHECK_RESULTS],
	['FraudTagsEnum', FRAUD_TAGS],
	['InfoMismatchEnum', MISMATCH_TAGS],
	['AdditionalStepStatusEnum', ADDITIONAL_STEP_STATUSES],
	['RiskLevelEnum', RISK_LEVELS],
])('the contract’s list is the provider’s %s, in its order', (name, words) => {
	expect([...words]).toEqual(kyc.components.schemas[name].enum);
});
