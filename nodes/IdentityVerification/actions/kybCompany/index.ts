import * as deleteCompany from './delete.operation';
import * as downloadPdf from './downloadPdf.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getAvailableDocuments from './getAvailableDocuments.operation';
import * as getOrderedDocument from './getOrderedDocument.operation';
import * as getOrderedDocuments from './getOrderedDocuments.operation';
import * as orderDocument from './orderDocument.operation';
import * as rerunAutomation from './rerunAutomation.operation';
import * as setReviewDecision from './setReviewDecision.operation';

/**
 * The operations of KYB Company (the reviewer's side: the companies that onboard, their review
 * and their records; the API key only), by their value, in the order of their names.
 */
export const operations = {
	delete: deleteCompany,
	downloadPdf,
	get,
	getAvailableDocuments,
	getAll,
	getOrderedDocuments,
	getOrderedDocument,
	orderDocument,
	rerunAutomation,
	setReviewDecision,
};
