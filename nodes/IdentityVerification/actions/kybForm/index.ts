import * as addBeneficiary from './addBeneficiary.operation';
import * as createForm from './createForm.operation';
import * as createSession from './createSession.operation';
import * as deleteAnswers from './deleteAnswers.operation';
import * as getAllAnswers from './getAllAnswers.operation';
import * as getAnswers from './getAnswers.operation';
import * as getBeneficiaries from './getBeneficiaries.operation';
import * as submitForm from './submitForm.operation';
import * as updateForm from './updateForm.operation';

/**
 * The operations of KYB Form (the company's side: its session and the form it fills), by their
 * value, in the order of their names: the router runs them, the build writes their schemas.
 */
export const operations = {
	addBeneficiary,
	createForm,
	createSession,
	deleteAnswers,
	getAllAnswers,
	getBeneficiaries,
	getAnswers,
	submitForm,
	updateForm,
};
