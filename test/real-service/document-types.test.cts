/** The document types the node lists are the provider's (KycDocumentTypeEnum of its KYC OpenAPI). */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parse as parseYaml } from 'yaml';

import { KYC_DOCUMENT_TYPES } from '../../nodes/shared/contract';
import { CORPUS } from './provider.cjs';

test('KYC_DOCUMENT_TYPES is the provider’s KycDocumentTypeEnum, in its order', () => {
	const kyc = parseYaml(readFileSync(path.join(CORPUS, 'openapi', 'kyc.yaml'), 'utf8')) as {
		components: { schemas: Record<string, { enum?: string[] }> };
	};
	expect([...KYC_DOCUMENT_TYPES]).toEqual(kyc.components.schemas.KycDocumentTypeEnum.enum);
});
