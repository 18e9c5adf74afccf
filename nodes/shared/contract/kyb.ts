/** KYB: questionnaire answers and forms of a company. */
import { z } from 'zod';

import { pathId } from './common';

export const kybQuestionnaireParamsSchema = z.object({
	companyId: pathId('Company ID'),
	questionnaireId: pathId('Questionnaire ID'),
});

export const kybFormParamsSchema = z.object({ formId: pathId('Form ID') });

/** Structure inside `sections` is not shown: anything is accepted. */
export const questionnaireAnswersSchema = z
	.object({ sections: z.record(z.unknown()).or(z.array(z.unknown())) })
	.passthrough();
